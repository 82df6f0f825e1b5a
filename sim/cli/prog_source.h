/*
 * prog_source.h - a trace source that draws a progress line (work groups
 * handed out, base/progress.h) over a generated kernel's source, for the
 * commands that replay or write a long launch (`mgsim run`, also of a
 * trace file, `mgsim gen -o`).  Internal to the CLI.
 */
#ifndef MG_PROG_SOURCE_H
#define MG_PROG_SOURCE_H

#include <stdint.h>

#include "base/progress.h"
#include "traces/gen/gen.h"

/* Launches of at least this many estimated warp instructions draw progress
 * (about half a second of replay or trace writing on one 2020s core). */
#define MG_PROG_SOURCE_WORK 1e6

typedef struct mg_prog_source {
    mg_trace_source in;       /* the wrapped source */
    mg_progress     p;
    uint64_t        next;     /* work groups handed out */
    char            note[64]; /* "(about N warp instructions)" */
} mg_prog_source;

/* Wrap *src (g's source) in ps when g's estimated work is at least
 * MG_PROG_SOURCE_WORK and a progress line may be drawn (base/term.h);
 * otherwise leave *src as it is.  label ("mgsim: run") must outlive ps.
 * ps is zeroed first, so mg_prog_source_end is always safe. */
void mg_prog_source_wrap(mg_prog_source *ps, mg_trace_source *src, const mg_gen *g,
                         const char *label);

/* Trace files of at least this many bytes draw progress when replayed
 * (a file replays at about 1 M warp instructions a second, a few bytes
 * each). */
#define MG_PROG_SOURCE_BYTES 4e6

/* As mg_prog_source_wrap, for *src reading a trace file of `bytes` bytes:
 * a line when the file holds at least MG_PROG_SOURCE_BYTES. */
void mg_prog_source_wrap_file(mg_prog_source *ps, mg_trace_source *src, uint64_t bytes,
                              const char *label);

/* End the line (when one was drawn). */
void mg_prog_source_end(mg_prog_source *ps);

#endif
