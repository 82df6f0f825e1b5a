/*
 * csv.h - tables written as CSV (RFC 4180) for pandas and spreadsheets.
 *
 * A table is built row by row; a column is created the first time a row
 * sets it, so rows of different shapes share one header (columns in the
 * order first seen; a cell a row did not set is empty).  JSON objects are
 * flattened into columns ("oi.l2"), and a schedule string ("conv2d H=8
 * tile=1x4 ...") also gives one column per knob ("op", "H", "tile"), so a
 * row reads as one kernel.  Numbers are written as base/jsonout.h writes
 * them; true/false as such; null as an empty cell.  Same input, same bytes.
 */
#ifndef MG_CSV_H
#define MG_CSV_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

typedef struct mg_csv mg_csv;

/* A new empty table, or NULL when out of memory. */
mg_csv *mg_csv_new(void);
void    mg_csv_free(mg_csv *t);

/* Start a new row (the cells set next go there).  0, or -1 (memory). */
int mg_csv_row(mg_csv *t);

/* Set the cell of column col (prefix + name) in the current row to text;
 * a later set of the same cell replaces it.  0, or -1 (memory). */
int mg_csv_set(mg_csv *t, const char *prefix, const char *col, const char *text);

/* Set cells from a JSON value, named prefix + key: an object is flattened
 * ("prefix.key.sub"), an array of scalars is joined with spaces, an array
 * of objects is left out; a string member named "schedule" also sets
 * prefix + "op" and prefix + each knob of its words.  0, or -1 (memory). */
int mg_csv_set_json(mg_csv *t, const char *prefix, const cJSON *v);

/* The words of a schedule ("OP k=v k=v ...") as cells prefix + "op" and
 * prefix + k.  0, or -1 (memory). */
int mg_csv_set_schedule(mg_csv *t, const char *prefix, const char *sched);

/* Write the header and the rows to f.  0, or -1 on a write error. */
int mg_csv_write(const mg_csv *t, FILE *f);

/* Write the table to path atomically ("-": stdout).  0, or -1 with
 * "PATH: cannot write: ..." in d. */
int mg_csv_save(const mg_csv *t, const char *path, mg_diag *d);

/* Each object of the JSON array a as one row (mg_csv_set_json), written
 * to path as mg_csv_save does.  0, or -1 with the problem in d. */
int mg_csv_save_rows(const cJSON *a, const char *path, mg_diag *d);

#endif
