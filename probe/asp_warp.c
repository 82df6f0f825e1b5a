/*
 * asp_warp.c - the warp and alu aspects (romou 3.1, Fig 7 and 8).
 *
 * warp, by ticket: one group of W = min(512, max work-group) items (halved
 * while the kernel cannot run at that size) runs the ticket op with
 * delay=8: item l spins (W - 1 - l) x 8 steps, then takes a
 * ticket.  On a SIMT machine a warp's lanes leave the spin together (with
 * the slowest lane, its lowest l) and take consecutive tickets, warps in
 * reverse order: the tickets in local-id order form runs of consecutive
 * values exactly one warp long.  The warp is the run length covering the
 * most items; its confidence the share of items in runs of that length.
 * One run of all W items means the items ran one after another
 * (undetermined).
 *
 * warp, by timing: the warpsize op (dependent integer divisions) with
 * G = max(64, 32 x compute units) groups of `items` items, items swept
 * from 1 to 256: enough warps that the cores are throughput bound, so the
 * time per iteration is a staircase with one step per warp.  The warp is
 * the last x before the first up-step (knee.h).
 *
 * alu: one group of (64, 4, 2) items (romou's 3D launch, shrunk to the
 * device's limits) takes tickets with no delay.  Warps that issue together
 * interleave their tickets: inside one warp (an aligned block of w lids,
 * w from the warp aspect) consecutive tickets step by d = the number of
 * warps issuing at once, so a core has w x d ALU lanes (Adreno 640: 3 x
 * 128 = 384).  d is the step shared by the most blocks; its confidence the
 * share of blocks with that uniform step.  d = 1 (a warp's tickets are
 * consecutive) only bounds the lanes from below (w): confidence 0.3.  A
 * second estimate comes from the flops aspect: peak / (2 x clock x compute
 * units), the FMA lanes per core at the reported maximum clock.
 */
#include "probe/aspect.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run the ticket op once; the tickets of group 0 into a malloc'd array
 * (*n of them).  Returns 0; 1 when the kernel cannot run (why in msg);
 * -1 when the aspect must stop (SIGINT, budget, hang). */
static int tickets(mgp_arun *a, const char *line, int32_t **out, int64_t *n, char *msg,
                   size_t len)
{
    mg_gen g;
    mg_host h;
    int rc = mgp_run_once(a->t, line, &g, &h, msg, len);
    if (rc != MGP_TP_OK) {
        if (rc == MGP_TP_STOP) a->stopped = 1;
        else if (rc == MGP_TP_BUDGET) a->budget = 1;
        else if (rc == MGP_TP_HUNG) a->hung = 1;
        else return 1;
        if (!a->early[0]) snprintf(a->early, sizeof a->early, "%s", msg);
        return -1;
    }
    *n = g.k.t[0].perm_block;
    *out = malloc(sizeof **out * (size_t)*n);
    if (*out) memcpy(*out, h.i[0], sizeof **out * (size_t)*n);
    mg_host_free(&h);
    mg_gen_free(&g);
    if (!*out) {
        snprintf(msg, len, "out of memory for the tickets");
        return 1;
    }
    return 0;
}

/* Keep tickets as a curve: x = local linear id, y = ticket. */
static void ticket_curve(mgp_arun *a, const char *name, const char *line, const int32_t *t,
                         int64_t n)
{
    cJSON *pts = mgp_series(a, name, "local_linear_id", "ticket");
    for (int64_t l = 0; l < n; l++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "x", (double)l);
        cJSON_AddNumberToObject(o, "y", t[l]);
        cJSON_AddItemToArray(pts, o);
    }
    mgp_note(a, "%s: %s", name, line);
}

/* The run length of consecutive tickets covering the most items; *frac is
 * that share. */
static int64_t run_mode(const int32_t *t, int64_t n, double *frac)
{
    *frac = 0;
    int64_t *cover = calloc((size_t)n + 1, sizeof *cover);
    if (!cover) return 0;
    for (int64_t s = 0; s < n;) {
        int64_t e = s + 1;
        while (e < n && t[e] == t[e - 1] + 1) e++;
        cover[e - s] += e - s;
        s = e;
    }
    int64_t best = 1;
    for (int64_t len = 1; len <= n; len++)
        if (cover[len] > cover[best]) best = len;
    *frac = (double)cover[best] / (double)n;
    free(cover);
    return best;
}

