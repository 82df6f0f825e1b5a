/*
 * sweep.c - the sweep engine: enumerate a space, prune, simulate on N
 * POSIX threads, write results in candidate order.
 *
 * The count pass enumerates the space, counting its members and shapes and
 * listing each member's raw combination (space_list.h); the later passes visit only the
 * listed members they need (mg_space_visit_members), so they assemble no
 * excluded or invalid combination, and the simulate pass only the members
 * it simulates.
 * The count pass also evaluates the rules for every member (static
 * features only).
 * The scan pass (this thread): visit every member, count what the summary needs about
 * the space, check the resumed results against the members they claim to
 * be, and count what is left to simulate.
 * The simulate pass: visit the members again; this thread hands the candidates to
 * simulate to a ring of W slots in candidate order (the sequence number
 * seq); workers take slots in seq order, simulate without the lock, and put
 * the result back; whoever completes a result writes every result that is
 * now next in seq order (a reorder buffer), so the file is in candidate
 * order for any thread count.  The producer waits while W slots are in
 * flight, which bounds memory and what an interrupt can lose.
 *
 * With a cutoff F, the simulate pass runs twice (enum sweep_phase).
 * SWEEP_KEPT_FIRST simulates only the kept candidates (those not on file)
 * and holds their results in memory, in candidate order, adding them to the
 * summary: every shape's best kept is then known, from them and from the
 * file.  SWEEP_REST_CAPPED goes over everything left in candidate order: a
 * kept candidate's slot is filled from the kept results (no simulation), a
 * pruned one is simulated with a cycle limit of F times its shape's best
 * kept (none when the shape has no kept candidate).  The bar depends only
 * on the inputs and the kept candidates' results, never on the thread
 * count or on where a resumed file stopped.  Each phase has its own memo (a
 * copied result must have met the same limit).
 *
 * A distributed sweep (shard.h) narrows the scope: with --shard I/N only
 * shard I's candidates are simulated and recorded, and cfg->dist can skip
 * candidates another process has on file, send each result elsewhere
 * instead of writing it (sink), or take every result from elsewhere
 * instead of simulating it (fetch: the writer of a merge or of an MPI
 * run's rank 0).
 *
 * Shared state is the ring, the counters, the output stream and the
 * summary, all under one mutex.  The generator, the model and cJSON keep
 * no mutable global state (their scratch buffers are _Thread_local).
 */
#include "sim/search/sweep.h"
#include "sim/search/memo.h"
#include "sim/search/screen.h"
#include "sim/search/shard.h"
#include "sim/search/space_list.h"

#include "base/hash.h"
#include "traces/gen/gen.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MASK_DONE 0x80u               /* in mask[]: resumed from the file */
#define MASK_SCREENED 0x40u           /* in mask[]: left out by --screen */

/* What a simulate pass does (sweep.c's header comment). */
typedef enum sweep_phase {
    SWEEP_ALL,              /* no cutoff: every candidate left, in one pass */
    SWEEP_KEPT_FIRST,       /* cutoff: the kept candidates only, held in ktab */
    SWEEP_REST_CAPPED,      /* cutoff: the rest, pruned ones cut at their shape's bar */
} sweep_phase;

typedef struct slot {
    char        *words;
    uint64_t     index;
    unsigned     fired;
    int          ready;
    int          counted;             /* result held from SWEEP_KEPT_FIRST: on the summary already */
    double       limit;               /* cycle limit (0: none) */
    mg_sweep_result result;
} slot;

