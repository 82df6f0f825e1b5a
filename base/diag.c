/* diag.c - see diag.h. */
#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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
    diag_add(d, "warning: ", fmt, ap);
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
        if (strncmp(d->msg[i], "warning: ", 9)) return d->msg[i];
    return d->stored ? d->msg[0] : "";
}
