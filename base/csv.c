/* csv.c - see csv.h. */
#include "base/csv.h"
#include "base/afile.h"
#include "base/jsonout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

typedef struct csv_row {
    char **cell;               /* by column; NULL: empty */
    size_t n;                  /* cells allocated */
} csv_row;

struct mg_csv {
    char **col;                /* column names */
    size_t ncol, capcol;
    csv_row *row;
    size_t nrow, caprow;
};

mg_csv *mg_csv_new(void)
{
    return calloc(1, sizeof(mg_csv));
}

void mg_csv_free(mg_csv *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->ncol; i++) free(t->col[i]);
    for (size_t r = 0; r < t->nrow; r++) {
        for (size_t i = 0; i < t->row[r].n; i++) free(t->row[r].cell[i]);
        free(t->row[r].cell);
    }
    free(t->col);
    free(t->row);
    free(t);
}

int mg_csv_row(mg_csv *t)
{
    if (t->nrow == t->caprow) {
        size_t cap = t->caprow ? 2 * t->caprow : 64;
        csv_row *r = realloc(t->row, cap * sizeof *r);
        if (!r) return -1;
        t->row = r;
        t->caprow = cap;
    }
    t->row[t->nrow++] = (csv_row){NULL, 0};
    return 0;
}

/* The index of column name, created when missing; (size_t)-1 on memory. */
static size_t column(mg_csv *t, const char *name)
{
    for (size_t i = 0; i < t->ncol; i++)
        if (!strcmp(t->col[i], name)) return i;
    if (t->ncol == t->capcol) {
        size_t cap = t->capcol ? 2 * t->capcol : 32;
        char **c = realloc(t->col, cap * sizeof *c);
        if (!c) return (size_t)-1;
        t->col = c;
        t->capcol = cap;
    }
    if (!(t->col[t->ncol] = strdup(name))) return (size_t)-1;
    return t->ncol++;
}

int mg_csv_set(mg_csv *t, const char *prefix, const char *col, const char *text)
{
    if (!t->nrow) return -1;
    char name[256];
    snprintf(name, sizeof name, "%s%s", prefix, col);
    size_t c = column(t, name);
    if (c == (size_t)-1) return -1;
    csv_row *r = &t->row[t->nrow - 1];
    if (c >= r->n) {
        size_t n = t->capcol;
        char **cell = realloc(r->cell, n * sizeof *cell);
        if (!cell) return -1;
        memset(cell + r->n, 0, (n - r->n) * sizeof *cell);
        r->cell = cell;
        r->n = n;
    }
    char *dup = strdup(text);
    if (!dup) return -1;
    free(r->cell[c]);
    r->cell[c] = dup;
    return 0;
}

int mg_csv_set_schedule(mg_csv *t, const char *prefix, const char *sched)
{
    char word[512];
    int first = 1;
    for (const char *s = sched; *s;) {
        while (*s == ' ') s++;
        size_t n = strcspn(s, " ");
        if (!n) break;
        snprintf(word, sizeof word, "%.*s", (int)(n < 511 ? n : 511), s);
        s += n;
        char *eq = strchr(word, '=');
        int bad;
        if (first && !eq) bad = mg_csv_set(t, prefix, "op", word);
        else if (eq) *eq = '\0', bad = mg_csv_set(t, prefix, word, eq + 1);
        else bad = 0;
        if (bad) return -1;
        first = 0;
    }
    return 0;
}

/* The text of a scalar JSON value into buf ("" for null); NULL when v is
 * not a scalar. */
static const char *scalar(const cJSON *v, char *buf, size_t len)
{
    if (cJSON_IsString(v)) return v->valuestring;
    if (cJSON_IsNumber(v)) return mg_json_number(v->valuedouble, buf, len);
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v) ? "true" : "false";
    if (cJSON_IsNull(v)) return "";
    return NULL;
}

/* An array of scalars joined with spaces (an array holding anything else:
 * left out). */
static int set_array(mg_csv *t, const char *name, const cJSON *a)
{
    size_t cap = 256, len = 0;
    char *s = calloc(1, cap), num[64];
    if (!s) return -1;
    for (const cJSON *e = a->child; e; e = e->next) {
        const char *x = scalar(e, num, sizeof num);
        if (!x) {
            free(s);
            return 0;
        }
        size_t n = strlen(x);
        if (len + n + 2 > cap) {
            char *g = realloc(s, cap = 2 * (len + n + 2));
            if (!g) { free(s); return -1; }
            s = g;
        }
        if (len) s[len++] = ' ';
        memcpy(s + len, x, n + 1);
        len += n;
    }
    int rc = mg_csv_set(t, "", name, s);
    free(s);
    return rc;
}

int mg_csv_set_json(mg_csv *t, const char *prefix, const cJSON *v)
{
    char num[64], sub[256];
    for (const cJSON *m = v->child; m; m = m->next) {
        if (!m->string) continue;
        snprintf(sub, sizeof sub, "%s%s", prefix, m->string);
        const char *x = scalar(m, num, sizeof num);
        int bad = 0;
        if (x) bad = mg_csv_set(t, "", sub, x);
        else if (cJSON_IsArray(m)) bad = set_array(t, sub, m);
        else if (cJSON_IsObject(m)) {
            strncat(sub, ".", sizeof sub - strlen(sub) - 1);
            bad = mg_csv_set_json(t, sub, m);
        }
        if (!bad && cJSON_IsString(m) && !strcmp(m->string, "schedule"))
            bad = mg_csv_set_schedule(t, prefix, m->valuestring);
        if (bad) return -1;
    }
    return 0;
}

/* One field, quoted when it must be. */
static void put_field(FILE *f, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")] && *s != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int mg_csv_write(const mg_csv *t, FILE *f)
{
    for (size_t i = 0; i < t->ncol; i++) {
        if (i) fputc(',', f);
        put_field(f, t->col[i]);
    }
    fputc('\n', f);
    for (size_t r = 0; r < t->nrow; r++) {
        const csv_row *row = &t->row[r];
        for (size_t i = 0; i < t->ncol; i++) {
            if (i) fputc(',', f);
            if (i < row->n && row->cell[i]) put_field(f, row->cell[i]);
        }
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

int mg_csv_save(const mg_csv *t, const char *path, mg_diag *d)
{
    mg_afile af;
    FILE *f = mg_afile_open(&af, path);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (mg_csv_write(t, f)) {
        mg_afile_abort(&af);
        mg_diag_error(d, "%s: write failed", path);
        return -1;
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int mg_csv_save_rows(const cJSON *a, const char *path, mg_diag *d)
{
    mg_csv *t = mg_csv_new();
    int bad = !t;
    for (const cJSON *o = a ? a->child : NULL; o && !bad; o = o->next)
        if (cJSON_IsObject(o)) bad = mg_csv_row(t) || mg_csv_set_json(t, "", o);
    if (bad) mg_diag_error(d, "%s: out of memory", path);
    else bad = mg_csv_save(t, path, d);
    mg_csv_free(t);
    return bad ? -1 : 0;
}
