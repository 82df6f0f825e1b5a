/*
 * afile.h - all-or-nothing output files.
 *
 * Output is written to "PATH.tmp.PID" and renamed onto PATH only by
 * mg_afile_commit(), so an error or a crash never leaves a partial output.
 * The path "-" writes to stdout directly.
 */
#ifndef MG_AFILE_H
#define MG_AFILE_H

#include <stdio.h>

typedef struct mg_afile {
    FILE *f;            /* write here */
    char  path[4096];   /* final name */
    char  tmp[4160];    /* temporary name ("" for stdout) */
} mg_afile;

/* Open for writing.  Returns the stream, or NULL with errno set. */
FILE *mg_afile_open(mg_afile *a, const char *path);

/* Flush, close and rename into place.  Returns 0, or -1 (temp removed). */
int mg_afile_commit(mg_afile *a);

/* Close and delete the temporary; the final path is untouched. */
void mg_afile_abort(mg_afile *a);

#endif
