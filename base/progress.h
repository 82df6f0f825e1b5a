/*
 * progress.h - a progress line on stderr for long work: "LABEL: DONE/TOTAL
 * UNIT (P%)  RATE UNIT/s  ETA XmYYs", redrawn in place at most four times
 * a second, ended with a newline.  Drawn only when enabled (callers
 * enable it on a terminal), so outputs never depend on it.
 */
#ifndef MG_PROGRESS_H
#define MG_PROGRESS_H

#include <stdint.h>

typedef struct mg_progress {
    int         on;          /* draw at all */
    const char *label;       /* "mgsim: run" */
    const char *unit;        /* "work groups" */
    const char *note;        /* appended after the ETA, or NULL */
    uint64_t    total;
    double      t0, last;    /* start, last draw (monotonic seconds) */
    int         drawn;       /* a line is on the screen */
} mg_progress;

/* Start p (label, unit and note must outlive it). */
void mg_progress_start(mg_progress *p, int on, const char *label, const char *unit,
                       uint64_t total, const char *note);

/* done of total finished: redraw when a quarter second passed. */
void mg_progress_update(mg_progress *p, uint64_t done);

/* The last line (done of total) and its newline, when one was drawn. */
void mg_progress_end(mg_progress *p, uint64_t done);

#endif
