/*
 * sample_est.c - sampled simulation: snapshots, steady rates and the
 * extrapolation of the statistics (sample.h; sim/MODEL.md, "Sampled
 * simulation").
 *
 * The replayed launch is a sequence of stretches between completions:
 * kept ones (the head's warm-up, the measured windows, the tail) and
 * re-warming ones right after each jump.  With W the measured windows'
 * work and X the work never replayed plus the re-warming stretches' work,
 * every timing-dependent statistic v is estimated as
 *     v(end) + v(windows) x X / W - v(re-warming stretches)
 * and the trace's own counts (records, flops, lane accesses, warps) as
 * the replayed ones plus, per grid-position class, the work groups never
 * fetched times their kind's summary.
 *
 * Estimated error (sample_error): 2 x the standard error of the steady
 * rate between measured waves (all windows) x X over the estimated cycles,
 * plus, when the kinds of work group differ, half the spread between
 * weighting them by records alone and by lanes alone.
 */
#include "sim/model/sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double *lv_field(double *v, int lv, int k) { return &v[MG_SV_LV + 4 * lv + k]; }

void mg_snap_take(const mg_sim *s, double t, mg_snap *x)
{
    const mg_sampler *m = s->smp;
    const mg_sim_stats *st = s->st;
    memset(x, 0, sizeof *x);
    x->done = m->done;
    x->wr = m->wr;
    x->wl = m->wl;
    x->v[MG_SV_T] = t;
    for (int i = 0; i < s->dev->sp_count; i++) {     /* sim.c's sp_account, read-only */
        const mg_spi *p = &s->sps[i];
        double dt = t > p->last_change ? t - p->last_change : 0;
        x->v[MG_SV_BUSY] += p->busy_time + (p->wgs ? dt : 0);
        x->v[MG_SV_WARP_TIME] += p->warp_time + (double)p->warps * dt;
    }
    x->v[MG_SV_ALU_BUSY] = st->alu_busy;
    for (int i = 0; i < 3; i++) x->v[MG_SV_STALL + i] = st->stall[i];
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        *lv_field(x->v, lv, 0) = (double)st->lv[lv].accesses;
        *lv_field(x->v, lv, 1) = (double)st->lv[lv].hits;
        *lv_field(x->v, lv, 2) = (double)st->lv[lv].misses;
        *lv_field(x->v, lv, 3) = st->lv[lv].bytes;
    }
}

double mg_snap_work(const mg_snap *x) { return 0.5 * (x->wr + x->wl); }

/* Value k of stretch [a, b] per unit of work (0 when no work). */
static double per_work(const mg_snap *a, const mg_snap *b, int k)
{
    double w = mg_snap_work(b) - mg_snap_work(a);
    return w > 0 ? (b->v[k] - a->v[k]) / w : 0;
}

int mg_sample_push_rate(mg_sampler *m, const mg_snap *a, const mg_snap *b)
{
    if (mg_snap_work(b) <= mg_snap_work(a)) return 0;
    if (m->nrates == m->caprates) {
        size_t cap = m->caprates ? 2 * m->caprates : 32;
        double *r = realloc(m->rates, cap * sizeof *r);
        if (!r) return -1;
        m->rates = r;
        m->caprates = cap;
    }
    m->rates[m->nrates++] = per_work(a, b, MG_SV_T);
    return 0;
}

double mg_sample_rate_se(const mg_sampler *m, double *se)
{
    *se = -1;
    if (m->nrates == 0) return 0;
    double sum = 0;
    for (size_t i = 0; i < m->nrates; i++) sum += m->rates[i];
    double mean = sum / (double)m->nrates;
    if (m->nrates < 2) return mean;
    double var = 0;
    for (size_t i = 0; i < m->nrates; i++) var += (m->rates[i] - mean) * (m->rates[i] - mean);
    *se = sqrt(var / (double)(m->nrates - 1) / (double)m->nrates);
    return mean;
}

/* Do the first and second halves of the head's waves [from, to) agree on
 * value k per work within tol (relative)? */
static int halves_agree(const mg_sampler *m, size_t from, size_t to, int k, double tol)
{
    size_t n = to - from, h = n / 2;
    const mg_snap *a = &m->snaps[from], *b = &m->snaps[from + h];
    const mg_snap *c = &m->snaps[to - h], *d = &m->snaps[to];
    double x = per_work(a, b, k), y = per_work(c, d, k);
    double big = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
    return fabs(x - y) <= tol * big;
}

int mg_sample_steady(const mg_sampler *m, size_t from, size_t to)
{
    return halves_agree(m, from, to, MG_SV_T, 0.015) &&
           halves_agree(m, from, to, MG_SV_LV + 4 * MG_LV_DRAM + 3, 0.05);
}

