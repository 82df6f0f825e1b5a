/*
 * diag.h - a collector of user-facing error messages.
 *
 * Loaders never print: they append fully formed one-line messages
 * ("FILE: $.json.path: what was expected, got what") to an mg_diag, and the
 * command decides where and how to print them.  This keeps "check everything
 * in one pass, report every problem" easy and testable.
 */
#ifndef MG_DIAG_H
#define MG_DIAG_H

#include <stddef.h>
#include <stdio.h>

typedef struct mg_diag {
    char  **msg;      /* owned strings, in the order they were added */
    size_t  n;        /* errors added (may exceed what was stored) */
    size_t  stored;   /* messages actually stored (capped at MG_DIAG_MAX) */
    size_t  nwarn;    /* warnings (stored in the same list, prefixed) */
} mg_diag;

#define MG_DIAG_MAX 64

void mg_diag_init(mg_diag *d);
void mg_diag_free(mg_diag *d);

/* Add an error.  Formatting as printf.  Never fails (drops on OOM).  d
 * NULL: nothing is added (a caller that needs no message). */
void mg_diag_error(mg_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Add a warning: printed like an error with "warning: " after the place,
 * but not counted by mg_diag_failed().  d NULL: nothing is added. */
void mg_diag_warn(mg_diag *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Add every message of `from` to d, errors as errors and warnings as
 * warnings, in order; those `from` counted but did not store count in d
 * too.  Either NULL: nothing. */
void mg_diag_append(mg_diag *d, const mg_diag *from);

/* Nonzero when at least one error was added. */
int mg_diag_failed(const mg_diag *d);

/* Print every stored message, one per line, prefixed by `prog: `. */
void mg_diag_print(const mg_diag *d, FILE *f, const char *prog);

/* The first stored error message; the first warning when there are no
 * errors; "" when there is nothing. */
const char *mg_diag_first(const mg_diag *d);

#endif
