/*
 * asp_compute.c - the flops and regs aspects.
 *
 * flops: the flops op (8 independent multiply-add chains per item) at
 * vector widths 1, 2, 4, 8, 16, in fp32 and (with cl_khr_fp16) fp16, over
 * 4 x compute units x 256-item groups (at least 4096 items).  GFLOPS =
 * the plan's flops / the median time.  The peak is the best width's; the
 * preferred vector width is the narrowest within 5 % of the peak.
 * Confidence 0.9, less twice the peak point's relative noise (at least 0.5).
 *
 * regs:
 *  1. registers per item: one group of min(64, max) items runs
 *     regpressure with regs = 8 .. 256 live values; y = ns per register
 *     update.  With the compiler's counts (-cl-nv-verbose), the answer is
 *     where they stop growing with the live values (the compiler spills
 *     instead: NVIDIA saturates at 255).  Otherwise the update chain,
 *     latency bound, is flat while the values stay in registers and steps
 *     up (at least x1.5) when they spill: the last count before that step
 *     + the generator's 3 of overhead, refined with up to 3 counts between
 *     its two sweep points.
 *  2. register file: one group of the largest work-group size, regs
 *     swept again: the first count that fails to launch
 *     (CL_OUT_OF_RESOURCES, NVIDIA) bounds the file: file = group size x
 *     registers of the last count that launched (refined to the single
 *     register).  Without launch failures
 *     a doubling of y (romou Fig 5: the group runs as two serial halves)
 *     gives the same bound.
 *  3. model: G groups of min(256, max) items, G = 1/2 .. 4 x compute
 *     units, at the full count (the largest that neither spills nor, scaled
 *     to groups of 256, fails; at most 240) and at half of it: the first knee of the time over G is
 *     the number of groups that run at once.  Twice as many at half the
 *     registers: a pooled register file; the same number: dedicated
 *     (registers do not limit occupancy).  Groups at once at full
 *     registers = compute units when one such group fills a core.
 */
#include "probe/aspect.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- flops ----------------------------------------------------------------- */

/* Sweep vector widths in precision `prec` into g[0..4] (GFLOPS, 0 when a
 * width did not run); *spread = the peak point's noise.  Returns -1 when
 * the device lacks the precision (noted), else 0. */
static int flops_sweep(mgp_arun *a, const char *prec, double g[5], double *spread)
{
    static const int vecs[] = {1, 2, 4, 8, 16};
    mg_pdev pd;
    mgp_pdev(a, &pd);
    int64_t wg, items;
    mg_pplan_flops(&pd, &items, &wg);
    char name[64];
    snprintf(name, sizeof name, "%s_by_vector_width", prec);
    cJSON *pts = mgp_series(a, name, "vector_width", "gflops");
    double per_iter = 0, best = 0;
    *spread = 0;
    for (int i = 0; i < 5; i++) {
        char fmt[256];
        snprintf(fmt, sizeof fmt, "flops vec=%d chains=8 items=%lld wg=%lld compute=%s "
                 "iters=%%lld", vecs[i], (long long)items, (long long)wg, prec);
        int64_t start = per_iter > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / per_iter / vecs[i]) : 16;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 24, &p)) break;
        g[i] = p.status == MGP_TP_OK ? p.flops / p.median : 0;
        mgp_point_add(pts, vecs[i], g[i] > 0 ? g[i] : NAN, &p);
        if (p.status == MGP_TP_SKIP) {
            mgp_note(a, "%s: %s", prec, p.msg);
            return -1;
        }
        if (p.status != MGP_TP_OK) continue;
        per_iter = p.median / (double)p.scale / vecs[i];
        if (g[i] > best) {
            best = g[i];
            *spread = p.noise;
        }
    }
    return 0;
}

void mgp_asp_flops(mgp_arun *a)
{
    static const char *const precs[] = {"fp32", "fp16"};
    mg_ares r = mgp_ares(a);
    for (int k = 0; k < 2; k++) {
        if (k == 1 && !a->dp->x->fp16) {
            mg_pc_flops_none(&r, k, "the device lacks cl_khr_fp16");
            continue;
        }
        double g[5] = {0}, spread;
        int rc = flops_sweep(a, precs[k], g, &spread);
        if (a->stopped || a->hung || a->budget) return;
        if (rc) memset(g, 0, sizeof g);
        mg_pc_flops(&r, k, g, spread);
    }
    mgp_note(a, "reported preferred vector width: float %u, half %u", a->dp->pref_vec_float,
             a->dp->pref_vec_half);
}