int mg_sample_locked(const mg_sampler *m, size_t from, size_t to)
{
    size_t same = 0, n = 0;
    for (size_t i = from + 1; i < to; i++, n++) {
        double a = m->snaps[i].v[MG_SV_T] - m->snaps[i - 1].v[MG_SV_T];
        double b = m->snaps[i + 1].v[MG_SV_T] - m->snaps[i].v[MG_SV_T];
        same += fabs(a - b) <= 1e-3 * b;
    }
    return n >= 2 && 2 * same >= n;
}

/* Cycles per work of window i. */
static double win_rate(const mg_sampler *m, int i)
{
    const mg_seg *g = &m->win[i];
    return (g->b.v[MG_SV_T] - g->a.v[MG_SV_T]) / (mg_snap_work(&g->b) - mg_snap_work(&g->a));
}

/* Mean of the windows' rates and its standard error (-1 with fewer than 2). */
static double between_se(const mg_sampler *m, double *se)
{
    double sum = 0, var = 0;
    for (int i = 0; i < m->nwin; i++) sum += win_rate(m, i);
    double mean = sum / m->nwin;
    *se = -1;
    if (m->nwin < 2) return mean;
    for (int i = 0; i < m->nwin; i++) var += (win_rate(m, i) - mean) * (win_rate(m, i) - mean);
    *se = sqrt(var / (double)(m->nwin - 1) / (double)m->nwin);
    return mean;
}

double mg_sample_between(const mg_sampler *m)
{
    double se, se_waves, mean = between_se(m, &se);
    mg_sample_rate_se(m, &se_waves);
    if (se_waves > se) se = se_waves;
    return se > 0 && mean > 0 ? 2.0 * se / mean : 0;
}

/* ---- the extrapolation ------------------------------------------------------- */

static uint64_t count(double v) { return v <= 0 ? 0 : (uint64_t)llround(v); }

/* Trace counts of the work groups never fetched, from their kinds. */
static void extrap_counts(mg_sim_stats *o, const mg_sampler *m)
{
    for (int p = 0; p < MG_SAMPLE_POS; p++) {
        int k = m->cls.kind[p];
        if (k < 0) continue;
        uint64_t n = m->cls.pos_count[p] - m->fetched_pos[p];
        const mg_wg_sig *g = &m->cls.sig[k];
        o->work_groups += n;
        o->warps += n * g->warps;
        o->warp_instrs += n * g->warp_instrs;
        o->lane_accesses += n * g->lane_accesses;
        for (int i = 0; i < MG_REC_TYPE_COUNT; i++) o->records[i] += n * g->records[i];
        o->flops += (double)n * g->flops;
        for (int i = 0; i < MG_ALU_CLASS_COUNT; i++)
            o->alu_lane_ops[i] += (double)n * g->alu_lane_ops[i];
    }
}

/* Write the estimated values v back into the statistics. */
static void put_timing(mg_sim_stats *o, const double *v)
{
    o->alu_busy = v[MG_SV_ALU_BUSY] > 0 ? v[MG_SV_ALU_BUSY] : 0;
    for (int i = 0; i < 3; i++) o->stall[i] = v[MG_SV_STALL + i] > 0 ? v[MG_SV_STALL + i] : 0;
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        mg_level_stats *l = &o->lv[lv];
        int exact = l->accesses == l->hits + l->misses;
        double *x = (double *)v;
        l->hits = count(*lv_field(x, lv, 1));
        l->misses = count(*lv_field(x, lv, 2));
        l->accesses = exact ? l->hits + l->misses : count(*lv_field(x, lv, 0));
        l->bytes = *lv_field(x, lv, 3) > 0 ? *lv_field(x, lv, 3) : 0;
    }
}

/* Work of stretch g. */
static double seg_work(const mg_seg *g) { return mg_snap_work(&g->b) - mg_snap_work(&g->a); }

/* Cycles the re-warming may have left in what is kept: after jump i, the
 * last wave of the re-warming stretch still differs from window i's
 * steady rate by d; a transient that decays leaves less than d in the
 * window that follows (kept once and extrapolated over its xs / work) or
 * in the tail (kept once). */
static double transient(const mg_sampler *m, const double *xs)
{
    double sum = 0;
    for (int i = 0; i < m->nrw && i < m->nwin; i++) {
        double w = m->rw_last_w[i];
        if (w <= 0) continue;                  /* the tail ended inside the stretch */
        double d = fabs(m->rw_last_t[i] - win_rate(m, i) * w);
        double scale = 1;
        if (i + 1 < m->nwin) scale += xs[i + 1] / seg_work(&m->win[i + 1]);
        sum += d * scale;
    }
    return sum;
}

