/* diag.c - see diag.h. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A stored warning starts with this; an error does not. */
static const char WARN[] = "warning: ";
#define WARN_LEN (sizeof WARN - 1)

void mg_diag_init(mg_diag *d) { memset(d, 0, sizeof *d); }

void mg_diag_free(mg_diag *d)
{
    for (size_t i = 0; i < d->stored; i++) free(d->msg[i]);
    free(d->msg);
    memset(d, 0, sizeof *d);
}

static void diag_add(mg_diag *d, const char *prefix, const char *fmt, va_list ap)
{
    if (d->stored >= MG_DIAG_MAX) return;
    if (d->stored == 0 && !d->msg) {
        d->msg = calloc(MG_DIAG_MAX, sizeof *d->msg);
        if (!d->msg) return;
    }
    char body[1024];
    vsnprintf(body, sizeof body, fmt, ap);
    size_t lp = strlen(prefix), lb = strlen(body);
    char *s = malloc(lp + lb + 1);
    if (!s) return;
    memcpy(s, prefix, lp);
    memcpy(s + lp, body, lb + 1);
    d->msg[d->stored++] = s;
}

void mg_diag_error(mg_diag *d, const char *fmt, ...)
{
    if (!d) return;
    va_list ap;
    va_start(ap, fmt);
    diag_add(d, "", fmt, ap);
    va_end(ap);
    d->n++;
}

void mg_diag_warn(mg_diag *d, const char *fmt, ...)
{
    if (!d) return;
    va_list ap;
    va_start(ap, fmt);
    diag_add(d, WARN, fmt, ap);
    va_end(ap);
    d->nwarn++;
}

int mg_diag_failed(const mg_diag *d) { return d->n > 0; }

void mg_diag_print(const mg_diag *d, FILE *f, const char *prog)
{
    for (size_t i = 0; i < d->stored; i++)
        fprintf(f, "%s: %s\n", prog, d->msg[i]);
    if (d->n + d->nwarn > d->stored)
        fprintf(f, "%s: ... %zu more messages not shown\n", prog,
                d->n + d->nwarn - d->stored);
}

const char *mg_diag_first(const mg_diag *d)
{
    for (size_t i = 0; i < d->stored && d->n; i++)
        if (strncmp(d->msg[i], WARN, WARN_LEN)) return d->msg[i];
    return d->stored ? d->msg[0] : "";
}

void mg_diag_append(mg_diag *d, const mg_diag *from)
{
    if (!d || !from) return;
    size_t errors = 0, warnings = 0;
    for (size_t i = 0; i < from->stored; i++) {
        const char *m = from->msg[i];
        if (!strncmp(m, WARN, WARN_LEN)) {
            mg_diag_warn(d, "%s", m + WARN_LEN);
            warnings++;
        } else {
            mg_diag_error(d, "%s", m);
            errors++;
        }
    }
    d->n += from->n - errors;                  /* those it did not store */
    d->nwarn += from->nwarn - warnings;
}
