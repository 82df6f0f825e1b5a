/*
 * sample.c - sampled simulation: the timeline (sample.h; sim/MODEL.md,
 * "Sampled simulation").
 *
 * The event loop replays the launch from its start as usual.  A *wave* is
 * the number of work groups resident at once, read off the first
 * completion; completions come in bursts of about a wave, so every
 * measured stretch spans whole waves of completions (the same point of two
 * bursts), and every skip is whole waves, so the tail is dispatched in the
 * phase it has in the full launch.  The head replays a warm-up and then
 * measured waves: in auto mode until a window of the last waves is steady
 * (cycles and DRAM bytes per work agree between its halves) and its rate
 * known well enough; with N, a wave of warm-up and N waves.  Then the
 * source skips whole waves of work groups (seek_wg: nothing is generated),
 * the replay re-warms (the groups in flight, then new ones: as long as the
 * launch took to settle from its cold start; replaced by the steady rate),
 * measures another window (auto), and so on, the windows spread evenly;
 * the last jump lands on the tail, replayed to the end.  sample_est.c
 * turns the stretches into the estimate.
 */
#include "sim/model/sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mg_sample_note_text(int note)
{
    switch (note) {
    case MG_SAMPLE_NOTE_FEW: return "too few work groups to sample";
    case MG_SAMPLE_NOTE_NONUNIFORM: return "work groups differ within a grid-position class";
    case MG_SAMPLE_NOTE_NOSEEK: return "the trace source cannot skip work groups";
    default: return "";
    }
}

int mg_sample_parse(const char *s, int *mode)
{
    if (!strcmp(s, "off")) { *mode = MG_SAMPLE_OFF; return 0; }
    if (!strcmp(s, "auto")) { *mode = MG_SAMPLE_AUTO; return 0; }
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 1 || v > 1000 || s[0] == '+' || s[0] == ' ') return -1;
    *mode = (int)v;
    return 0;
}

int mg_sample_init(mg_sim *s, const mg_sim_opts *o)
{
    s->smp = NULL;
    if (!o || o->sample == MG_SAMPLE_OFF) return 0;
    mg_sampler *m = calloc(1, sizeof *m);
    if (!m) {
        mg_diag_error(s->d, "%s: out of memory setting up sampling", s->hdr->kernel);
        return -1;
    }
    m->mode = o->sample < 0 ? MG_SAMPLE_AUTO : o->sample;
    m->total = mg_trace_num_wgs(s->hdr);
    m->next = s->st->work_groups;       /* fetched before sampling was set up */
    m->state = MG_SMP_PLAN;
    s->smp = m;
    return 0;
}

void mg_sample_free(mg_sim *s)
{
    if (!s->smp) return;
    free(s->smp->snaps);
    free(s->smp->rates);
    free(s->smp);
    s->smp = NULL;
}

/* ---- planning, at the first completion ------------------------------------ */

/* Auto mode: launches shorter than this many waves are replayed in full
 * (sampling would save less than about 2x, and a launch this short may
 * not reach its steady state); and the head keeps measuring until the
 * estimated error (2 standard errors) of what it would extrapolate is
 * below TARGET_ERROR, or replays everything. */
#define MIN_WAVES_AUTO 32
#define TARGET_ERROR   0.0075

static void go_full(mg_sampler *m, int note)
{
    m->state = MG_SMP_FULL;
    m->note = note;
}

/* Count work group idx as fetched, in its position class. */
static void fetched(mg_sampler *m, uint64_t idx)
{
    if (idx >= m->total || !m->cls.n_kinds) return;
    uint64_t n0 = m->cls.n[0], n1 = m->cls.n[1];
    uint32_t id[3] = {(uint32_t)(idx % n0), (uint32_t)(idx / n0 % n1), (uint32_t)(idx / (n0 * n1))};
    m->fetched_pos[mg_sample_pos(&m->cls, id)]++;
}

static int snap_push(mg_sampler *m, const mg_snap *x)
{
    if (m->nsnap == m->capsnap) {
        size_t cap = m->capsnap ? 2 * m->capsnap : 64;
        mg_snap *v = realloc(m->snaps, cap * sizeof *v);
        if (!v) return -1;
        m->snaps = v;
        m->capsnap = cap;
    }
    m->snaps[m->nsnap++] = *x;
    return 0;
}

static uint64_t ceil_waves(uint64_t wgs, uint64_t C) { return (wgs + C - 1) / C; }

