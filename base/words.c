/* words.c - "key=value" words (see words.h). */
#include "base/words.h"

#include <stdio.h>
#include <string.h>

int mg_word_value(const char *words, const char *key, char *out, size_t len)
{
    size_t kl = strlen(key);
    if (len) out[0] = 0;
    if (!kl) return 0;
    for (const char *p = words; (p = strstr(p, key)) != NULL; p += kl) {
        if ((p == words || p[-1] == ' ') && p[kl] == '=') {
            size_t n = strcspn(p + kl + 1, " ");
            if (len) snprintf(out, len, "%.*s", (int)n, p + kl + 1);
            return 1;
        }
    }
    return 0;
}
