/* vmatrix.c - see vmatrix.h. */
#include "probe/vmatrix.h"

#include "base/jsonfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Append s to l.  Returns 0, -1 on OOM. */
static int list_add(mgp_vmatrix *l, const mg_schedule *s)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 64;
        mg_schedule *p = realloc(l->s, cap * sizeof *p);
        if (!p) return -1;
        l->s = p;
        l->cap = cap;
    }
    l->s[l->n++] = *s;
    return 0;
}

int mgp_vmatrix_add_words(mgp_vmatrix *l, int n, char **words, const char *where)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    int rc = mg_schedule_parse(words[0], n - 1, words + 1, &s, &d);
    if (rc == 0 && list_add(l, &s)) {
        mg_diag_error(&d, "out of memory");
        rc = -1;
    }
    if (rc) {
        for (size_t i = 0; i < d.stored; i++) {
            const char *m = d.msg[i];
            if (!strncmp(m, "schedule: ", 10)) m += 10;   /* the parser's own place */
            fprintf(stderr, "mgprobe: verify: %s: %s\n", where, m);
        }
        if (!d.stored) fprintf(stderr, "mgprobe: verify: %s: invalid schedule\n", where);
    }
    mg_diag_free(&d);
    return rc;
}

int mgp_vmatrix_load(mgp_vmatrix *l, const char *path)
{
    mg_diag d;
    mg_diag_init(&d);
    size_t len;
    char *text = mg_read_file(path, MG_JSON_MAX_BYTES, &len, &d);
    if (!text) {
        fprintf(stderr, "mgprobe: verify: %s\n", mg_diag_first(&d));
        mg_diag_free(&d);
        return -1;
    }
    mg_diag_free(&d);
    int bad = 0, lineno = 0;
    for (char *line = text, *next; line; line = next) {
        lineno++;
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *words[128];
        int n = 0;
        for (char *w = strtok(line, " \t\r\v\f"); w; w = strtok(NULL, " \t\r\v\f")) {
            if (n == (int)(sizeof words / sizeof words[0])) {
                fprintf(stderr, "mgprobe: verify: %s:%d: more than %zu words\n", path, lineno,
                        sizeof words / sizeof words[0]);
                bad = 1;
                n = 0;
                break;
            }
            words[n++] = w;
        }
        if (n == 0) continue;
        char where[4200];
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        if (mgp_vmatrix_add_words(l, n, words, where)) bad = 1;
    }
    free(text);
    if (!bad && l->n == 0) {
        fprintf(stderr, "mgprobe: verify: %s: no schedules in the file\n", path);
        bad = 1;
    }
    return bad ? -1 : 0;
}

void mgp_vmatrix_free(mgp_vmatrix *m)
{
    free(m->s);
    m->s = NULL;
    m->n = m->cap = 0;
}
