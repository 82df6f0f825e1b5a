/*
 * apcsv.c - ArchProbe's CSV tables: header check, strict numbers.
 */
#include "sim/calib/apcsv.h"
#include "base/jsonfile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CSV_MAX_BYTES (16u << 20)

/* The header line [p, e) against the expected names; 0 when it matches. */
static int header_ok(const char *p, const char *e, const char *const *cols, int ncol)
{
    for (int c = 0; c < ncol; c++) {
        size_t n = strlen(cols[c]);
        if ((size_t)(e - p) < n || strncmp(p, cols[c], n)) return -1;
        p += n;
        if (c + 1 < ncol) {
            if (p >= e || *p != ',') return -1;
            p++;
        }
    }
    return p == e ? 0 : -1;
}

/* One cell of [*p, e) ending at ',' or e: a finite number >= 0. */
static int cell(const char **p, const char *e, double *v)
{
    const char *s = *p, *end = s;
    while (end < e && *end != ',') end++;
    char buf[64];
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *q;
    errno = 0;
    double x = strtod(buf, &q);
    if (*q || errno || !isfinite(x) || x < 0) return -1;
    *v = x;
    *p = end;
    return 0;
}

/* Parse one data row [p, e) into t's next row. */
static int row(mg_apcsv *t, const char *p, const char *e, int line, const char *path, mg_diag *d)
{
    if (t->nrow >= MG_APCSV_MAX_ROWS) {
        mg_diag_error(d, "%s:%d: more than %d rows", path, line, MG_APCSV_MAX_ROWS);
        return -1;
    }
    double *out = t->v + (size_t)t->nrow * (size_t)t->ncol;
    for (int c = 0; c < t->ncol; c++) {
        if (cell(&p, e, &out[c])) {
            mg_diag_error(d, "%s:%d: column %d: expected a finite number >= 0", path, line, c + 1);
            return -1;
        }
        if (c + 1 < t->ncol && (p >= e || *p++ != ',')) {
            mg_diag_error(d, "%s:%d: %d columns, expected %d", path, line, c + 1, t->ncol);
            return -1;
        }
    }
    if (p != e) {
        mg_diag_error(d, "%s:%d: more than %d columns", path, line, t->ncol);
        return -1;
    }
    t->line[t->nrow++] = line;
    return 0;
}

/* The rows of text (after the header); lines end in \n or \r\n. */
static int rows(mg_apcsv *t, const char *text, size_t len, const char *path, mg_diag *d)
{
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
    size_t cap = lines < MG_APCSV_MAX_ROWS ? lines : MG_APCSV_MAX_ROWS + 1;
    t->v = malloc(cap * (size_t)t->ncol * sizeof *t->v);
    t->line = malloc(cap * sizeof *t->line);
    if (!t->v || !t->line) {
        mg_diag_error(d, "%s: out of memory", path);
        return -1;
    }
    const char *p = text, *end = text + len;
    for (int line = 1; p < end; line++) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        const char *next = e ? e + 1 : end;
        if (!e) e = end;
        if (e > p && e[-1] == '\r') e--;
        if (line == 1) {
            /* the header is checked by the caller */
        } else if (e == p && next == end) {
            break;                       /* a final newline */
        } else if (row(t, p, e, line, path, d)) {
            return -1;
        }
        p = next;
    }
    if (t->nrow == 0) {
        mg_diag_error(d, "%s: no data rows", path);
        return -1;
    }
    return 0;
}

int mg_apcsv_load(mg_apcsv *t, const char *dir, const char *name, const char *const *cols,
                  int ncol, mg_diag *d)
{
    memset(t, 0, sizeof *t);
    snprintf(t->file, sizeof t->file, "%s", name);
    t->ncol = ncol;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    char *text = mg_read_file(path, CSV_MAX_BYTES, &len, d);
    if (!text) return -1;
    int rc = -1;
    const char *nl = memchr(text, '\n', len);
    const char *he = nl ? nl : text + len;
    if (he > text && he[-1] == '\r') he--;
    if (memchr(text, 0, len)) {
        mg_diag_error(d, "%s: a NUL byte: not a CSV text file", path);
    } else if (header_ok(text, he, cols, ncol)) {
        char want[300] = "";
        for (int c = 0; c < ncol; c++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", c ? "," : "",
                     cols[c]);
        mg_diag_error(d, "%s:1: header is not ArchProbe's \"%s\"", path, want);
    } else {
        rc = rows(t, text, len, path, d);
    }
    free(text);
    if (rc) mg_apcsv_free(t);
    return rc;
}

double mg_apcsv_at(const mg_apcsv *t, int r, int c)
{
    return t->v[(size_t)r * (size_t)t->ncol + (size_t)c];
}

void mg_apcsv_free(mg_apcsv *t)
{
    free(t->v);
    free(t->line);
    t->v = NULL;
    t->line = NULL;
    t->nrow = 0;
}