/* Warp by ticket runs; *conf < 0 when undetermined.  The group shrinks
 * by halves (to 32) while the kernel cannot run at its size. */
static double warp_by_ticket(mgp_arun *a, double *conf)
{
    const mgp_kexec_dev *x = a->dp->x;
    int64_t w = x->max_wg < 512 ? (int64_t)x->max_wg : 512;
    if ((int64_t)x->max_items[0] < w) w = (int64_t)x->max_items[0];
    char line[256], msg[700];
    int32_t *t = NULL;
    int64_t n = 0;
    int rc = 1;
    *conf = -1;
    for (; w >= 32 && rc == 1; w /= 2) {
        snprintf(line, sizeof line, "ticket wg=%lld,1,1 groups=1 delay=8", (long long)w);
        if ((rc = tickets(a, line, &t, &n, msg, sizeof msg)) == 1) mgp_note(a, "%s: %s", line, msg);
    }
    if (rc) return 0;
    ticket_curve(a, "tickets_delayed", line, t, n);
    double frac = 0;
    int64_t len = run_mode(t, n, &frac);
    free(t);
    if (len >= n) {
        mgp_note(a, "by ticket: all %lld tickets in local-id order: the items ran one after "
                 "another (no lockstep warps), or the warp is at least %lld", (long long)n,
                 (long long)n);
        return 0;
    }
    *conf = frac < 0.5 ? frac : frac * ((len & (len - 1)) == 0 ? 1.0 : 0.8);
    mgp_note(a, "by ticket: runs of %lld consecutive tickets cover %.0f%% of %lld items",
             (long long)len, 100 * frac, (long long)n);
    return (double)len;
}

/* Warp by the timing staircase; *conf < 0 when undetermined. */
static double warp_by_timing(mgp_arun *a, double *conf)
{
    static const int full[] = {1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 56, 64, 72, 80,
                               96, 112, 128, 160, 192, 256};
    static const int quick[] = {1, 8, 16, 32, 48, 64, 96};
    const int *list = a->quick ? quick : full;
    int n = a->quick ? (int)(sizeof quick / sizeof quick[0]) : (int)(sizeof full / sizeof full[0]);
    mg_pdev pd;
    mgp_pdev(a, &pd);
    int64_t groups = mg_pplan_warp_groups(&pd);
    cJSON *pts = mgp_series(a, "division_loop", "items_per_group", "ns_per_iteration");
    double xs[64], ys[64], sp[64], per_iter = 0;
    int k = 0;
    *conf = -1;
    for (int i = 0; i < n; i++) {
        if ((size_t)list[i] > a->dp->x->max_wg) break;
        char fmt[256];
        snprintf(fmt, sizeof fmt, "warpsize items=%d groups=%lld iters=%%lld", list[i],
                 (long long)groups);
        int64_t start = per_iter > 0 ? (int64_t)ceil(1.3e6 * a->t->min_ms / per_iter) : 64;
        mgp_point p;
        if (mgp_take(a, fmt, start, (int64_t)1 << 24, &p)) break;
        double y = p.status == MGP_TP_OK ? p.median / (double)p.scale : NAN;
        mgp_point_add(pts, list[i], y, &p);
        if (p.status != MGP_TP_OK) continue;
        per_iter = y;
        xs[k] = list[i];
        ys[k] = y;
        sp[k++] = p.noise;
    }
    mg_knee_result r;
    if (k < 3 || mg_knee_steps(xs, ys, sp, k, NULL, &r)) {
        mgp_note(a, "by timing: too few points (%d)", k);
        return 0;
    }
    if (!r.determined) {
        mgp_note(a, "by timing: %s", r.why);
        return 0;
    }
    const mg_knee_step *s = mg_knee_first(&r, 1, 0.5);
    if (!s) {
        mgp_note(a, "by timing: no step up in the time per iteration (flat: the cores never "
                 "filled)");
        return 0;
    }
    *conf = s->confidence;
    mgp_note(a, "by timing: first step x%.2f between %g and %g items per group (%lld groups)",
             s->ratio, s->x_lo, s->x_hi, (long long)groups);
    return s->x_lo;
}

void mgp_asp_warp(mgp_arun *a)
{
    double c1, c2;
    double w1 = warp_by_ticket(a, &c1);
    if (a->stopped || a->hung || a->budget) return;
    double w2 = warp_by_timing(a, &c2);
    mg_ares r = mgp_ares(a);
    mg_pc_warp(&r, w1, c1, w2, c2, "no runs shorter than the group: the items ran one after "
               "another");
}

