/*
 * jsonout.h - deterministic, readable JSON output.
 *
 * cJSON's printer indents with tabs and separates keys from values with a
 * tab; every mgsim report is printed here instead: two-space indentation,
 * "key": value, integers without a fraction, other numbers with the
 * shortest of %.15g / %.17g that reads back exactly.  Same input, same
 * bytes.
 */
#ifndef MG_JSONOUT_H
#define MG_JSONOUT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

/* Write j to f followed by a newline.  Returns 0, or -1 on a write error. */
int mg_json_write(FILE *f, const cJSON *j);

/* Write j to the file at path atomically (a temporary renamed into place;
 * "-" is stdout).  Returns 0, or -1 after adding "PATH: cannot write: ..."
 * or "PATH: write failed: ..." to d; nothing is left at path then. */
int mg_json_save(const char *path, const cJSON *j, mg_diag *d);

/* Format a number as mg_json_write does; returns buf. */
char *mg_json_number(double v, char *buf, size_t len);

#endif
