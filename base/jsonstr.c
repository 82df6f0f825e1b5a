/* jsonstr.c - see jsonstr.h. */
#include "base/jsonstr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A walk over the document: the tree gives the JSON path, the text the
 * literal.  Keys, strings and numbers appear in the text in the order of a
 * pre-order walk of the tree (an object's key before its value), so the
 * next string literal (or number) in the text is always the next string
 * (or number) of the walk. */
typedef struct walk {
    const char *name;
    const char *text;
    size_t      len;
    size_t      pos;      /* where the search for the next literal starts */
    char        path[512];
    mg_diag    *d;
} walk;

/* The next string literal at or after w->pos: [*s, *e) between its quotes.
 * Returns 0, or -1 when there is none (the text does not match the tree). */
static int next_literal(walk *w, size_t *s, size_t *e)
{
    size_t i = w->pos;
    while (i < w->len && w->text[i] != '"') i++;
    if (i >= w->len) return -1;
    *s = ++i;
    while (i < w->len && w->text[i] != '"') i += w->text[i] == '\\' ? 2 : 1;
    if (i >= w->len) return -1;
    *e = i;
    w->pos = i + 1;
    return 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The code point of the escape at p[0] == '\\' (p < end); sets *n to the
 * bytes it spans.  A surrogate pair counts as one code point. */
static long unescape(const char *p, const char *end, size_t *n)
{
    static const char simple[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
    *n = 2;
    if (p + 1 >= end) return -1;
    if (p[1] != 'u') {
        for (const char *q = simple; *q; q += 2)
            if (*q == p[1]) return (unsigned char)q[1];
        return -1;
    }
    long cp = 0;
    for (int k = 2; k < 6; k++) {
        int h = p + k < end ? hexval(p[k]) : -1;
        if (h < 0) return -1;
        cp = cp * 16 + h;
    }
    *n = 6;
    if (cp >= 0xd800 && cp < 0xdc00 && p + 12 <= end && p[6] == '\\' && p[7] == 'u') {
        size_t m;
        long lo = unescape(p + 6, end, &m);
        if (lo >= 0xdc00 && lo < 0xe000) {
            *n = 12;
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        }
    }
    return cp;
}

long mg_utf8_decode(const unsigned char *p, const unsigned char *end, size_t *n)
{
    *n = 1;
    if (p[0] < 0x80) return p[0];
    int len = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc0 ? 2 : 0;
    if (!len || p[0] > 0xf4 || end - p < len) return -1;
    long cp = p[0] & (0x7f >> len);
    for (int k = 1; k < len; k++) {
        if ((p[k] & 0xc0) != 0x80) return -1;
        cp = (cp << 6) | (p[k] & 0x3f);
    }
    static const long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return -1;
    *n = (size_t)len;
    return cp;
}

static int is_control(long cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/* Check the literal [s, e) of the string at w->path (`what` says which:
 * "" for a value, " key" for a key).  Returns 0, or -1 with an error. */
static int check_literal(walk *w, size_t s, size_t e, const char *what)
{
    const char *p = w->text + s, *end = w->text + e;
    for (size_t ch = 1; p < end; ch++) {
        size_t n;
        long cp = *p == '\\' ? unescape(p, end, &n)
                             : mg_utf8_decode((const unsigned char *)p,
                                           (const unsigned char *)end, &n);
        if (cp < 0) {
            mg_diag_error(w->d, "%s: %s:%s expected UTF-8 text, got the byte 0x%02x "
                          "at character %zu", w->name, w->path, what,
                          (unsigned)(unsigned char)*p, ch);
            return -1;
        }
        if (cp == 0) {
            mg_diag_error(w->d, "%s: %s:%s expected text without NUL characters, "
                          "got \\u0000 at character %zu", w->name, w->path, what, ch);
            return -1;
        }
        if (is_control(cp)) {
            mg_diag_error(w->d, "%s: %s:%s expected text without control characters, "
                          "got U+%04lX at character %zu", w->name, w->path, what,
                          (unsigned long)cp, ch);
            return -1;
        }
        p += n;
    }
    return 0;
}

/* Check the next literal as the string at w->path. */
static int check_next(walk *w, const char *what)
{
    size_t s, e;
    if (next_literal(w, &s, &e)) {
        mg_diag_error(w->d, "%s: %s: the text does not match its parsed form",
                      w->name, w->path);
        return -1;
    }
    return check_literal(w, s, e, what);
}

/* The number at w->path, the next number token in the text: it must be
 * finite as a double (cJSON reads 1e309 as infinity). */
static int check_number(walk *w, const cJSON *j)
{
    size_t i = w->pos;
    while (i < w->len && !strchr("-0123456789", w->text[i])) i++;
    size_t s = i;
    while (i < w->len && w->text[i] && strchr("-+.eE0123456789", w->text[i])) i++;
    w->pos = i;
    if (isfinite(j->valuedouble)) return 0;
    int n = i - s > 40 ? 40 : (int)(i - s);
    mg_diag_error(w->d, "%s: %s: %.*s%s is out of range for a double (magnitude above 1.8e308)",
                  w->name, w->path, n, w->text + s, i - s > 40 ? "..." : "");
    return -1;
}

/* Walk j (at w->path) in pre-order, checking each key, string and number. */
static int check_node(walk *w, const cJSON *j)
{
    if (cJSON_IsString(j)) return check_next(w, "");
    if (cJSON_IsNumber(j)) return check_number(w, j);
    if (!cJSON_IsObject(j) && !cJSON_IsArray(j)) return 0;
    size_t base = strlen(w->path);
    int idx = 0;
    for (const cJSON *c = j->child; c; c = c->next, idx++) {
        if (cJSON_IsObject(j)) {
            char what[32];
            snprintf(what, sizeof what, " key #%d:", idx + 1);
            if (check_next(w, what)) return -1;
            snprintf(w->path + base, sizeof w->path - base, ".%s", c->string);
        } else {
            snprintf(w->path + base, sizeof w->path - base, "[%d]", idx);
        }
        if (check_node(w, c)) return -1;
        w->path[base] = '\0';
    }
    return 0;
}

int mg_json_check_values(const char *name, const char *text, size_t len,
                          const cJSON *j, mg_diag *d)
{
    walk w = { .name = name, .text = text, .len = len, .pos = 0, .path = "$", .d = d };
    return check_node(&w, j);
}