/* ---- regs ------------------------------------------------------------------ */

static const int reg_quick[] = {8, 32, 64, 128};

/* A register sweep of one group of wg items: the points that ran, sorted
 * by regs, with their noise and compiler counts; the first count that did
 * not launch and the last that did before it. */
typedef struct rsweep {
    cJSON  *pts;
    int64_t wg;
    int     k;
    double  x[40], y[40], noise[40], per;
    int     cc[40];
    int     ok_regs, fail_regs;
} rsweep;

/* Measure one register count into sw (y = ns per register update).
 * Returns 0, or -1 when the aspect must stop. */
static int reg_point(mgp_arun *a, rsweep *sw, int regs)
{
    char fmt[256];
    snprintf(fmt, sizeof fmt, "regpressure regs=%d items=%lld wg=%lld iters=%%lld", regs,
             (long long)sw->wg, (long long)sw->wg);
    int64_t start = sw->per > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / sw->per / regs) : 64;
    mgp_point p;
    if (mgp_take(a, fmt, start, (int64_t)1 << 24, &p)) return -1;
    double y = p.status == MGP_TP_OK ? p.median / ((double)p.scale * regs) : NAN;
    mgp_point_add(sw->pts, regs, y, &p);
    if (p.status != MGP_TP_OK) {
        if (!sw->fail_regs || regs < sw->fail_regs) sw->fail_regs = regs;
        return 0;
    }
    if ((!sw->fail_regs || regs < sw->fail_regs) && regs > sw->ok_regs) sw->ok_regs = regs;
    sw->per = y;
    if (sw->k >= 40) return 0;
    int i = sw->k++;
    while (i > 0 && sw->x[i - 1] > regs) {
        sw->x[i] = sw->x[i - 1];
        sw->y[i] = sw->y[i - 1];
        sw->noise[i] = sw->noise[i - 1];
        sw->cc[i] = sw->cc[i - 1];
        i--;
    }
    sw->x[i] = regs;
    sw->y[i] = y;
    sw->noise[i] = p.noise;
    sw->cc[i] = p.regs_compiler;
    return 0;
}

/* Sweep the register counts of the list for one group of wg items.
 * Returns 0, or -1 when the aspect must stop. */
static int reg_sweep(mgp_arun *a, const char *name, int64_t wg, rsweep *sw)
{
    const int *list = a->quick ? reg_quick : mg_pplan_reg_counts;
    int n = a->quick ? 4 : mg_pplan_reg_counts_n;
    memset(sw, 0, sizeof *sw);
    sw->pts = mgp_series(a, name, "regs", "ns_per_register_update");
    sw->wg = wg;
    for (int i = 0; i < n; i++) {
        if (sw->fail_regs && list[i] > sw->fail_regs + 16) break;   /* past the launch limit */
        if (reg_point(a, sw, list[i])) return -1;
    }
    return 0;
}

/* Groups that run at once for `regs` registers: the first knee of the time
 * over the group count.  Returns it, or 0 (undetermined). */
static double concurrency(mgp_arun *a, int regs, int64_t wg, const char *name, double *conf)
{
    const double *mult = mg_pplan_conc_mult;
    cJSON *pts = mgp_series(a, name, "groups", "ns_per_register_update");
    double xs[8], ys[8], sp[8], per = 0, last = 0;
    int k = 0;
    *conf = 0;
    for (int i = 0; i < (a->quick ? 4 : mg_pplan_conc_mult_n); i++) {
        double gs = fmax(1, round(mult[i] * a->dp->cus));
        if (gs <= last) continue;
        last = gs;
        char fmt[256];
        snprintf(fmt, sizeof fmt, "regpressure regs=%d items=%lld wg=%lld iters=%%lld", regs,
                 (long long)(gs * (double)wg), (long long)wg);
        int64_t start = per > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / per / regs) : 64;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 24, &p)) return 0;
        double y = p.status == MGP_TP_OK ? p.median / ((double)p.scale * regs) : NAN;
        mgp_point_add(pts, gs, y, &p);
        if (p.status != MGP_TP_OK) continue;
        per = y;
        xs[k] = gs;
        ys[k] = y;
        sp[k++] = p.noise;
    }
    (void)sp;
    double first_c;
    if (k < 3 || mg_knee_jump(xs, ys, k, 1.5, &first_c, conf)) return 0;
    return first_c;
}

