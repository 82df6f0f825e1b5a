/*
 * am_params.c - the analytical model's constants from a device config:
 * beta (the thread level's latency per histogram bin), D (the warp
 * level's thrashing decay) and C (each cache's lines).  TMModel fits beta
 * and D per GPU from microbenchmarks; here they come from the latencies
 * and geometry the simulator reads (sim/MODEL.md, "The analytical model").
 */
#include "sim/analytic/analytic.h"

#include <math.h>
#include <string.h>

/* D: two steps of thrashing cost what a line miss costs an access. */
static double decay_of(const double *beta)
{
    return beta[MG_AM_H_ACCESS] > 0
        ? sqrt((beta[MG_AM_H_ACCESS] + beta[MG_AM_H_LINE]) / beta[MG_AM_H_ACCESS]) : 1;
}

/* The buffer path: through a buffer L1 (a cache that can thrash) or
 * straight to the L2 (an access then pays the path and the L2, a new L2
 * line a DRAM access). */
static void buffer_params(mg_am_params *p, const mg_device *dev, double dram)
{
    double *b = p->beta[MG_AM_BUF];
    if (dev->buffer_path == MG_BUF_VIA_L1) {
        b[MG_AM_H_ACCESS] = (double)dev->buf_l1.latency_cycles;
        b[MG_AM_H_LINE] = (double)dev->l2.latency_cycles;
        b[MG_AM_H_BLOCK] = dram;
        p->line_bytes[MG_AM_BUF] = dev->buf_l1.line;
        p->block_bytes[MG_AM_BUF] = dev->l2.line;
        p->lines[MG_AM_BUF] = dev->buf_l1.line > 0
            ? (uint64_t)(dev->buf_l1.size / dev->buf_l1.line) : 0;
    } else {
        b[MG_AM_H_ACCESS] = (double)(dev->buffer_latency_cycles + dev->l2.latency_cycles);
        b[MG_AM_H_LINE] = dram;
        b[MG_AM_H_BLOCK] = 0;
        p->line_bytes[MG_AM_BUF] = dev->l2.line;
        p->block_bytes[MG_AM_BUF] = dev->l2.line;
        p->lines[MG_AM_BUF] = 0;
    }
    p->decay[MG_AM_BUF] = p->lines[MG_AM_BUF] ? decay_of(b) : 1;
}

void mg_am_params_init(mg_am_params *p, const mg_device *dev)
{
    memset(p, 0, sizeof *p);
    double dram = dev->dram_latency_s * dev->clock_hz;
    double *t = p->beta[MG_AM_TEX];
    t[MG_AM_H_ACCESS] = (double)dev->tex_l1.latency_cycles;
    t[MG_AM_H_LINE] = (double)dev->l2.latency_cycles;
    t[MG_AM_H_BLOCK] = dram;
    p->lines[MG_AM_TEX] = dev->tex_l1.line > 0 ? (uint64_t)(dev->tex_l1.size / dev->tex_l1.line)
                                               : 0;
    p->decay[MG_AM_TEX] = decay_of(t);
    buffer_params(p, dev, dram);
    p->beta[MG_AM_LOCAL][MG_AM_H_ACCESS] = dev->local_kind == MG_LOCAL_ONCHIP
        ? (double)dev->local_latency_cycles
        : p->beta[MG_AM_BUF][MG_AM_H_ACCESS];
    p->beta[MG_AM_CONST][MG_AM_H_ACCESS] = (double)dev->const_latency_cycles;
    p->decay[MG_AM_LOCAL] = p->decay[MG_AM_CONST] = 1;
}