typedef struct engine {
    const mg_sweep_cfg *cfg;
    mg_sweep_sum  *sum;
    FILE          *out;
    mg_diag       *d;
    /* the scan pass */
    unsigned char *mask;              /* per member: fired rules | MASK_DONE | MASK_SCREENED */
    unsigned char *keep;              /* --screen: per member, 1 to simulate (NULL: all) */
    mg_space_list  list;              /* the count pass's: members, their fired rules */
    uint64_t       nmask, capmask;
    mg_sweep_done  done;
    uint64_t       di;                /* next resumed result to match */
    uint64_t       si;                /* next of cfg->dist->skip to pass */
    int            failed;
    /* the simulate pass */
    pthread_mutex_t mu;
    pthread_cond_t  cv_work, cv_space;
    slot           *ring;
    uint64_t        W, next_push, next_take, next_write;
    int             prod_done, fatal;
    mg_memo        *memo;             /* identical simulations done once */
    sweep_phase     phase;
    double          cap;              /* cfg->cap_seconds's cap in cycles, lowered to
                                         cap_margin x the fastest result so far (0: none) */
    mg_sweep_result *ktab;            /* SWEEP_KEPT_FIRST's results, in candidate order */
    uint64_t        nk, capk, kcur;   /* held; room; next one SWEEP_REST_CAPPED takes */
    double          t0, t_sim, last_draw;       /* start; the simulate pass's start */
} engine;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int stopped(const engine *e) { return e->cfg->stop && *e->cfg->stop; }

/* The words simulated: the member's, with the device's warp width unless
 * the space sets warp= (as `mgsim run` does). */
