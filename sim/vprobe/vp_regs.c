/*
 * vp_regs.c - the virtual regs aspect: mgprobe's three register sweeps
 * (asp_compute.c) through the model, with the generator's register
 * estimate standing for the compiler's count.
 *
 *  1. registers per item: one group of up to 64 items, regpressure over
 *     the probe's register counts; a spill shows as an x1.5 step of the
 *     update time.  The model does not spill (registers.max_regs_per_item
 *     is read by no mechanism), so this stays null, as on a device whose
 *     compiler never spills.
 *  2. register file: one group of the largest size; the first count whose
 *     update time leaves the one-group level by 3 % (the group runs as two
 *     occupancy groups, romou Fig 5's doubling; but only x1.375 on H100,
 *     whose update chain is throughput bound at 32 warps) or the first
 *     count that does not launch bounds the file.  The virtual probe
 *     narrows that step to the single register by
 *     bisection, then, knowing the warp (the warp aspect), repeats the
 *     search for groups of k warps, k = all .. fewer: each gives the most
 *     registers k warps hold at once, and the file is the largest of those
 *     products (registers x items): exact whenever the configured pool is
 *     some k x warp x registers (a pool between such products cannot be
 *     told from the largest below it by any kernel).
 *  3. model: groups of up to 256 items running at once at full and half
 *     registers (the first jump of the time over the group count):
 *     pooled when halving the registers doubles them.
 */
#include "sim/vprobe/vp.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXP 64
#define ONE_GROUP 0.03        /* a group split in two occupancy groups is slower by more
                                 (the model has no noise; romou's x2 holds only while the
                                 update chain is latency bound: H100's 32 warps show x1.375) */

typedef struct rsweep {
    cJSON  *pts;
    int64_t wg;
    int     k;
    double  x[MAXP], y[MAXP];
    int     cc[MAXP];                 /* the generator's registers per item */
    int     ok_regs, fail_regs;       /* last count that launched, first that did not */
} rsweep;

/* Measure `regs` live values for one group of sw->wg items (ns per
 * register update; 1 then 2 loop iterations).  Returns 0, or -1 when the
 * aspect must stop. */
static int reg_point(mg_vp *v, rsweep *sw, int regs, double *y)
{
    char fmt[256];
    snprintf(fmt, sizeof fmt, "regpressure regs=%d items=%lld wg=%lld iters=%%lld", regs,
             (long long)sw->wg, (long long)sw->wg);
    mg_vp_point p;
    if (mg_vp_measure(v, fmt, 1, 2, &p)) return -1;
    double ns = p.ok ? p.ns / regs : NAN;
    if (y) *y = ns;
    if (!sw->pts) return 0;
    mg_vp_point_add(sw->pts, regs, ns, &p);
    if (!p.ok) {
        if (!sw->fail_regs || regs < sw->fail_regs) sw->fail_regs = regs;
        return 0;
    }
    if ((!sw->fail_regs || regs < sw->fail_regs) && regs > sw->ok_regs) sw->ok_regs = regs;
    if (sw->k >= MAXP) return 0;
    int i = sw->k++;
    while (i > 0 && sw->x[i - 1] > regs) {
        sw->x[i] = sw->x[i - 1];
        sw->y[i] = sw->y[i - 1];
        sw->cc[i] = sw->cc[i - 1];
        i--;
    }
    sw->x[i] = regs;
    sw->y[i] = ns;
    sw->cc[i] = p.regs;
    return 0;
}

static int reg_sweep(mg_vp *v, const char *name, int64_t wg, rsweep *sw)
{
    memset(sw, 0, sizeof *sw);
    sw->pts = mg_ares_series(&v->r, name, "regs", "ns_per_register_update");
    sw->wg = wg;
    for (int i = 0; i < mg_pplan_reg_counts_n; i++) {
        if (sw->fail_regs && mg_pplan_reg_counts[i] > sw->fail_regs + 16) break;
        if (reg_point(v, sw, mg_pplan_reg_counts[i], NULL)) return -1;
    }
    return 0;
}

/* Does a group of wg items at `regs` run as one occupancy group (its
 * update time stays within ONE_GROUP of base, the time at few registers)?
 * Returns 1, 0, or -1 to stop; *est gets the generator's registers per
 * item. */
static int fits(mg_vp *v, int64_t wg, int regs, double base, int *est)
{
    char fmt[256];
    snprintf(fmt, sizeof fmt, "regpressure regs=%d items=%lld wg=%lld iters=%%lld", regs,
             (long long)wg, (long long)wg);
    mg_vp_point p;
    if (mg_vp_measure(v, fmt, 1, 2, &p)) return -1;
    *est = p.regs;
    return p.ok && p.ns / regs <= base * (1 + ONE_GROUP);
}

/* The most registers per item (the generator's count) a group of wg
 * items holds in one occupancy group, by bisection over regs in [1, 256]
 * starting from the guess lo; 0 when not even one register fits, -1 to
 * stop. */
static int most_regs(mg_vp *v, int64_t wg, int lo, double base)
{
    int est = 0, e, hi = 256;
    int f = fits(v, wg, 256, base, &e);
    if (f != 0) return f < 0 ? -1 : e;
    f = fits(v, wg, lo, base, &est);
    if (f < 0) return -1;
    if (!f) {                           /* the guess was too high: search below it */
        hi = lo;
        lo = 1;
        f = fits(v, wg, lo, base, &est);
        if (f <= 0) return f;
    }
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        f = fits(v, wg, mid, base, &e);
        if (f < 0) return -1;
        if (f) lo = mid, est = e;
        else hi = mid;
    }
    return est;
}

