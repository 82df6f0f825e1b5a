/* prog_source.c - see prog_source.h. */
#include "sim/cli/prog_source.h"
#include "base/term.h"

#include <stdio.h>
#include <string.h>

static int prog_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    mg_prog_source *ps = self;
    int rc = ps->in.next_wg(ps->in.self, wg, d);
    if (rc == 1) mg_progress_update(&ps->p, ++ps->next);
    return rc;
}

static int prog_seek(void *self, uint64_t idx, mg_diag *d)
{
    mg_prog_source *ps = self;
    ps->next = idx;
    return ps->in.seek_wg(ps->in.self, idx, d);
}

static int prog_at(void *self, uint64_t idx, mg_trace_wg *wg, mg_diag *d)
{
    mg_prog_source *ps = self;
    return ps->in.wg_at(ps->in.self, idx, wg, d);
}

/* Put ps (its note written) between *src and its reader: wgs work groups. */
static void wrap(mg_prog_source *ps, mg_trace_source *src, uint64_t wgs, const char *label)
{
    ps->in = *src;
    mg_progress_start(&ps->p, 1, label, "work groups", wgs, ps->note);
    mg_trace_source out = {src->hdr, prog_next, ps, src->seek_wg ? prog_seek : NULL,
                           src->wg_at ? prog_at : NULL};
    *src = out;
}

void mg_prog_source_wrap(mg_prog_source *ps, mg_trace_source *src, const mg_gen *g,
                         const char *label)
{
    memset(ps, 0, sizeof *ps);
    mg_gen_work w;
    mg_gen_work_estimate(g, &w);
    if (w.instrs < MG_PROG_SOURCE_WORK || !mg_term_progress()) return;
    char n[32];
    snprintf(ps->note, sizeof ps->note, "(about %s warp instructions)",
             mg_gen_count_str(w.instrs, n, sizeof n));
    wrap(ps, src, mg_gen_num_wgs(g), label);
}

void mg_prog_source_wrap_file(mg_prog_source *ps, mg_trace_source *src, uint64_t bytes,
                              const char *label)
{
    memset(ps, 0, sizeof *ps);
    if ((double)bytes < MG_PROG_SOURCE_BYTES || !mg_term_progress()) return;
    snprintf(ps->note, sizeof ps->note, "(a trace of %.1f MB)", (double)bytes / 1e6);
    wrap(ps, src, mg_trace_num_wgs(src->hdr), label);
}

void mg_prog_source_end(mg_prog_source *ps)
{
    mg_progress_end(&ps->p, ps->next);
}