/* The uniform ticket step inside aligned blocks of w lids: the step shared
 * by the most blocks, *frac their share. */
static int64_t block_step(const int32_t *t, int64_t n, int64_t w, double *frac)
{
    int64_t blocks = n / w, best = 0, best_n = 0;
    for (int64_t b = 0; b < blocks; b++) {
        int64_t d = t[b * w + 1] - t[b * w];
        int uniform = d > 0;
        for (int64_t l = b * w + 1; uniform && l < (b + 1) * w; l++) uniform = t[l] - t[l - 1] == d;
        if (!uniform) continue;
        int64_t cnt = 0;               /* blocks with the same uniform step */
        for (int64_t c = 0; c < blocks; c++) {
            int u = t[c * w + 1] - t[c * w] == d;
            for (int64_t l = c * w + 1; u && l < (c + 1) * w; l++) u = t[l] - t[l - 1] == d;
            cnt += u;
        }
        if (cnt > best_n) {
            best_n = cnt;
            best = d;
        }
    }
    *frac = blocks ? (double)best_n / (double)blocks : 0;
    return best;
}

void mgp_asp_alu(mgp_arun *a)
{
    const mgp_kexec_dev *x = a->dp->x;
    int64_t d[3] = {64, 4, 2};
    for (int i = 0; i < 3; i++)
        if (d[i] > (int64_t)x->max_items[i]) d[i] = (int64_t)x->max_items[i];
    while (d[0] * d[1] * d[2] > (int64_t)x->max_wg) {
        if (d[2] > 1) d[2] /= 2;
        else if (d[1] > 1) d[1] /= 2;
        else d[0] /= 2;
    }
    char line[256], msg[700];
    int32_t *t = NULL;
    int64_t n = 0;
    int rc = 1;
    const char *m1 = "ticket interleaving inside each warp of one 3D group (romou Fig 8)";
    while (rc == 1 && d[0] * d[1] * d[2] >= 32) {
        snprintf(line, sizeof line, "ticket wg=%lld,%lld,%lld groups=1 delay=0",
                 (long long)d[0], (long long)d[1], (long long)d[2]);
        if ((rc = tickets(a, line, &t, &n, msg, sizeof msg)) != 1) break;
        mgp_note(a, "%s: %s", line, msg);
        if (d[2] > 1) d[2] /= 2;                 /* a smaller group */
        else if (d[1] > 1) d[1] /= 2;
        else d[0] /= 2;
    }
    if (rc == 1)
        mgp_conclude_none(a, "alu_lanes_per_cu", "lanes", m1, "the ticket kernel did not run "
                          "(see the notes)");
    if (rc == 0) {
        ticket_curve(a, "tickets_3d", line, t, n);
        double w;
        if (mgp_earlier(a, "warp", "warp_size", &w) || w < 2 || w > (double)n / 2) {
            mgp_conclude_none(a, "alu_lanes_per_cu", "lanes", m1, "needs the warp size (run "
                              "the warp aspect first), and a group of at least two warps");
        } else {
            double frac = 0;
            int64_t step = block_step(t, n, (int64_t)w, &frac);
            if (step <= 0 || frac < 0.5)
                mgp_conclude_none(a, "alu_lanes_per_cu", "lanes", m1, "no uniform ticket step "
                                  "inside most warps (%.0f%%)", 100 * frac);
            else if (step == 1) {
                mgp_conclude(a, "alu_lanes_per_cu", w, "lanes", 0.3, m1);
                mgp_note(a, "a warp's tickets are consecutive: warps did not interleave, so "
                         "the ticket order only bounds the lanes from below (%g)", w);
            } else {
                mgp_conclude(a, "alu_lanes_per_cu", w * (double)step, "lanes", frac, m1);
                mgp_note(a, "tickets step by %lld inside %.0f%% of the warps of %g items",
                         (long long)step, 100 * frac, w);
            }
        }
        free(t);
    }
    if (a->stopped || a->hung) return;
    double peak;
    int have = mgp_earlier(a, "flops", "fp32_peak_gflops", &peak) == 0;
    mg_ares r = mgp_ares(a);
    mg_pc_alu_by_flops(&r, have, have ? peak : 0, a->dp->clock_mhz, a->dp->cus);
}