/* Refine the register file from groups of k warps (see the head comment);
 * returns the largest registers x items, or 0 when it cannot. */
static double file_by_groups(mg_vp *v, int64_t wgf, int r1, double base)
{
    double warp;
    if (mg_vp_earlier(v, "warp", "warp_size", &warp) || warp < 1 || warp > (double)wgf) {
        mg_ares_note(&v->r, "register file: no warp size from the warp aspect, so no search "
                     "over group sizes");
        return 0;
    }
    int64_t w = (int64_t)warp, kmax = wgf / w, step = kmax / 32 > 1 ? kmax / 32 : 1;
    double best = 0;
    int64_t best_k = 0;
    int best_r = 0, tries = 0;
    for (int64_t k = kmax; k >= 1; k -= step) {
        /* k warps hold at least what all of them held at r1 */
        int lo = (int)fmin(256, fmax(1, floor((double)(r1 + MG_PPLAN_REGS_OVERHEAD) *
                                              (double)kmax / (double)k) -
                                        MG_PPLAN_REGS_OVERHEAD - 8));
        int e0;                         /* this group size's one-group level */
        if (fits(v, k * w, 8, 1e300, &e0) < 0) return 0;
        mg_vp_point bp;
        char fmt[256];
        snprintf(fmt, sizeof fmt, "regpressure regs=8 items=%lld wg=%lld iters=%%lld",
                 (long long)(k * w), (long long)(k * w));
        if (mg_vp_measure(v, fmt, 1, 2, &bp)) return 0;
        double kbase = bp.ok ? bp.ns / 8 : base;
        int est = most_regs(v, k * w, lo, kbase);
        if (est < 0) return 0;
        tries++;
        if (est == 0) continue;
        double file = (double)est * (double)(k * w);
        if (file > best) best = file, best_k = k, best_r = est;
        if (est > 256) break;           /* the regs sweep's ceiling: fewer warps tell nothing */
    }
    mg_ares_note(&v->r, "register file: the most registers held at once over groups of 1..%lld "
                 "warps of %lld is %g (%lld warps x %d registers per item; %d group sizes)",
                 (long long)kmax, (long long)w, best, (long long)best_k, best_r, tries);
    return best;
}

/* Groups that run at once for `regs` registers (the first jump of the
 * time over the group count); 0 when undetermined. */
static double concurrency(mg_vp *v, int regs, int64_t wg, const char *name, double *conf)
{
    cJSON *pts = mg_ares_series(&v->r, name, "groups", "ns_per_register_update");
    double xs[8], ys[8], last = 0;
    int k = 0;
    *conf = 0;
    for (int i = 0; i < mg_pplan_conc_mult_n; i++) {
        double gs = fmax(1, round(mg_pplan_conc_mult[i] * v->pd.cus));
        if (gs <= last) continue;
        last = gs;
        char fmt[256];
        snprintf(fmt, sizeof fmt, "regpressure regs=%d items=%lld wg=%lld iters=%%lld", regs,
                 (long long)(gs * (double)wg), (long long)wg);
        mg_vp_point p;
        if (mg_vp_measure(v, fmt, 1, 2, &p)) return 0;
        double y = p.ok ? p.ns / regs : NAN;
        mg_vp_point_add(pts, gs, y, &p);
        if (!p.ok) continue;
        xs[k] = gs;
        ys[k++] = y;
    }
    double first_c;
    if (k < 3 || mg_knee_jump(xs, ys, k, 1.5, &first_c, conf)) return 0;
    return first_c;
}

/* 1: the spill knee (none in the model).  Returns the spill count, 0 when
 * none, -1 to stop. */
