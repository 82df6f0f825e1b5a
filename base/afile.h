/*
 * afile.h - all-or-nothing output files.
 *
 * Output to a regular file (or a new name) is written to "PATH.tmp.PID"
 * beside it and renamed onto PATH only by mg_afile_commit(), so an error
 * or a crash never leaves a partial output.  A symbolic link is followed:
 * the file it names is replaced, the link stays.  A path that names
 * something other than a regular file (a device such as /dev/null, a
 * FIFO, a socket) is never replaced: it is opened and written directly,
 * as a shell redirection would (what was written before an error stays
 * written there).  The path "-" writes to stdout directly.
 *
 * Every temporary is listed, while it exists, in a registry of paths that
 * SIGINT, SIGTERM and SIGHUP remove before the process dies of the signal
 * (the handler is installed with the first entry, where the signal's
 * action is still the default).  A command with its own handler calls
 * mg_afile_remove_tracked() before it dies.  Other writers track their
 * own temporaries and the outputs of a set not yet complete (`mgsim gen
 * -o`) with mg_afile_track().  SIGKILL cannot be caught.
 */
#ifndef MG_AFILE_H
#define MG_AFILE_H

#include <stdio.h>

typedef struct mg_afile {
    FILE *f;            /* write here */
    char  path[4096];   /* final name (a link's target) */
    char  tmp[4160];    /* temporary name ("" when written directly) */
    int   slot;         /* its registry entry (mg_afile_track), or -1 */
} mg_afile;

/* How many paths the registry holds at once; a path beyond that is
 * written as usual but not removed on a signal. */
#define MG_AFILE_MAX_TRACKED 64

/* Open for writing.  Returns the stream, or NULL with errno set. */
FILE *mg_afile_open(mg_afile *a, const char *path);

/* Flush, close and rename into place.  Returns 0, or -1 (temp removed). */
int mg_afile_commit(mg_afile *a);

/* Close and delete the temporary; the final path is untouched. */
void mg_afile_abort(mg_afile *a);

/* Where an all-or-nothing write of `path` must go: 1 when path names an
 * existing non-regular file (write it directly, never rename onto it);
 * else 0 with the final name in out (path, or the file a symbolic link
 * at path names); -1 with errno set when the name does not fit.  For
 * writers that make their own temporary (e.g. gnuplot's output). */
int mg_afile_target(const char *path, char *out, size_t n);

/* Add `path` to the registry of paths removed on SIGINT/SIGTERM/SIGHUP:
 * a file (unlinked) or, with is_dir, a directory (removed when empty,
 * after the files).  Returns its slot for mg_afile_untrack, or -1 when it
 * does not fit (the registry is full, the name too long).  Thread-safe. */
int mg_afile_track(const char *path, int is_dir);

/* Take a slot out of the registry (-1 is ignored).  Thread-safe. */
void mg_afile_untrack(int slot);

/* Remove every path in the registry now: the files, then the directories.
 * Async-signal-safe: for a signal handler that then ends the process. */
void mg_afile_remove_tracked(void);

#endif
