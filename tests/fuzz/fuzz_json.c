/*
 * fuzz_json.c - libFuzzer target: the strict JSON reader (base/jsonfile):
 * syntax, NUL bytes, nesting, duplicate keys, error locations.  An
 * accepted document must print and parse back.
 */
#include "tests/fuzz/harness.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (j) {
        char *s = cJSON_PrintUnformatted(j);
        mg_fuzz_assert(s != NULL, "an accepted document does not print");
        cJSON *back = cJSON_Parse(s);
        mg_fuzz_assert(back != NULL, "a printed document does not parse back");
        cJSON_Delete(back);
        free(s);
        cJSON_Delete(j);
    }
    return 0;
}
