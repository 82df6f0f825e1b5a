/*
 * apcsv.h - ArchProbe's CSV tables (internal to the ArchProbe importer,
 * sim/calib/archprobe.c): a header line of column names exactly as
 * ArchProbe writes them, then rows of numbers.
 */
#ifndef MG_APCSV_H
#define MG_APCSV_H

#include "base/diag.h"

#define MG_APCSV_MAX_ROWS 200000     /* more rows than any ArchProbe sweep writes */

/* One table: nrow rows of ncol numbers (v[r * ncol + c]); line[r] is the
 * row's line number in the file (the header is line 1). */
typedef struct mg_apcsv {
    char    file[64];        /* the file's name in the report folder */
    int     ncol, nrow;
    double *v;
    int    *line;
} mg_apcsv;

/* Read DIR/NAME, whose header must be the ncol names in cols.  Every cell
 * must be a finite number >= 0 (ArchProbe writes sizes, counts and
 * times); a row has exactly ncol cells; at least one row.  Returns 0, or
 * -1 with "DIR/NAME:LINE: why" in d (the table is then empty). */
int mg_apcsv_load(mg_apcsv *t, const char *dir, const char *name, const char *const *cols,
                  int ncol, mg_diag *d);

/* Row r, column c. */
double mg_apcsv_at(const mg_apcsv *t, int r, int c);

void mg_apcsv_free(mg_apcsv *t);

#endif