/* Waves of each part; whether sampling can save anything at all. */
static int plan(mg_sim *s)
{
    mg_sampler *m = s->smp;
    uint64_t C = s->st->work_groups - (s->pending[0] ? 1 : 0);
    m->wave = C = C ? C : 1;
    uint64_t waves = m->total / C;
    m->warm = 1;
    m->rewarm = 2;                      /* the groups in flight, then a wave */
    m->tail = m->rewarm;                /* its new wave, then a wave and the drain */
    if (m->mode > 0) {
        m->win_min = m->win_max = (uint64_t)m->mode;
    } else {
        m->win_min = 3;
        m->win_max = 256;
        m->lock = waves / 4 < 24 ? waves / 4 : 24;
        m->extra = mg_sample_windows(waves) - 1;
    }
    if (waves < (m->mode > 0 ? m->warm + m->win_min + m->tail + 2 : MIN_WAVES_AUTO)) {
        go_full(m, MG_SAMPLE_NOTE_FEW);
        return 0;
    }
    if (!s->src->seek_wg || !s->src->wg_at) {
        go_full(m, MG_SAMPLE_NOTE_NOSEEK);
        return 0;
    }
    if (mg_sample_classify(&m->cls, s->src, s->d)) return -1;
    for (uint64_t i = 0; i < m->next; i++) fetched(m, i);
    if (!m->cls.uniform) {
        go_full(m, MG_SAMPLE_NOTE_NONUNIFORM);
        return 0;
    }
    /* the edge slabs of the outermost dimension: replayed when affordable;
     * windows over a whole period of the inner edges, when affordable */
    const mg_sample_classes *c = &m->cls;
    uint64_t slab = c->n[2] > 1 ? c->n[0] * c->n[1] : c->n[1] > 1 ? c->n[0] : 1;
    if (c->outer_differs && slab <= 4 * C) {
        if (m->warm < ceil_waves(slab, C) + 1) m->warm = ceil_waves(slab, C) + 1;
        m->tail += ceil_waves(slab, C);
    }
    if (c->inner_differs && slab <= 8 * C && m->mode <= 0) {
        if (m->win_min < ceil_waves(slab, C)) m->win_min = ceil_waves(slab, C);
        if (m->win_max < m->win_min) m->win_max = m->win_min;
    }
    if (waves < m->warm + m->win_min + m->tail + 2) {
        go_full(m, MG_SAMPLE_NOTE_FEW);
        return 0;
    }
    mg_snap zero;
    memset(&zero, 0, sizeof zero);
    if (snap_push(m, &zero)) return -1;
    m->state = MG_SMP_HEAD;
    return 0;
}

/* ---- jumps ------------------------------------------------------------------ */

/* Auto mode: a launch whose jumps would skip less than this share of its
 * work groups is replayed in full instead (decided at the first jump):
 * saving under a quarter of the replay is not worth an estimate's error
 * (seen: 4% skipped, 2.6% off). */
#define MIN_SKIP_SHARE 0.25

/* Decide the next jump from the completion `now`: whole waves, leaving
 * room for the windows still to measure, spread evenly.  At the first
 * jump, in auto mode, may give up sampling instead (MIN_SKIP_SHARE). */
static void jump(mg_sampler *m, const mg_snap *now)
{
    uint64_t C = m->wave, seg = (m->rewarm + m->win_extra) * C;
    uint64_t end = m->total - m->tail * C;
    uint64_t free = end > m->next ? end - m->next : 0;
    while (m->extra > 0 && free < (uint64_t)m->extra * seg + (uint64_t)(m->extra + 1) * C)
        m->extra--;
    uint64_t each = (free - (uint64_t)m->extra * seg) / (uint64_t)(m->extra + 1) / C * C;
    if (m->mode <= 0 && m->nrw == 0 &&
        (double)(each * (uint64_t)(m->extra + 1)) < MIN_SKIP_SHARE * (double)m->total) {
        m->nwin = 0;                       /* nothing skipped yet: the replay is exact */
        go_full(m, MG_SAMPLE_NOTE_FEW);
        return;
    }
    m->skip = each;
    m->skips[m->nwin - 1] = m->skip;
    m->rw[m->nrw].a = m->rw_wave = *now;
    m->seg_end = now->done + m->rewarm * C;
    m->state = MG_SMP_REWARM;
}

/* Per-wave rates of head waves [from, to). */
static int push_head_rates(mg_sampler *m, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (mg_sample_push_rate(m, &m->snaps[i], &m->snaps[i + 1])) return -1;
    return 0;
}

/* The head's window: its last W waves.  In auto mode the re-warming after
 * a jump lasts as long as the launch took to settle from its cold start
 * (where the longest steady stretch ending here begins), 2 to 6 waves. */
static int set_head(mg_sampler *m, size_t h, size_t W)
{
    m->win[0].a = m->snaps[h - W];
    m->win[0].b = m->snaps[h];
    m->nwin = 1;
    m->win_extra = W > 2 ? W - 1 : W;      /* later windows: cross-checks */
    if (m->mode > 0) return 1;
    size_t L = h - W;
    for (size_t w = h - m->warm; w > W; w--) {
        if (mg_sample_steady(m, h - w, h)) {
            L = h - w;
            break;
        }
    }
    uint64_t r = L < 2 ? 2 : L > 6 ? 6 : L;
    m->tail += r - m->rewarm;
    m->rewarm = r;
    return 1;
}

/* At the end of head wave h: jump now?  Fills win[0] and the rates when
 * it does.  Returns 1 to jump, 0 not yet, -1 on OOM. */