static int spill_knee(mg_vp *v)
{
    rsweep sw;
    if (reg_sweep(v, "one_group_of_64", mg_pplan_regs_wg_small(&v->pd), &sw)) return -1;
    const char *m1 = "last register count before the first up-step (at least x1.5: a spill) "
                     "of the update time, one group (regpressure), + 3 of overhead";
    mg_knee_result r;
    const mg_knee_step *s = NULL;
    if (sw.k >= 3 && mg_knee_steps(sw.x, sw.y, NULL, sw.k, NULL, &r) == 0 && r.determined)
        s = mg_knee_first(&r, 1, 0.5);
    if (s && s->ratio >= 1.5) {
        mg_ares_conclude(&v->r, "max_regs_per_item", sw.cc[s->i_lo], "registers", s->confidence,
                         m1);
        return (int)s->x_lo;
    }
    mg_ares_conclude_none(&v->r, "max_regs_per_item", "registers", m1, "no spill seen up to %g "
                          "live values (no x1.5 step): the model does not spill registers "
                          "(registers.max_regs_per_item is read by no mechanism)",
                          sw.k ? sw.x[sw.k - 1] : 0.0);
    return 0;
}

void mg_vp_regs(mg_vp *v)
{
    int spill = spill_knee(v);
    if (spill < 0) return;
    /* 2. register file */
    rsweep sw;
    int64_t wgf = mg_pplan_regs_wg_full(&v->pd), wgc = mg_pplan_regs_wg_conc(&v->pd);
    if (reg_sweep(v, "one_group_of_max", wgf, &sw)) return;
    const char *m2 = "the most registers held at once: one group of the largest size up to the "
                     "first rise (3 %) of the update time (romou Fig 5), narrowed to the register, "
                     "then the largest registers x items over groups of fewer warps";
    int full = spill ? spill : 240;
    if (full > 240) full = 240;
    /* the first count whose update time leaves the one-group level */
    int i_lo = -1;
    for (int i = 1; i < sw.k && i_lo < 0; i++)
        if (sw.y[i] > sw.y[0] * (1 + ONE_GROUP)) i_lo = i - 1;
    if (i_lo >= 0 && (!spill || sw.x[i_lo] < spill)) {
        double base = sw.y[0], conf = 0.8;
        int lo = (int)sw.x[i_lo], hi = (int)sw.x[i_lo + 1], est = sw.cc[i_lo], e;
        mg_ares_note(&v->r, "one group of %lld items: x%.3f from %d to %d live values",
                     (long long)wgf, sw.y[i_lo + 1] / sw.y[i_lo], lo, hi);
        while (hi - lo > 1) {                 /* narrow to the register */
            int mid = (lo + hi) / 2, f = fits(v, wgf, mid, base, &e);
            if (f < 0) return;
            if (f) lo = mid, est = e;
            else hi = mid;
        }
        mg_ares_note(&v->r, "one group of %lld items: %d live values (%d registers) run at once, "
                     "%d run as two occupancy groups", (long long)wgf, lo, est, hi);
        double file = file_by_groups(v, wgf, lo, base);
        if (v->failed) return;
        if (file < (double)est * (double)wgf) file = (double)est * (double)wgf;
        mg_ares_conclude(&v->r, "register_file_per_cu", file, "registers", conf, m2);
        int lim = (int)((double)lo * (double)wgf / (double)wgc);
        if (lim < full) full = lim;
    } else if (sw.fail_regs && sw.ok_regs) {
        mg_ares_conclude(&v->r, "register_file_per_cu",
                         (double)(sw.ok_regs + MG_PPLAN_REGS_OVERHEAD) * (double)wgf, "registers",
                         0.6, m2);
        mg_ares_note(&v->r, "a group of %lld items launched at %d and failed at %d live values",
                     (long long)wgf, sw.ok_regs, sw.fail_regs);
        int lim = (int)((double)sw.ok_regs * (double)wgf / (double)wgc);
        if (lim < full) full = lim;
    } else {
        mg_ares_conclude_none(&v->r, "register_file_per_cu", "registers", m2, "a group of %lld "
                              "items launched at every count and its time never doubled: "
                              "registers do not limit one group", (long long)wgf);
    }
    /* 3. model */
    double c1, c2;
    char name[64];
    snprintf(name, sizeof name, "groups_at_%d_regs", full);
    double g1 = concurrency(v, full, wgc, name, &c1);
    if (v->failed) return;
    snprintf(name, sizeof name, "groups_at_%d_regs", full / 2);
    double g2 = concurrency(v, full / 2, wgc, name, &c2);
    if (v->failed) return;
    mg_pc_reg_model(&v->r, g1, c1, g2, c2, full, wgc);
    mg_ares_note(&v->r, "reported compute units: %u", v->pd.cus);
}