/* The first up-step of x1.5 or more in sw's time (NULL: none), r holding
 * the steps; a wide one is refined with points in between (not --quick).
 * Returns 0, or -1 when the aspect must stop. */
static int spill_knee(mgp_arun *a, rsweep *sw, mg_knee_result *r, const mg_knee_step **out)
{
    const mg_knee_step *s = NULL;
    if (sw->k >= 3 && mg_knee_steps(sw->x, sw->y, sw->noise, sw->k, NULL, r) == 0 && r->determined)
        s = mg_knee_first(r, 1, 0.5);
    if (s && s->ratio < 1.5) s = NULL;
    if (s && s->x_hi - s->x_lo > 2 && !a->quick) {
        int lo = (int)s->x_lo, hi = (int)s->x_hi, step = (hi - lo + 3) / 4 < 1 ? 1 : (hi - lo + 3) / 4;
        for (int v = lo + step; v < hi; v += step)
            if (reg_point(a, sw, v)) return -1;
        s = NULL;
        if (mg_knee_steps(sw->x, sw->y, sw->noise, sw->k, NULL, r) == 0 && r->determined)
            s = mg_knee_first(r, 1, 0.5);
        if (s && s->ratio < 1.5) s = NULL;
    }
    *out = s;
    return 0;
}

/* 1. The spill knee of one small group, refined between its last count
 * on the low level and its first on the high one; with compiler counts,
 * their saturation.  Concludes max_regs_per_item; *spill = the live
 * values where spilling starts (0: not seen).  Returns 0, or -1 when the
 * aspect must stop. */
static int regs_spill(mgp_arun *a, const mg_pdev *pd, int *spill)
{
    rsweep sw;
    if (reg_sweep(a, "one_group_of_64", mg_pplan_regs_wg_small(pd), &sw)) return -1;
    const char *m1 = "last register count before the first up-step (at least x1.5: a spill) "
                     "of the update time, one group (regpressure), + 3 of overhead";
    const char *m1c = "the compiler's register count (-cl-nv-verbose) where it stops growing "
                      "with the live values (regpressure)";
    int ncc = 0, ccmax = -1, ccmax_at = 0;
    for (int i = 0; i < sw.k; i++)
        if (sw.cc[i] >= 0) {
            ncc++;
            if (sw.cc[i] > ccmax) {
                ccmax = sw.cc[i];
                ccmax_at = (int)sw.x[i];
            }
        }
    mg_knee_result r;
    const mg_knee_step *s;
    if (spill_knee(a, &sw, &r, &s)) return -1;
    /* saturation: the two largest live counts differ by more than their
     * register counts (the compiler spills instead of growing) */
    int sat = ncc >= 3 && sw.k >= 2 && sw.cc[sw.k - 1] >= 0 && sw.cc[sw.k - 2] >= 0 &&
              sw.cc[sw.k - 1] - sw.cc[sw.k - 2] < (sw.x[sw.k - 1] - sw.x[sw.k - 2]) / 2;
    *spill = 0;
    if (sat) {
        *spill = ccmax_at;
        for (int i = 0; i < sw.k; i++)
            if (sw.cc[i] >= 0 && sw.cc[i] + 8 >= ccmax) {
                *spill = (int)sw.x[i];
                break;
            }
        mgp_conclude(a, "max_regs_per_item", ccmax, "registers", 0.9, m1c);
        mgp_note(a, "the compiler's count saturates at %d registers (from %d live values)",
                 ccmax, ccmax_at);
        if (s) mgp_note(a, "update time: x%.2f step from %g to %g live values", s->ratio,
                        s->x_lo, s->x_hi);
    } else if (s) {
        *spill = (int)s->x_lo;
        int comp = sw.cc[s->i_lo];
        mgp_conclude(a, "max_regs_per_item", comp >= 0 ? comp : s->x_lo + 3, "registers",
                     s->confidence, m1);
        mgp_note(a, "spill knee: x%.2f from %g to %g live values%s", s->ratio, s->x_lo, s->x_hi,
                 comp >= 0 ? " (the compiler's register counts are in the curve)" : "");
    } else {
        mgp_conclude_none(a, "max_regs_per_item", "registers", ncc ? m1c : m1, "no spill seen "
                          "up to %g live values (no x1.5 step%s)", sw.k ? sw.x[sw.k - 1] : 0.0,
                          ncc ? ", compiler count still growing" : "");
    }
    return 0;
}

