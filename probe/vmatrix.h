/*
 * vmatrix.h - the schedules `mgprobe verify` runs: one from the command
 * line, or a matrix file of one schedule per line ('#' starts a comment,
 * blank lines are skipped).  Every line is parsed before anything runs, so
 * a typo fails fast with FILE:LINE.  Free of OpenCL, so the matrix parser
 * is fuzzed on its own (tests/fuzz/fuzz_vmatrix.c).
 */
#ifndef MGP_VMATRIX_H
#define MGP_VMATRIX_H

#include <stddef.h>

#include "traces/gen/schedule.h"

/* The parsed schedules. */
typedef struct mgp_vmatrix {
    mg_schedule *s;
    size_t n, cap;
} mgp_vmatrix;

/* Parse words[0] (the op) and words[1..n-1] as one schedule into m; on an
 * error print every message to stderr prefixed by "mgprobe: verify:
 * WHERE: ".  Returns 0 or -1. */
int mgp_vmatrix_add_words(mgp_vmatrix *m, int n, char **words, const char *where);

/* Parse every schedule of matrix file `path` into m (all lines are
 * checked, every error printed).  Returns 0, or -1 when any line is bad,
 * the file holds no schedule or cannot be read. */
int mgp_vmatrix_load(mgp_vmatrix *m, const char *path);

/* Free the schedules; m is empty again. */
void mgp_vmatrix_free(mgp_vmatrix *m);

#endif
