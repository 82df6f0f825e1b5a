/* jsonstr.c - see jsonstr.h. */
#include "base/jsonstr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

char *mg_json_at_path(const mg_json_at *at, char *buf, size_t len)
{
    if (!at) {
        snprintf(buf, len, "$");
        return buf;
    }
    mg_json_at_path(at->up, buf, len);
    size_t base = strlen(buf);
    if (at->in_object) snprintf(buf + base, len - base, ".%s", at->node->string);
    else snprintf(buf + base, len - base, "[%d]", at->idx);
    return buf;
}

/* A walk over the document: the tree gives the JSON path, the text the
 * literal.  Keys, strings and numbers appear in the text in the order of a
 * pre-order walk of the tree (an object's key before its value), so the
 * next string literal (or number) in the text is always the next string
 * (or number) of the walk.  The path is written out only for a message. */
typedef struct walk {
    const char *name;
    const char *text;
    size_t      len;
    size_t      pos;      /* where the search for the next literal starts */
    const mg_json_at *at; /* where the walk is (NULL: the root) */
    mg_diag    *d;
} walk;

/* The next string literal at or after w->pos: [*s, *e) between its quotes.
 * Returns 0, or -1 when there is none (the text does not match the tree).
 * text[len] is '\0' and no NUL comes before it (mg_json_parse checks), so
 * memchr and strcspn find the bytes that matter. */
static int next_literal(walk *w, size_t *s, size_t *e)
{
    const char *q = memchr(w->text + w->pos, '"', w->len - w->pos);
    if (!q) return -1;
    size_t i = (size_t)(q - w->text) + 1;
    *s = i;
    for (;;) {
        i += strcspn(w->text + i, "\"\\");
        if (i >= w->len) return -1;
        if (w->text[i] == '"') break;
        i += 2;                                  /* the escape and its byte */
        if (i >= w->len) return -1;
    }
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

/* Report the bad character cp (-1: not UTF-8, the byte at p), character
 * ch of the literal at w->at (key as check_literal's). */
static void literal_error(const walk *w, int key, const char *p, long cp, size_t ch)
{
    char path[512], what[32] = "";
    mg_json_at_path(w->at, path, sizeof path);
    if (key) snprintf(what, sizeof what, " key #%d:", key);
    if (cp < 0)
        mg_diag_error(w->d, "%s: %s:%s expected UTF-8 text, got the byte 0x%02x "
                      "at character %zu", w->name, path, what, (unsigned)(unsigned char)*p, ch);
    else if (cp == 0)
        mg_diag_error(w->d, "%s: %s:%s expected text without NUL characters, "
                      "got \\u0000 at character %zu", w->name, path, what, ch);
    else
        mg_diag_error(w->d, "%s: %s:%s expected text without control characters, "
                      "got U+%04lX at character %zu", w->name, path, what,
                      (unsigned long)cp, ch);
}

/* The bytes that stand for themselves in a literal: printable ASCII but
 * the quote and the backslash. */
static const char plain[] =
    " !#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`"
    "abcdefghijklmnopqrstuvwxyz{|}~";

/* Check the literal [s, e) of the string at w->at (key: 0 for a value, N
 * for the key of an object's member N).  Returns 0, or -1 with an error. */
static int check_literal(walk *w, size_t s, size_t e, int key)
{
    const char *p = w->text + s, *end = w->text + e;
    for (size_t ch = 1; p < end; ch++) {
        size_t n = strspn(p, plain);     /* stops at the closing quote at the latest */
        if (n) {
            p += n;
            ch += n - 1;
            continue;
        }
        long cp = *p == '\\' ? unescape(p, end, &n)
                             : mg_utf8_decode((const unsigned char *)p,
                                           (const unsigned char *)end, &n);
        if (cp < 0 || cp == 0 || is_control(cp)) {
            literal_error(w, key, p, cp, ch);
            return -1;
        }
        p += n;
    }
    return 0;
}

/* Check the next literal as the string at w->at (key as check_literal's). */
static int check_next(walk *w, int key)
{
    size_t s, e;
    if (next_literal(w, &s, &e)) {
        char path[512];
        mg_diag_error(w->d, "%s: %s: the text does not match its parsed form",
                      w->name, mg_json_at_path(w->at, path, sizeof path));
        return -1;
    }
    return check_literal(w, s, e, key);
}

/* The number at w->at, the next number token in the text: it must be
 * finite as a double (cJSON reads 1e309 as infinity). */
static int check_number(walk *w, const cJSON *j)
{
    size_t i = w->pos;
    i += strcspn(w->text + i, "-0123456789");
    if (i > w->len) i = w->len;
    size_t s = i;
    i += strspn(w->text + i, "-+.eE0123456789");
    if (i > w->len) i = w->len;
    w->pos = i;
    if (isfinite(j->valuedouble)) return 0;
    int n = i - s > 40 ? 40 : (int)(i - s);
    char path[512];
    mg_diag_error(w->d, "%s: %s: %.*s%s is out of range for a double (magnitude above 1.8e308)",
                  w->name, mg_json_at_path(w->at, path, sizeof path), n, w->text + s,
                  i - s > 40 ? "..." : "");
    return -1;
}

/* Walk j (at w->at) in pre-order, checking each key, string and number. */
static int check_node(walk *w, const cJSON *j)
{
    if (cJSON_IsString(j)) return check_next(w, 0);
    if (cJSON_IsNumber(j)) return check_number(w, j);
    if (!cJSON_IsObject(j) && !cJSON_IsArray(j)) return 0;
    const mg_json_at *up = w->at;
    mg_json_at at = {.up = up, .in_object = cJSON_IsObject(j)};
    for (const cJSON *c = j->child; c; c = c->next, at.idx++) {
        if (at.in_object && check_next(w, at.idx + 1)) return -1;
        at.node = c;
        w->at = &at;
        int rc = check_node(w, c);
        w->at = up;
        if (rc) return -1;
    }
    return 0;
}

int mg_json_check_values(const char *name, const char *text, size_t len,
                          const cJSON *j, mg_diag *d)
{
    walk w = { .name = name, .text = text, .len = len, .pos = 0, .at = NULL, .d = d };
    return check_node(&w, j);
}
