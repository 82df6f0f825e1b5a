/*
 * work.c - a launch's work estimated from its plan, and the --max-work
 * guard (gen.h): what a run would simulate, known before any trace.
 */
#include "traces/gen/gen.h"
#include "traces/gen/op.h"

#include <stdio.h>
#include <stdlib.h>

/* Encoded trace bytes, measured on generated kernels (4.4 to 7 bytes a
 * record; the warp and work-group headers). */
#define BYTES_PER_RECORD 5.0
#define BYTES_PER_WARP   16.0
#define BYTES_PER_WG     32.0
#define BYTES_HEADER     4096.0

/* Records of one warp: every memory access an item makes (log_cap, the
 * tracer's bound), one ALU record per main-loop iteration, and the
 * set-up and the store's arithmetic.  Exact for conv2d and matmul; ops
 * with more arithmetic per iteration (softmax, warpsize) reach twice it. */
static double records_per_warp(const mg_kernel *k)
{
    double mem = k->log_cap > 0 ? (double)k->log_cap : 1.0;
    double loop = k->f.loop_iters > 0 ? (double)k->f.loop_iters : 0.0;
    return mem + loop + 2.0;
}

void mg_gen_work_estimate(const mg_gen *g, mg_gen_work *w)
{
    const mg_kernel *k = &g->k;
    double items = 1.0;
    for (int i = 0; i < 3; i++) items *= k->local[i] > 0 ? (double)k->local[i] : 1.0;
    double lanes = k->warp ? (double)k->warp : 1.0;
    double wgs = (double)mg_gen_num_wgs(g);
    w->wgs = wgs;
    w->warps = wgs * (double)(uint64_t)((items + lanes - 1.0) / lanes);
    w->instrs = w->warps * records_per_warp(k);
    w->bytes = BYTES_HEADER + wgs * BYTES_PER_WG + w->warps * BYTES_PER_WARP +
               w->instrs * BYTES_PER_RECORD;
}

const char *mg_gen_count_str(double v, char *buf, size_t len)
{
    if (v < 1e6) snprintf(buf, len, "%.0f", v);
    else snprintf(buf, len, "%.3g", v);
    return buf;
}

int mg_gen_check_work(const mg_gen *g, double max_work, mg_diag *d)
{
    if (max_work <= 0) return 0;
    mg_gen_work w;
    mg_gen_work_estimate(g, &w);
    if (w.instrs <= max_work) return 0;
    char n[32], b[32], m[32];
    mg_diag_error(d, "%s: about %s warp instructions (%s trace bytes) is more than --max-work "
                  "%s: raise --max-work (0: no limit) or shrink the launch", g->s.op->name,
                  mg_gen_count_str(w.instrs, n, sizeof n), mg_gen_count_str(w.bytes, b, sizeof b),
                  mg_gen_count_str(max_work, m, sizeof m));
    return -1;
}

int mg_gen_max_work_parse(const char *text, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end || !(v >= 0) || v > 1e18 || v != (double)(uint64_t)v) return -1;
    *out = v;
    return 0;
}