static int sim_words(const engine *e, const mg_space_cand *c, char *buf, size_t len)
{
    int n;
    if (mg_schedule_is_set(&c->s, "warp"))
        n = snprintf(buf, len, "%s", c->words);
    else
        n = snprintf(buf, len, "%s warp=%lld", c->words, (long long)e->cfg->dev->warp_width);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* ---- the scan pass ----------------------------------------------------------- */

/* The count pass's visit: c's shape group counted, c listed (its raw
 * combination and the rules that fire on it) for the later passes. */
static int count_member(void *p, const mg_space_cand *c)
{
    engine *e = p;
    if (e->sum->nshape_keys) mg_sweep_group_of(e->sum, c->words, 1);
    if (mg_space_list_add(&e->list, e->cfg->rules, e->cfg->dev, c, e->d)) {
        e->failed = 1;
        return 1;
    }
    return 0;
}

/* Visit the members want() accepts (NULL: all) with fn, from the count
 * pass's list.  Returns as mg_space_visit_members (-1 diagnosed). */
static int each_member(engine *e, mg_space_want want, mg_space_visit fn)
{
    int rc = mg_space_visit_members(e->cfg->space, e->list.raw, e->list.n, want, fn, e);
    if (rc < 0) mg_diag_error(e->d, "internal: a listed member of the space does not parse");
    return rc;
}

static int mask_push(engine *e, unsigned char m)
{
    if (e->nmask == e->capmask) {
        uint64_t cap = e->capmask ? 2 * e->capmask : 4096;
        unsigned char *p = realloc(e->mask, cap);
        if (!p) return -1;
        e->mask = p;
        e->capmask = cap;
    }
    e->mask[e->nmask++] = m;
    return 0;
}

/* Does resumed result e->di describe member c? */
static int matches_done(engine *e, const mg_space_cand *c)
{
    char words[1200], canon[1024];
    mg_diag d;
    mg_diag_init(&d);
    int ok = sim_words(e, c, words, sizeof words) == 0;
    if (ok) {
        mg_schedule s;
        if (!mg_schedule_parse_line(words, NULL, &s, &d)) {
            mg_schedule_format(&s, canon, sizeof canon);
            ok = mg_fnv1a_str(canon) == e->done.hash[e->di];
        } else {
            /* a rejected result keeps the words as given */
            ok = sim_words(e, c, words, sizeof words) == 0 &&
                 mg_fnv1a_str(words) == e->done.hash[e->di];
        }
    }
    mg_diag_free(&d);
    return ok;
}

/* Check the resumed records against member c, whose rule mask is m: the
 * record listed next (e->di) must be c's when c is one the sweep records
 * (the file holds a prefix of the sweep's records, in candidate order: a
 * later record with c's missing means one was removed), must describe c,
 * and must carry the kept flag and fired rules the rules give now.
 * Returns 1 when it is c's (e->di moves on), 0 when the file has no more,
 * -1 with an error (the file is refused). */
static int check_done(engine *e, const mg_space_cand *c, unsigned m)
{
    const mg_sweep_cfg *cfg = e->cfg;
    int recorded = mg_shard_has(&e->sum->id, c->index) && (!cfg->pruned_only || !m) &&
                   (!e->keep || e->keep[c->index]);
    if (e->di >= e->done.n) return 0;
    if (e->done.index[e->di] != c->index) {
        if (!recorded) return 0;
        mg_diag_error(e->d, "%s: no record for candidate %" PRIu64 " before the one for "
                      "candidate %" PRIu64 " (a record is missing: the file was edited; "
                      "use --restart)", cfg->results, c->index, e->done.index[e->di]);
        return -1;
    }
    if (!recorded || !matches_done(e, c)) {
        mg_diag_error(e->d, "%s: the record for candidate %" PRIu64 " is not this space's "
                      "candidate %" PRIu64 " (the file is another sweep's; use --restart)",
                      cfg->results, c->index, c->index);
        return -1;
    }
    uint32_t want = cfg->rules ? m : MG_SWEEP_NO_RULES;
    if (e->done.fired[e->di] != want) {
        mg_diag_error(e->d, "%s: the record for candidate %" PRIu64 " says %s, the rules "
                      "say %s (the file was edited; use --restart)", cfg->results, c->index,
                      e->done.fired[e->di] == MG_SWEEP_NO_RULES ? "no rules"
                      : e->done.fired[e->di] ? "pruned" : "kept",
                      want == MG_SWEEP_NO_RULES ? "nothing" : m ? "pruned" : "kept");
        return -1;
    }
    e->di++;
    return 1;
}

/* Is member `index` one another process has on file (cfg->dist->skip)?
 * Members come in increasing order. */
static int skipped(engine *e, uint64_t index)
{
    const mg_sweep_dist *dist = e->cfg->dist;
    if (!dist || !dist->skip) return 0;
    while (e->si < dist->nskip && dist->skip[e->si] < index) e->si++;
    return e->si < dist->nskip && dist->skip[e->si] == index;
}

/* The scan pass's visit of member `index` (c: the member assembled, NULL
 * when nothing needs its words: no resumed results and no shape keys):
 * its rules (from the count pass's list), its counts, its resumed result
 * checked, its mask entry.  Returns 0, 1 to stop (e->failed set on
 * error). */
static int scan_member(engine *e, uint64_t index, const mg_space_cand *c)
{
    const mg_sweep_cfg *cfg = e->cfg;
    unsigned m = e->list.fired[index];
    if (stopped(e)) return 1;
    if (cfg->rules) {
        e->sum->kept += m == 0;
        mg_sweep_group *gr = c ? mg_sweep_group_of(e->sum, c->words, 0) : NULL;
        if (gr) gr->kept += m == 0;
        for (int i = 0; i < MG_RULE_COUNT; i++) e->sum->fired[i] += (m >> i) & 1u;
    }
    int done = c ? check_done(e, c, m) : 0;
    if (done < 0) {
        e->failed = 1;
        return 1;
    }
    int screened = e->keep && !e->keep[index];
    int mine = mg_shard_has(&e->sum->id, index) && !skipped(e, index);
    if (!done && mine && (!cfg->pruned_only || !m) && !screened) {
        e->sum->todo++;
    }
    if (mask_push(e, (unsigned char)(m | (done || !mine ? MASK_DONE : 0) |
                                     (screened ? MASK_SCREENED : 0)))) {
        mg_diag_error(e->d, "out of memory");
        e->failed = 1;
        return 1;
    }
    return 0;
}

static int scan_visit(void *p, const mg_space_cand *c)
{
    return scan_member(p, c->index, c);
}

/* The scan pass over every member: without words when no member needs
 * them (scan_member).  Returns 0, nonzero to stop (e->failed on error). */
static int scan_pass(engine *e)
{
    if (e->done.n || e->sum->nshape_keys) return each_member(e, NULL, scan_visit);
    int rc = 0;
    for (uint64_t i = 0; i < e->list.n && !rc; i++) rc = scan_member(e, i, NULL);
    return rc;
}

/* ---- progress --------------------------------------------------------------- */

static void draw(engine *e, int final)
{
    double t = now_s();
    if (!final && t - e->last_draw < 0.25) return;
    e->last_draw = t;
    const mg_sweep_sum *s = e->sum;
    uint64_t total = s->resumed + s->todo, doneall = s->resumed + s->ran;
    double el = t - e->t_sim, rate = el > 0 ? (double)s->ran / el : 0;
    char eta[32] = "?";
    if (rate > 0) {
        double left = (double)(s->todo - s->ran) / rate;
        snprintf(eta, sizeof eta, "%dm%02ds", (int)(left / 60), (int)left % 60);
    }
    fprintf(stderr, "\r%s%s%" PRIu64 "/%" PRIu64 " (%.1f%%)  %.1f candidates/s  ETA %s\033[K",
            e->cfg->label ? e->cfg->label : "", e->cfg->label ? ": " : "sweep: ", doneall,
            total, total ? 100.0 * (double)doneall / (double)total : 100.0, rate, eta);
    if (final) fputc('\n', stderr);
    fflush(stderr);
}

/* ---- the simulate pass ------------------------------------------------------- */

static void timed_wait(pthread_cond_t *cv, pthread_mutex_t *mu)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 100 * 1000 * 1000;
    if (t.tv_nsec >= 1000000000) { t.tv_sec++; t.tv_nsec -= 1000000000; }
    pthread_cond_timedwait(cv, mu, &t);
}