int mg_sample_windows(uint64_t waves)
{
    return waves < 48 ? 2 : 3;
}

void mg_sample_finish(mg_sim *s)
{
    mg_sampler *m = s->smp;
    mg_sim_stats *st = s->st;
    st->sample_mode = m->mode;
    st->sample_wgs_simulated = st->work_groups;
    st->sample_wave = (uint32_t)m->wave;
    st->sample_positions = (uint32_t)m->cls.positions;
    st->sample_classes = (uint32_t)m->cls.n_kinds;
    if (m->nwin == 0) {
        st->sample_note = m->note ? m->note : MG_SAMPLE_NOTE_FEW;
        return;
    }
    mg_snap end;
    mg_snap_take(s, s->now, &end);
    if (m->state == MG_SMP_REWARM) m->rw[m->nrw++].b = end;     /* the tail ended first */
    /* the work never fetched, by weighting, and in all */
    double ur = 0, ul = 0, skipped = 0;
    for (int p = 0; p < MG_SAMPLE_POS; p++) {
        int k = m->cls.kind[p];
        if (k < 0) continue;
        double n = (double)(m->cls.pos_count[p] - m->fetched_pos[p]);
        ur += n * m->cls.w_rec[k];
        ul += n * m->cls.w_lane[k];
    }
    for (int i = 0; i < m->nwin; i++) skipped += (double)m->skips[i];
    /* Stratified: the skip and the re-warming stretch after window i are
     * extrapolated at window i's rates (the windows are spread evenly). */
    double v[MG_SV_N], t_rec = 0, t_lane = 0, x = 0, xs[MG_SAMPLE_MAX_WIN];
    for (int k = 0; k < MG_SV_N; k++) v[k] = end.v[k];
    for (int i = 0; i < m->nrw; i++)
        for (int k = 0; k < MG_SV_N; k++) v[k] -= m->rw[i].b.v[k] - m->rw[i].a.v[k];
    for (int i = 0; i < m->nwin; i++) {
        const mg_seg *g = &m->win[i];
        double share = skipped > 0 ? (double)m->skips[i] / skipped : 0;
        double xr = ur * share, xl = ul * share;
        if (i < m->nrw) {
            xr += m->rw[i].b.wr - m->rw[i].a.wr;
            xl += m->rw[i].b.wl - m->rw[i].a.wl;
        }
        double xi = 0.5 * (xr + xl), w = seg_work(g);
        for (int k = 0; k < MG_SV_N; k++) v[k] += (g->b.v[k] - g->a.v[k]) * xi / w;
        double dt = g->b.v[MG_SV_T] - g->a.v[MG_SV_T];
        t_rec += dt / (g->b.wr - g->a.wr) * xr;
        t_lane += dt / (g->b.wl - g->a.wl) * xl;
        x += xi;
        xs[i] = xi;
    }
    double T = v[MG_SV_T];
    put_timing(st, v);
    extrap_counts(st, m);
    st->cycles = T;
    st->seconds = T / s->dev->clock_hz;
    st->resident_warps_mean = v[MG_SV_BUSY] > 0 ? v[MG_SV_WARP_TIME] / v[MG_SV_BUSY] : 0;
    double idle = (double)s->dev->sp_count * T - v[MG_SV_BUSY];
    st->stall[MG_STALL_IDLE] = idle > 0 ? idle : 0;
    st->fp16_dominant = st->alu_lane_ops[MG_ALU_FP16] > st->alu_lane_ops[MG_ALU_FP32];
    /* the estimated error: the rate's standard error between the windows
     * (phases and noise), or between the head's waves with one window */
    double se, se_waves;
    mg_sample_rate_se(m, &se_waves);
    if (m->nwin >= 2) between_se(m, &se);
    else se = se_waves;
    if (se_waves > se) se = se_waves;
    double e_mix = fabs(t_rec - t_lane) / 2.0 / T;
    st->sample_used = 1;
    st->sample_note = MG_SAMPLE_NOTE_NONE;
    st->sample_warmup_waves = (uint32_t)(m->win[0].a.done / m->wave);
    double waves = 0;
    for (int i = 0; i < m->nwin; i++) waves += (double)(m->win[i].b.done - m->win[i].a.done);
    st->sample_measured_waves = waves / (double)m->wave;
    st->sample_windows = (uint32_t)m->nwin;
    double e = 2.0 * se * x / T + e_mix + transient(m, xs) / T;
    st->sample_error = se < 0 ? -1 : e < 1e-12 ? 0 : e;     /* -1: one wave */
}