static int head_ready(mg_sampler *m)
{
    size_t h = m->nsnap - 1;               /* waves completed */
    uint64_t C = m->wave;
    uint64_t end = m->total - m->tail * C;
    if (m->next + C > end) {               /* no whole wave left to skip */
        go_full(m, MG_SAMPLE_NOTE_FEW);
        return 0;
    }
    if (h < m->warm + m->win_min) return 0;
    /* waves repeating to the cycle are a synchronized start that may
     * break down later (seen: 3x slower after 17 waves): wait longer */
    if (m->mode <= 0 && h < m->warm + m->lock && mg_sample_locked(m, m->warm, h)) return 0;
    size_t avail = h - m->warm < m->win_max ? h - m->warm : m->win_max;
    if (m->mode > 0) return push_head_rates(m, h - m->win_min, h) ? -1 : set_head(m, h, m->win_min);
    /* auto: the shortest window ending here that is steady and whose rate
     * is known well enough (2 standard errors of what it would extrapolate
     * under TARGET_ERROR of the projected cycles) */
    double sum = 0, sq = 0, x = (double)(end - m->next + m->rewarm * C);
    for (size_t W = 1; W <= avail; W++) {
        const mg_snap *a = &m->snaps[h - W], *b = &m->snaps[h - W + 1];
        double w = mg_snap_work(b) - mg_snap_work(a);
        double r = w > 0 ? (b->v[MG_SV_T] - a->v[MG_SV_T]) / w : 0;
        sum += r;
        sq += r * r;
        if (W < m->win_min || !mg_sample_steady(m, h - W, h)) continue;
        double n = (double)W, mean = sum / n, var = (sq - n * mean * mean) / (n - 1);
        double se = sqrt(var > 0 ? var / n : 0);
        double proj = m->snaps[h].v[MG_SV_T] + mean * (double)(m->total - m->done);
        if (proj > 0 && 2.0 * se * x / proj <= TARGET_ERROR)
            return push_head_rates(m, h - W, h) ? -1 : set_head(m, h, W);
    }
    return 0;
}

/* ---- hooks ------------------------------------------------------------------ */

int mg_sample_done(mg_sim *s, const mg_wgi *g, double t)
{
    mg_sampler *m = s->smp;
    if (m->state == MG_SMP_PLAN && plan(s)) {
        s->failed = 1;
        return -1;
    }
    m->done++;
    if (m->state == MG_SMP_FULL) return 0;
    int k = m->cls.kind[mg_sample_pos(&m->cls, g->tw.id)];
    if (k < 0) k = 0;
    m->wr += m->cls.w_rec[k];
    m->wl += m->cls.w_lane[k];
    uint64_t C = m->wave;
    mg_snap now;

    switch (m->state) {
    case MG_SMP_HEAD:
        if (m->done % C) break;
        mg_snap_take(s, t, &now);
        if (snap_push(m, &now)) goto oom;
        int rc = head_ready(m);
        if (rc < 0) goto oom;
        if (rc) jump(m, &now);
        break;
    case MG_SMP_REWARM:
        if ((m->done - m->rw[m->nrw].a.done) % C && m->done < m->seg_end) break;
        mg_snap_take(s, t, &now);
        if (m->done < m->seg_end) {        /* a wave of it */
            m->rw_wave = now;
            break;
        }
        m->rw_last_t[m->nrw] = now.v[MG_SV_T] - m->rw_wave.v[MG_SV_T];
        m->rw_last_w[m->nrw] = mg_snap_work(&now) - mg_snap_work(&m->rw_wave);
        m->rw[m->nrw++].b = now;
        if (m->extra > 0) {
            m->state = MG_SMP_MEASURE;
            m->win[m->nwin].a = m->prev = now;
            m->seg_end = m->done + m->win_extra * C;
        } else {
            m->state = MG_SMP_TAIL;
        }
        break;
    case MG_SMP_MEASURE:
        if ((m->done - m->win[m->nwin].a.done) % C) break;
        mg_snap_take(s, t, &now);
        if (mg_sample_push_rate(m, &m->prev, &now)) goto oom;
        m->prev = now;
        if (m->done < m->seg_end) break;
        m->win[m->nwin++].b = now;
        m->extra--;
        /* windows disagreeing more than the target: measure one more */
        if (m->extra == 0 && m->nwin + 1 < MG_SAMPLE_MAX_WIN && m->mode <= 0 &&
            mg_sample_between(m) > TARGET_ERROR)
            m->extra = 1;
        jump(m, &now);
        break;
    default:
        break;
    }
    return 0;
oom:
    mg_diag_error(s->d, "%s: out of memory sampling", s->hdr->kernel);
    return -1;
}

int mg_sample_fetch(mg_sim *s)
{
    mg_sampler *m = s->smp;
    if (m->skip) {
        if (s->src->seek_wg(s->src->self, m->next + m->skip, s->d)) return -1;
        m->next += m->skip;
        m->skip = 0;
    }
    fetched(m, m->next++);
    return 0;
}