/* 2. The register file: one group of the largest size, up to the count
 * that fails to launch (refined to the register) or whose time doubles.
 * Concludes register_file_per_cu and lowers *full (the registers the
 * model phase uses) to what wgc items can hold.  Returns 0, or -1 when
 * the aspect must stop. */
static int regs_file(mgp_arun *a, const mg_pdev *pd, int spill, int *full)
{
    rsweep sw;
    int64_t wgf = mg_pplan_regs_wg_full(pd);
    if (reg_sweep(a, "one_group_of_max", wgf, &sw)) return -1;
    const char *m2 = "largest group x registers of the last count that launched before "
                     "CL_OUT_OF_RESOURCES (or before the latency doubled, romou Fig 5)";
    int64_t wgc = mg_pplan_regs_wg_conc(pd);
    mg_knee_result r;
    const mg_knee_step *s;
    if (sw.fail_regs && sw.ok_regs) {
        /* refine the launch limit to the register */
        for (int v = sw.ok_regs + 1; v < sw.fail_regs && v <= sw.ok_regs + 16; v++)
            if (reg_point(a, &sw, v)) return -1;
        int comp = -1;
        for (int i = 0; i < sw.k; i++)
            if ((int)sw.x[i] == sw.ok_regs) comp = sw.cc[i];
        double per = comp >= 0 ? comp : sw.ok_regs + 3;
        mgp_conclude(a, "register_file_per_cu", per * (double)wgf, "registers",
                     comp >= 0 ? 0.9 : 0.6, m2);
        mgp_note(a, "a group of %lld items launched at %d and failed at %d live values%s",
                 (long long)wgf, sw.ok_regs, sw.fail_regs,
                 comp >= 0 ? " (compiler count at the last that launched in the curve)" : "");
        int lim = (int)((double)sw.ok_regs * (double)wgf / (double)wgc);
        if (lim < *full) *full = lim;
    } else if (sw.k >= 3 && mg_knee_steps(sw.x, sw.y, sw.noise, sw.k, NULL, &r) == 0 &&
               r.determined && (s = mg_knee_first(&r, 1, 0.5)) && s->ratio > 1.6 &&
               s->ratio < 2.6 && (!spill || s->x_lo < spill)) {
        mgp_conclude(a, "register_file_per_cu", (s->x_lo + 3) * (double)wgf, "registers",
                     s->confidence * 0.8, m2);
        int lim = (int)(s->x_lo * (double)wgf / (double)wgc);
        if (lim < *full) *full = lim;
    } else {
        mgp_conclude_none(a, "register_file_per_cu", "registers", m2, "a group of %lld items "
                          "launched at every count and its time never doubled before the "
                          "spill: registers do not limit one group", (long long)wgf);
    }
    return 0;
}

/* 3. The model: groups of wgc items at once at full and half registers. */
static void regs_model(mgp_arun *a, int64_t wgc, int full)
{
    double c1, c2;
    char name[64];
    snprintf(name, sizeof name, "groups_at_%d_regs", full);
    double g1 = concurrency(a, full, wgc, name, &c1);
    if (a->stopped || a->hung || a->budget) return;
    snprintf(name, sizeof name, "groups_at_%d_regs", full / 2);
    double g2 = concurrency(a, full / 2, wgc, name, &c2);
    if (a->stopped || a->hung || a->budget) return;
    mg_ares r3 = mgp_ares(a);
    mg_pc_reg_model(&r3, g1, c1, g2, c2, full, wgc);
    mgp_note(a, "reported compute units: %u", a->dp->cus);
}

void mgp_asp_regs(mgp_arun *a)
{
    mg_pdev pd;
    mgp_pdev(a, &pd);
    int spill;
    if (regs_spill(a, &pd, &spill)) return;
    int full = spill ? spill : 240;
    if (full > 240) full = 240;
    if (regs_file(a, &pd, spill, &full)) return;
    if (a->stopped || a->hung || a->budget) return;
    regs_model(a, mg_pplan_regs_wg_conc(&pd), full);
}