/* Move r into the kept results' table (r is left empty).  -1 on OOM. */
static int ktab_push(engine *e, mg_sweep_result *r)
{
    if (e->nk == e->capk) {
        uint64_t cap = e->capk ? 2 * e->capk : 256;
        mg_sweep_result *p = realloc(e->ktab, cap * sizeof *p);
        if (!p) {
            mg_diag_error(e->d, "out of memory");
            return -1;
        }
        e->ktab = p;
        e->capk = cap;
    }
    e->ktab[e->nk++] = *r;                           /* the strings move with it */
    r->schedule = r->reason = NULL;
    return 0;
}

/* Write every result that is next in order (SWEEP_KEPT_FIRST: hold it).
 * Called with the lock held. */
static void flush_ready(engine *e)
{
    while (e->next_write < e->next_take && e->ring[e->next_write % e->W].ready) {
        slot *s = &e->ring[e->next_write % e->W];
        if (!s->counted) {
            mg_sweep_sum_add(e->sum, &s->result);
            e->sum->ran++;
        }
        if (e->phase == SWEEP_KEPT_FIRST) {         /* held for SWEEP_REST_CAPPED, not written */
            if (ktab_push(e, &s->result)) e->fatal = 1;
        } else if (e->cfg->dist && e->cfg->dist->sink) {
            if (!e->fatal && e->cfg->dist->sink(e->cfg->dist->ctx, &s->result, e->d))
                e->fatal = 1;
        } else if (e->out && !e->fatal) {
            char *line = mg_sweep_result_line(&s->result);
            if (!line || fputs(line, e->out) < 0 || fflush(e->out)) {
                mg_diag_error(e->d, "%s: write failed", e->cfg->results);
                e->fatal = 1;
            } else {
                e->sum->written++;
            }
            free(line);
        }
        mg_sweep_result_free(&s->result);
        free(s->words);
        memset(s, 0, sizeof *s);
        e->next_write++;
        if (e->cfg->progress) draw(e, 0);
    }
    pthread_cond_broadcast(&e->cv_space);
}

/* Take slot s's result from cfg->dist->fetch into *r (the lock not held).
 * Returns 0, or 2 without a result (stopped, or e->fatal set with the
 * problem in e->d). */
static int fetch_slot(engine *e, const slot *s, mg_sweep_result *r)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = e->cfg->dist->fetch(e->cfg->dist->ctx, s->index, r, &d);
    if (rc < 0) {
        pthread_mutex_lock(&e->mu);
        if (!e->fatal) mg_diag_error(e->d, "%s", mg_diag_first(&d));
        e->fatal = 1;
        pthread_mutex_unlock(&e->mu);
    }
    mg_diag_free(&d);
    return rc ? 2 : 0;
}

/* Simulate slot s into *r (the lock not held).  With nowait, returns 1
 * without a result when s's model key is being simulated by another
 * thread (memo.h); 2 without one when a fetch gave none (fetch_slot);
 * else 0. */
