/* jsonfile.c - see jsonfile.h. */
#include "base/jsonfile.h"
#include "base/jsonstr.h"

#include "base/hash.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *mg_json_type_name(const cJSON *j)
{
    if (!j) return "nothing";
    if (cJSON_IsObject(j)) return "an object";
    if (cJSON_IsArray(j)) return "an array";
    if (cJSON_IsString(j)) return "a string";
    if (cJSON_IsNumber(j)) return "a number";
    if (cJSON_IsBool(j)) return "a boolean";
    if (cJSON_IsNull(j)) return "null";
    return "an invalid value";
}

char *mg_read_file(const char *path, size_t max, size_t *len, mg_diag *d)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        mg_diag_error(d, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) != 0) st.st_mode = 0;
    if (S_ISDIR(st.st_mode)) {
        mg_diag_error(d, "%s: is a directory, expected a file", path);
        if (f != stdin) fclose(f);
        return NULL;
    }
    size_t cap = 4096, n = 0;
    /* A regular file: one buffer of its size plus a byte (so the read that
     * finds the end needs no growth), read without stdio's own buffer
     * (one copy, no 4 KiB buffer allocated per file); the loop below
     * still copes with a file that grows or reports size 0 (/proc). */
    if (f != stdin && S_ISREG(st.st_mode) && st.st_size > 0 && (uintmax_t)st.st_size < max) {
        cap = (size_t)st.st_size + 1;
        setvbuf(f, NULL, _IONBF, 0);
    }
    char *buf = malloc(cap + 1);
    while (buf) {
        if (n == cap) {
            if (cap >= max) break;
            cap = cap * 2 > max ? max : cap * 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    int rderr = ferror(f);
    int more = buf && n == cap && fgetc(f) != EOF;
    if (f != stdin) fclose(f);
    if (!buf) {
        mg_diag_error(d, "%s: out of memory reading the file", path);
        return NULL;
    }
    if (rderr) {
        mg_diag_error(d, "%s: read error", path);
        free(buf);
        return NULL;
    }
    if (more) {
        mg_diag_error(d, "%s: larger than the %zu-byte limit for this input", path, max);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Line and column (1-based) of byte offset `off` in text (memchr: these
 * scans run on every rejected document, so they use libc's). */
static void locate(const char *text, size_t off, size_t *line, size_t *col)
{
    size_t l = 1, start = 0;
    const char *e = text + off;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) {
        l++;
        start = (size_t)(p - text) + 1;
    }
    *line = l;
    *col = off - start + 1;
}

/* Scan text[0, off) skipping strings; report the bracket depth reached and
 * whether the scan ended inside a string.  text holds no NUL before
 * text[len] = '\0' (off <= len), so strcspn jumps to the next byte that
 * matters.  Returns 0, or -1 when a closing bracket has no opener (the
 * text is malformed, not cut short). */
static int scan_depth(const char *text, size_t off, long *depth, int *in_string)
{
    int in_str = 0;
    long dep = 0;
    for (size_t i = 0; i < off; i++) {
        i += strcspn(text + i, in_str ? "\"\\" : "\"{}[]");
        if (i >= off) break;
        char ch = text[i];
        if (in_str) {
            if (ch == '\\') i++;                     /* skip the escaped byte */
            else in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if (ch == '{' || ch == '[') {
            dep++;
        } else if (--dep < 0) {
            return -1;
        }
    }
    *depth = dep;
    *in_string = in_str;
    return 0;
}

/* True when text ends inside a string or with brackets left open: the
 * document was cut short, whatever cJSON's error position says. */
static int looks_truncated(const char *text, size_t len)
{
    long depth;
    int in_str;
    return scan_depth(text, len, &depth, &in_str) == 0 && (in_str || depth > 0);
}

/* True when byte offset `off` lies deeper than cJSON's nesting limit. */
static int too_deep(const char *text, size_t off)
{
    long depth;
    int in_str;
    return scan_depth(text, off, &depth, &in_str) == 0 && depth >= CJSON_NESTING_LIMIT;
}

/* The keys of one object seen so far: an open-addressed table of cJSON
 * nodes keyed by FNV-1a of their names, sized for the object's member count
 * at most half full, so the duplicate check is linear in the document.  A
 * small object's table is the caller's array (no allocation). */
typedef struct {
    const cJSON **slot;
    size_t mask;
} keyset;

#define KEYSET_SMALL 16

/* Size ks for n keys, in small[KEYSET_SMALL] when it fits.  Returns 0, or
 * -1 when out of memory. */
static int keyset_init(keyset *ks, size_t n, const cJSON **small)
{
    size_t cap = 8;
    while (cap < 2 * n) cap *= 2;
    if (cap <= KEYSET_SMALL) {
        memset(small, 0, cap * sizeof *small);
        ks->slot = small;
    } else {
        ks->slot = calloc(cap, sizeof *ks->slot);
    }
    ks->mask = cap - 1;
    return ks->slot ? 0 : -1;
}

/* Insert c by its name; returns 1 when a member of that name was already
 * there (a duplicate), 0 when inserted. */
static int keyset_add(keyset *ks, const cJSON *c)
{
    const char *k = c->string ? c->string : "";
    size_t i = (size_t)mg_fnv1a_str(k) & ks->mask;
    for (; ks->slot[i]; i = (i + 1) & ks->mask) {
        const char *e = ks->slot[i]->string ? ks->slot[i]->string : "";
        if (!strcmp(e, k)) return 1;
    }
    ks->slot[i] = c;
    return 0;
}

/* Report the object at `at` (its member c, a repeat when c is not NULL):
 * a repeated key, or no memory for the check. */
static void dup_error(const char *name, const mg_json_at *at, const cJSON *c, mg_diag *d)
{
    char path[512];
    mg_json_at_path(at, path, sizeof path);
    if (c)
        mg_diag_error(d, "%s: %s.%s: duplicate key (each key may appear once)", name, path,
                      c->string ? c->string : "?");
    else
        mg_diag_error(d, "%s: %s: out of memory checking for duplicate keys", name, path);
}

/* Recursively reject objects with a repeated key; `up` is where j is (NULL:
 * j is the root).  Reports the first repeat in document order.  Returns 0
 * when clean. */
static int check_dups(const char *name, const cJSON *j, const mg_json_at *up, mg_diag *d)
{
    if (!cJSON_IsObject(j) && !cJSON_IsArray(j)) return 0;
    size_t n = 0;
    for (const cJSON *c = j->child; c; c = c->next) n++;
    keyset ks = {NULL, 0};
    const cJSON *small[KEYSET_SMALL];
    if (cJSON_IsObject(j) && keyset_init(&ks, n, small)) {
        dup_error(name, up, NULL, d);
        return -1;
    }
    mg_json_at at = {.up = up, .in_object = cJSON_IsObject(j)};
    int rc = 0;
    for (const cJSON *c = j->child; c && !rc; c = c->next, at.idx++) {
        if (at.in_object && keyset_add(&ks, c)) {
            dup_error(name, up, c, d);
            rc = -1;
            break;
        }
        at.node = c;
        rc = check_dups(name, c, &at, d);
    }
    if (ks.slot != small) free(ks.slot);
    return rc;
}

/* Report cJSON's syntax error in text: where (line, column, offset) and
 * what (cut short, nested too deep, or the text near it). */
static void syntax_error(const char *name, const char *text, size_t len, mg_diag *d)
{
    const char *ep = cJSON_GetErrorPtr();
    size_t off = (ep && ep >= text && ep <= text + len) ? (size_t)(ep - text) : len;
    size_t line, col;
    locate(text, off, &line, &col);
    char near[24] = "";
    size_t k = 0;
    for (size_t q = off; q < len && k < 16 && text[q] != '\n'; q++)
        near[k++] = (text[q] >= 32 && text[q] < 127) ? text[q] : '?';
    near[k] = '\0';
    if (off >= len || looks_truncated(text, len)) {
        locate(text, len, &line, &col);
        off = len;
    }
    if (off < len && too_deep(text, off))
        mg_diag_error(d, "%s:%zu:%zu: JSON nested deeper than %d levels at byte offset %zu",
                      name, line, col, CJSON_NESTING_LIMIT, off);
    else if (off >= len)
        mg_diag_error(d, "%s:%zu:%zu: JSON syntax error: unexpected end of input "
                      "at byte offset %zu (truncated file?)", name, line, col, off);
    else
        mg_diag_error(d, "%s:%zu:%zu: JSON syntax error at byte offset %zu near '%s'",
                      name, line, col, off, near);
}

cJSON *mg_json_parse(const char *name, const char *text, size_t len, mg_diag *d)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' ||
                       text[i] == '\r'))
        i++;
    if (i == len) {
        mg_diag_error(d, "%s: empty file, expected a JSON object", name);
        return NULL;
    }
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        size_t line, col;
        locate(text, (size_t)(nul - text), &line, &col);
        mg_diag_error(d, "%s:%zu:%zu: NUL byte at byte offset %zu: this is binary data, "
                      "expected JSON text", name, line, col, (size_t)(nul - text));
        return NULL;
    }
    const char *end = NULL;
    /* len + 1: cJSON wants the terminating NUL inside the length. */
    cJSON *j = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
    if (!j) {
        if (d) syntax_error(name, text, len, d);
        return NULL;
    }
    if (check_dups(name, j, NULL, d) ||
        mg_json_check_values(name, text, len, j, d)) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}

cJSON *mg_json_load(const char *path, mg_diag *d)
{
    size_t len = 0;
    char *text = mg_read_file(path, MG_JSON_MAX_BYTES, &len, d);
    if (!text) return NULL;
    cJSON *j = mg_json_parse(path, text, len, d);
    free(text);
    return j;
}
