/*
 * pconclude.h - the conclusions the probe's aspects draw from their
 * sweeps, shared by `mgprobe run` (probe/asp_*.c) and `mgsim vprobe`
 * (sim/vprobe/) so a measured and a virtual profile say the same things
 * the same way.  Each takes the sweep's numbers and writes conclusions and
 * notes into an mg_ares (ares.h).  No OpenCL here.
 */
#ifndef MG_PCONCLUDE_H
#define MG_PCONCLUDE_H

#include <stdint.h>

#include "sim/analysis/ares.h"
#include "sim/analysis/pplan.h"

/* warp: the ticket estimate w1 (confidence c1, < 0 when none) and the
 * timing estimate w2 (c2) -> warp_size_by_ticket, warp_size_by_timing and
 * warp_size (agreeing: both combined; disagreeing: the ticket order at 0.6
 * of its confidence; one: that one).  why_ticket says why there is no
 * ticket estimate (used when c1 < 0). */
void mg_pc_warp(mg_ares *r, double w1, double c1, double w2, double c2, const char *why_ticket);

/* alu: alu_lanes_per_cu_by_flops = fp32 peak / (2 x clock x compute units),
 * or null when have_peak is 0 or the clock or units are unknown. */
void mg_pc_alu_by_flops(mg_ares *r, int have_peak, double peak_gflops, double clock_mhz,
                        unsigned cus);

/* flops: GFLOPS g[i] at vector widths 1, 2, 4, 8, 16 (0: did not run) of
 * precision k (0 fp32, 1 fp16); noise = the peak point's relative noise.
 * Concludes KEY_peak_gflops and preferred_vector_width_{float,half} (the
 * narrowest width within 5 % of the peak), confidence max(0.5, 0.9 - 2
 * noise); null with why when nothing ran. */
void mg_pc_flops(mg_ares *r, int k, const double g[5], double noise);

/* flops: the precision is not supported (why). */
void mg_pc_flops_none(mg_ares *r, int k, const char *why);

/* regs: groups of wgc items running at once at `full` registers (g1,
 * confidence c1) and at full / 2 (g2, c2), 0 when undetermined ->
 * register_model (ratio > 1.6 pooled, < 1.25 dedicated) and
 * compute_units_by_timing. */
void mg_pc_reg_model(mg_ares *r, double g1, double c1, double g2, double c2, int full,
                     int64_t wgc);

/* bandwidth: the k points (xs footprint, ys GB/s, sp noise or NULL) of a
 * footprint sweep -> peak_gbps (the best), largest_footprint_gbps and
 * first_drop_bytes (x_lo of the first down-step, knee.h), with a note per
 * step.  k >= 1. */
void mg_pc_bw(mg_ares *r, const double *xs, const double *ys, const double *sp, int k);

/* vload: t[k][i] the time per vector load (any unit; NAN when the point
 * did not run) of storage k (0 fp16, 1 fp32) at width 1, 2, 4 (i = 0, 1,
 * 2), every lane on its own line; packed = the time of a float4 packed
 * with its neighbours (mg_pplan_vload); noise = the largest relative
 * noise.  Concludes
 *   equal_bytes_ratio  the time of a half vector over a float vector of
 *                      the same bytes (half2 / float, half4 / float2),
 *                      their geometric mean: 2 when every element is a
 *                      load, 1 when a vector is one load (a load costs
 *                      the same per line, or per byte, either way)
 *   vload              "elements" (ratio >= 1.5) or "vector" (<= 1.25);
 *                      null between
 *   max_load_bytes     vector only, and only where a load's time is per
 *                      line (a float4 on its own line costs x 1.5 or
 *                      more of one packed with its neighbours', `packed`;
 *                      and a float no slower than a half, x 1.4): the
 *                      widest vector (2, 4, 8 bytes) up to which every
 *                      size costs what a half does (x 1.15) while the
 *                      next costs two loads (x 1.8 to 2.3); null when
 *                      none up to 16 bytes splits, when the step is no
 *                      clean second load, or when the time follows the
 *                      bytes (a split does not show)
 * with a note of each storage's time growth over the widths.  Confidence
 * max(0.5, 0.9 - 2 noise), less 0.2 within 0.1 of a threshold. */
void mg_pc_vload(mg_ares *r, const double t[2][3], double packed, double noise);

/* lsu: t1[i] the time of a step of mg_pplan_lsu_loads[i] loads of a lone
 * warp per compute unit, tw[i] that of 16 loads at mg_pplan_lsu_warps[i]
 * warps, t8w the time of 8 loads at the largest warps that ran (wmax);
 * NAN where a point did not run; ns, any clock.  Concludes
 *   lone_load_ns     the lone warp's time per further load (least-squares
 *                    slope of t1 over the loads)
 *   sp_load_ns       a loaded compute unit's time per further warp-load
 *                    ((tw[wmax] - t8w) / 8 / wmax)
 *   lone_ratio       their ratio: how far below a loaded unit's load rate
 *                    a lone warp stays (sub-cores that each own part of
 *                    the rate, core.partitions, raise it; so does the
 *                    ALU work a step adds per load, which is why no
 *                    partition count is concluded: in the model, 1, 2,
 *                    4 and 8 partitions give about 2.2, 3.2, 5.7, 6.2)
 *   flat_warps       the most warps whose 16-load step costs at most 1.25
 *                    x the lone warp's
 * with confidence max(0.5, 0.9 - 2 noise).  A device's curve against its
 * config's virtual one (mgsim vprobe) shows whether the config's
 * partitions give a lone warp the device's share. */
void mg_pc_lsu(mg_ares *r, const double t1[MG_PPLAN_LSU_NLOADS],
               const double tw[MG_PPLAN_LSU_NWARPS], double t8w, int wmax, double noise);

/* The footprint of the cache line sweeps: `times` x (mgprobe: 4) the first
 * cache level whose step multiplies the latency by at least min_ratio
 * (mgprobe: 2, on a CPU 1.5), below half of the next level; at least
 * 64 KiB, 256 KiB when no level qualifies; rounded to 16 KiB.  Reads
 * l<i>_size, l<i>_latency_ns and memory_latency_ns from r's conclusions. */
int64_t mg_pc_line_range(const mg_ares *r, double min_ratio, double times);

#endif