static int run_slot(engine *e, const slot *s, int nowait, mg_sweep_result *r)
{
    memset(r, 0, sizeof *r);
    if (e->cfg->dist && e->cfg->dist->fetch) return fetch_slot(e, s, r);
    r->index = s->index;
    r->has_rules = e->cfg->rules != NULL;
    r->fired = s->fired;
    if (mg_sweep_simulate(e->cfg->dev, s->words, e->cfg->sample, s->limit, e->cfg->max_work,
                          e->memo, nowait, r))
        return 1;
    r->index = s->index;
    r->has_rules = e->cfg->rules != NULL;
    r->fired = s->fired;
    return 0;
}

/* Hand s's result to the writer.  Called with the lock held. */
static void finish_slot(engine *e, slot *s, const mg_sweep_result *r)
{
    if (e->cfg->cap_margin > 0 && r->ok && !r->cut) {
        double c = e->cfg->cap_margin * r->seconds * e->cfg->dev->clock_hz;
        if (e->cap <= 0 || c < e->cap) e->cap = c;
    }
    s->result = *r;
    s->ready = 1;
    flush_ready(e);
}

/* Slot s, just taken (the lock held): its limit lowered to the cap. */
static void take_cap(const engine *e, slot *s)
{
    if (e->cap > 0 && (s->limit <= 0 || e->cap < s->limit)) s->limit = e->cap;
}

/* A worker takes candidates in order.  One whose model key another thread
 * is simulating (a neighbour: the inert knobs vary fastest) is put aside
 * while the worker does the next candidate, then copied: two threads on a
 * run of twins take turns instead of one waiting for the other. */
static void *worker(void *p)
{
    engine *e = p;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (e->next_take == e->next_push && !e->prod_done && !e->fatal && !stopped(e))
            timed_wait(&e->cv_work, &e->mu);
        if (e->fatal || stopped(e) || e->next_take == e->next_push) break;
        slot *s = &e->ring[e->next_take++ % e->W];
        if (s->ready) {                             /* filled from the kept results */
            flush_ready(e);
            continue;
        }
        take_cap(e, s);
        pthread_mutex_unlock(&e->mu);
        mg_sweep_result r;
        int got = run_slot(e, s, 1, &r);
        if (got == 2) {                             /* a fetch gave no result */
            pthread_mutex_lock(&e->mu);
            break;
        }
        if (got) {
            pthread_mutex_lock(&e->mu);
            slot *t = e->next_take < e->next_push && !e->fatal && !stopped(e) &&
                              !e->ring[e->next_take % e->W].ready
                          ? &e->ring[e->next_take++ % e->W] : NULL;
            if (t) take_cap(e, t);
            pthread_mutex_unlock(&e->mu);
            if (t) {
                mg_sweep_result q;
                run_slot(e, t, 0, &q);
                pthread_mutex_lock(&e->mu);
                finish_slot(e, t, &q);
                pthread_mutex_unlock(&e->mu);
            }
            run_slot(e, s, 0, &r);
        }
        pthread_mutex_lock(&e->mu);
        finish_slot(e, s, &r);
    }
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* SWEEP_REST_CAPPED's cycle limit for a pruned candidate: cutoff x the best kept of
 * its shape (of the whole space without shape knobs, or past the groups
 * counted); 0 when there is none.  Called with the lock held (the summary
 * is final for kept results by then). */
static double bar_cycles(engine *e, const char *words)
{
    const mg_sweep_group *g = mg_sweep_group_of(e->sum, words, 0);
    const mg_sweep_best *b = g ? &g->best_kept : &e->sum->best_kept;
    if (e->sum->nshape_keys && !g) return 0;         /* a shape past the groups counted */
    if (!b->valid) return 0;
    return e->cfg->cutoff * b->seconds * e->cfg->dev->clock_hz;
}

/* Whether the simulate pass of e->phase simulates (or, SWEEP_REST_CAPPED,
 * hands on) member `index`: the test simulate_visit starts with. */
static int sim_wanted(void *p, uint64_t index)
{
    engine *e = p;
    unsigned m = e->mask[index];
    return !((m & (MASK_DONE | MASK_SCREENED)) || (e->cfg->pruned_only && m) ||
             (e->phase == SWEEP_KEPT_FIRST && m));
}

/* The simulate pass's visit of member c: unless the phase skips it, wait
 * for a free slot and fill it (SWEEP_REST_CAPPED: a kept candidate's from
 * its held result, a pruned one's with its bar).  Returns 0, 1 to stop
 * (e->fatal set on error). */
static int simulate_visit(void *p, const mg_space_cand *c)
{
    engine *e = p;
    unsigned m = e->mask[c->index];
    if (!sim_wanted(e, c->index)) return 0;
    if (e->phase != SWEEP_KEPT_FIRST && e->next_push == e->sum->todo) return 1;  /* --limit reached */
    char buf[1200];
    char *words = sim_words(e, c, buf, sizeof buf) ? NULL : strdup(buf);
    pthread_mutex_lock(&e->mu);
    while (e->next_push - e->next_write >= e->W && !e->fatal && !stopped(e))
        timed_wait(&e->cv_space, &e->mu);
    if (e->fatal || stopped(e) || !words) {
        if (!words && !e->fatal) {
            mg_diag_error(e->d, "candidate %" PRIu64 ": schedule too long or out of memory",
                          c->index);
            e->fatal = 1;
        }
        pthread_mutex_unlock(&e->mu);
        free(words);
        return 1;
    }
    slot *s = &e->ring[e->next_push++ % e->W];
    s->words = words;
    s->index = c->index;
    s->fired = m;
    s->ready = 0;
    s->counted = 0;
    s->limit = 0;
    if (e->phase == SWEEP_REST_CAPPED && !m) {  /* kept: its held result */
        if (e->kcur == e->nk || e->ktab[e->kcur].index != c->index) {
            mg_diag_error(e->d, "internal: candidate %" PRIu64 " missing from phase A",
                          c->index);
            e->fatal = 1;
        } else {
            s->result = e->ktab[e->kcur];
            memset(&e->ktab[e->kcur++], 0, sizeof s->result);
            s->ready = s->counted = 1;
        }
    } else if (e->phase == SWEEP_REST_CAPPED) {
        s->limit = bar_cycles(e, words);
    }
    pthread_cond_signal(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    return 0;
}

/* One simulate pass of e->phase on the threads asked for: workers started,
 * the candidates handed out, everything joined and released.  Returns 0,
 * -1 on error (diagnosed). */
static int run_simulate_pass(engine *e)
{
    int nt = e->cfg->threads < 1 ? 1 : e->cfg->threads;
    if ((uint64_t)nt > e->sum->todo) nt = (int)e->sum->todo;
    if (nt == 0) return 0;
    e->next_push = e->next_take = e->next_write = 0;
    e->prod_done = 0;
    e->cap = e->cfg->cap_seconds > 0 ? e->cfg->cap_seconds * e->cfg->dev->clock_hz : 0;
    e->W = 16 * (uint64_t)nt + 16;
    e->ring = calloc(e->W, sizeof *e->ring);
    e->memo = mg_memo_new();
    pthread_t *tid = calloc((size_t)nt, sizeof *tid);
    if (!e->ring || !tid || !e->memo) {
        free(tid);
        mg_memo_free(e->memo);
        e->memo = NULL;
        mg_diag_error(e->d, "out of memory");
        return -1;
    }
    pthread_mutex_init(&e->mu, NULL);
    pthread_cond_init(&e->cv_work, NULL);
    pthread_cond_init(&e->cv_space, NULL);
    int started = 0;
    for (; started < nt; started++)
        if (pthread_create(&tid[started], NULL, worker, e)) break;
    if (!started) {
        mg_diag_error(e->d, "cannot start threads");
        e->fatal = 1;
    } else if (each_member(e, sim_wanted, simulate_visit) < 0) {
        e->fatal = 1;
    }
    pthread_mutex_lock(&e->mu);
    e->prod_done = 1;
    pthread_cond_broadcast(&e->cv_work);
    pthread_mutex_unlock(&e->mu);
    for (int i = 0; i < started; i++) pthread_join(tid[i], NULL);
    /* results left behind by a stop or an error */
    for (uint64_t q = 0; q < e->W; q++) {
        mg_sweep_result_free(&e->ring[q].result);
        free(e->ring[q].words);
    }
    free(e->ring);
    free(tid);
    e->sum->copied += mg_memo_hits(e->memo);
    mg_memo_free(e->memo);
    e->memo = NULL;
    pthread_cond_destroy(&e->cv_space);
    pthread_cond_destroy(&e->cv_work);
    pthread_mutex_destroy(&e->mu);
    return e->fatal ? -1 : 0;
}

/* The simulate passes: SWEEP_KEPT_FIRST then (unless stopped)
 * SWEEP_REST_CAPPED with a cutoff, else SWEEP_ALL.  Returns 0, -1 on
 * error. */
static int simulate_phases(engine *e)
{
    if (e->sum->id.cutoff <= 0) {
        e->phase = SWEEP_ALL;
        return run_simulate_pass(e);
    }
    e->phase = SWEEP_KEPT_FIRST;
    if (run_simulate_pass(e)) return -1;
    e->phase = SWEEP_REST_CAPPED;
    return !stopped(e) && run_simulate_pass(e) ? -1 : 0;
}

int mg_sweep_run(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, mg_diag *d)
{
    engine e;
    memset(&e, 0, sizeof e);
    memset(sum, 0, sizeof *sum);
    e.cfg = cfg;
    e.sum = sum;
    e.d = d;
    e.t0 = now_s();
    if ((cfg->cap_seconds > 0 || cfg->cap_margin > 0) && cfg->results) {
        mg_diag_error(d, "internal: a capped sweep writes no results file");
        return -1;
    }
    sum->id = cfg->id;
    sum->id.pruned_only = cfg->pruned_only;
    sum->id.cutoff = cfg->rules && !cfg->pruned_only && !cfg->limit ? cfg->cutoff : 0;
    sum->id.sample = cfg->sample;
    sum->id.max_work = cfg->max_work;
    sum->id.screen_k = cfg->screen_k;
    sum->id.screen_kept = cfg->screen_k && cfg->screen_kept;
    sum->has_rules = cfg->rules != NULL;
    mg_sweep_sum_shapes(sum, cfg->space);
    int rc = -1;
    /* the space's size goes into the results header: count it first (and
     * its shapes, in enumeration order, before any result is read) */
    mg_space_stats st;
    mg_space_enumerate(cfg->space, count_member, &e, &st);
    if (e.failed) goto out;
    sum->id.size = st.size;
    sum->raw = st.raw;
    sum->excluded = st.excluded;
    sum->invalid = st.invalid;
    if (cfg->screen_k &&
        mg_screen_select(cfg, sum, &e.list, &e.keep, d))
        goto out;
    if (cfg->results) {
        e.out = mg_sweep_file_open(cfg->results, &sum->id, cfg->restart, sum, &e.done, d);
        if (!e.out) goto out;
    }
    if (scan_pass(&e) < 0 || e.failed) goto out;
    if (stopped(&e)) {
        sum->interrupted = 1;
        rc = 0;
        goto out;
    }
    if (e.di != e.done.n) {
        mg_diag_error(d, "%s: the record for candidate %" PRIu64 " matches no member of the "
                      "space (use --restart)", cfg->results, e.done.index[e.di]);
        goto out;
    }
    if (cfg->dist && cfg->dist->scanned && cfg->dist->scanned(cfg->dist->ctx, &e.done, d))
        goto out;
    sum->total = sum->resumed + sum->todo;
    sum->limit = cfg->limit;
    if (cfg->limit && sum->todo > cfg->limit) sum->todo = cfg->limit;
    e.t_sim = now_s();
    if (simulate_phases(&e)) goto out;
    sum->interrupted = stopped(&e) && sum->ran < sum->todo;
    if (cfg->progress && sum->todo) draw(&e, 1);
    rc = 0;
out:
    sum->wall_s = now_s() - e.t0;
    if (e.out && fclose(e.out) && rc == 0) {
        mg_diag_error(d, "%s: write failed", cfg->results);
        rc = -1;
    }
    mg_sweep_done_free(&e.done);
    free(e.mask);
    free(e.keep);
    mg_space_list_free(&e.list);
    for (uint64_t i = e.kcur; i < e.nk; i++) mg_sweep_result_free(&e.ktab[i]);
    free(e.ktab);
    return rc;
}
