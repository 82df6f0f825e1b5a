/*
 * sweep_mpi.c - a sweep over the ranks of an MPI job (sweep_mpi.h).
 *
 * Rank 0 runs three things: the writer (the sweep engine over the whole
 * space on one thread, each result fetched from the queue of the rank
 * whose shard holds it; it owns the results file), its own shard (the
 * engine on -j threads, results queued as lines: thread "local") and a
 * receiver (thread "recv": every other rank's result lines into its
 * queue).  Ranks 1 .. N-1 run their shard with each result sent to rank 0
 * as it is next in their order.  A rank's results come in its candidate
 * order, so each queue is read from its head.
 *
 * MPI calls: the receiver polls (MPI_Iprobe, then a short sleep) so that
 * an idle rank leaves the CPU to the simulating ones; the other ranks send
 * from their engine's workers, one at a time under the engine's lock
 * (MPI_THREAD_SERIALIZED); on rank 0 the main thread calls MPI only
 * before the receiver starts and after it is joined.
 */
#include "sim/mpi/sweep_mpi.h"

#include "sim/cli/cli.h"
#include "sim/cli/sweep_opts.h"
#include "sim/search/shard.h"
#include "base/hash.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_DONE = 1, TAG_RESULT, TAG_END, TAG_BYE };
enum { END_OK = '0', END_STOP = '1', END_FAIL = '2' };
#define NO_SCAN UINT64_MAX            /* TAG_DONE's count: rank 0 stopped before */

/* The process's place in the MPI job (the one piece of module state). */
static struct {
    int up, rank, size;
    int ended_all;                    /* every rank ended its sweep cleanly */
} job;

int mg_mpi_start(int *argc, char ***argv)
{
    if (mg_sweep_under_mpi() < 1) return 0;
    int prov = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &prov) != MPI_SUCCESS) {
        fprintf(stderr, "mgsim-mpi: MPI_Init_thread failed\n");
        return -1;
    }
    job.up = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &job.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &job.size);
    if (prov < MPI_THREAD_SERIALIZED) {
        fprintf(stderr, "mgsim-mpi: this MPI library offers no MPI_THREAD_SERIALIZED\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return 0;
}

int mg_mpi_end(int rc)
{
    if (!job.up) return rc;
    fflush(stdout);
    fflush(stderr);
    if (job.size > 1 && rc != 0 && !job.ended_all) MPI_Abort(MPI_COMM_WORLD, rc);
    MPI_Finalize();
    return rc;
}

static void nap(void)
{
    struct timespec t = {0, 500 * 1000};
    nanosleep(&t, NULL);
}

/* MPI_Recv of a message polled for (an idle rank sleeps, not spins). */
static void poll_recv(void *buf, int count, MPI_Datatype type, int src, int tag)
{
    int flag = 0;
    MPI_Status st;
    while (MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, &st), !flag) nap();
    MPI_Recv(buf, count, type, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* A rank other than 0 at its end: wait for rank 0's word (it aborts the
 * job instead when it ends in error). */
static void wait_bye(void)
{
    char c;
    poll_recv(&c, 1, MPI_CHAR, 0, TAG_BYE);
    job.ended_all = 1;
}

/* ---- rank 0: the queues ------------------------------------------------- */

typedef struct qline {
    struct qline *next;
    char         *line;
} qline;

typedef struct rank_q {
    qline *head, *tail;
    int    ended;                     /* END_* once the rank's sweep ended, else 0 */
    char   msg[600];
} rank_q;

typedef struct hub {
    const mg_sweep_cfg *cfg;
    pthread_mutex_t mu;
    pthread_cond_t  cv;
    rank_q         *q;                /* by rank */
    int             nended, quit, scanned;
    uint64_t       *skip, nskip;
    pthread_t       t_local, t_recv;
    int             started;          /* the threads are running */
} hub;

/* Queue a line (owned) from rank r, or mark r ended (line NULL). */
static void hub_put(hub *h, int r, char *line, int ended, const char *msg)
{
    qline *n = line ? malloc(sizeof *n) : NULL;
    pthread_mutex_lock(&h->mu);
    if (line && n) {
        n->next = NULL;
        n->line = line;
        if (h->q[r].tail) h->q[r].tail->next = n;
        else h->q[r].head = n;
        h->q[r].tail = n;
    } else if (line) {                /* no memory: the rank's stream is broken */
        free(line);
        ended = END_FAIL;
        msg = "out of memory";
    }
    if (ended && !h->q[r].ended) {
        h->q[r].ended = ended;
        snprintf(h->q[r].msg, sizeof h->q[r].msg, "%s", msg ? msg : "");
        h->nended++;
    }
    pthread_cond_broadcast(&h->cv);
    pthread_mutex_unlock(&h->mu);
}

/* The next line of rank r, waiting for it: the line (owned), or NULL with
 * *why END_* (the rank ended without it) or 0 (stopped). */
static char *hub_take(hub *h, int r, int *why)
{
    char *line = NULL;
    *why = 0;
    pthread_mutex_lock(&h->mu);
    while (!h->q[r].head && !h->q[r].ended && !*h->cfg->stop) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_nsec += 100 * 1000 * 1000;
        if (t.tv_nsec >= 1000000000) { t.tv_sec++; t.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&h->cv, &h->mu, &t);
    }
    qline *n = h->q[r].head;
    if (n) {
        h->q[r].head = n->next;
        if (!n->next) h->q[r].tail = NULL;
        line = n->line;
        free(n);
    } else {
        *why = *h->cfg->stop ? 0 : h->q[r].ended;
    }
    pthread_mutex_unlock(&h->mu);
    return line;
}

/* mg_sweep_dist.fetch of the writer: the result of `index` from the queue
 * of the rank that holds it. */
static int hub_fetch(void *ctx, uint64_t index, mg_sweep_result *r, mg_diag *d)
{
    hub *h = ctx;
    int k = (int)mg_shard_of(index, (uint32_t)job.size), why;
    char *line = hub_take(h, k, &why);
    if (!line) {
        if (why == END_FAIL) mg_diag_error(d, "rank %d: %s", k, h->q[k].msg);
        else if (why == END_OK)
            mg_diag_error(d, "rank %d ended without the result of candidate %llu", k,
                          (unsigned long long)index);
        return why == END_FAIL || why == END_OK ? -1 : 1;
    }
    char err[200];
    int rc = mg_sweep_result_parse(line, r, err, sizeof err);
    if (rc) mg_diag_error(d, "rank %d sent a bad result line (%s)", k, err);
    else if (r->index != index) {
        mg_diag_error(d, "rank %d sent candidate %llu where %llu was next", k,
                      (unsigned long long)r->index, (unsigned long long)index);
        mg_sweep_result_free(r);
        rc = -1;
    }
    free(line);
    return rc ? -1 : 0;
}

/* ---- rank 0: its own shard and the receiver ------------------------------ */

static int local_sink(void *ctx, const mg_sweep_result *r, mg_diag *d)
{
    char *line = mg_sweep_result_line(r);
    if (!line) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    hub_put(ctx, 0, line, 0, NULL);
    return 0;
}

/* Thread "local": shard 0 of the sweep, on the threads asked for. */
static void *local_main(void *p)
{
    hub *h = p;
    mg_sweep_dist dist = {.skip = h->skip, .nskip = h->nskip, .sink = local_sink, .ctx = h};
    mg_sweep_cfg c = *h->cfg;
    c.results = NULL;
    c.progress = 0;
    c.id.shard_i = 0;
    c.id.shard_n = (uint32_t)job.size;
    c.dist = &dist;
    mg_sweep_sum *sum = calloc(1, sizeof *sum);
    mg_diag d;
    mg_diag_init(&d);
    int rc = sum ? mg_sweep_run(&c, sum, &d) : -1;
    hub_put(h, 0, NULL, rc ? END_FAIL : sum->interrupted ? END_STOP : END_OK,
            sum ? mg_diag_first(&d) : "out of memory");
    mg_diag_free(&d);
    free(sum);
    return NULL;
}

/* Thread "recv": every other rank's lines and ends, until all ended or
 * the writer is done. */
static void *recv_main(void *p)
{
    hub *h = p;
    for (;;) {
        pthread_mutex_lock(&h->mu);
        int done = h->quit || h->nended == job.size;
        pthread_mutex_unlock(&h->mu);
        if (done) break;
        int flag = 0, len = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag) { nap(); continue; }
        MPI_Get_count(&st, MPI_CHAR, &len);
        char *buf = malloc((size_t)len + 1);
        if (!buf) {
            hub_put(h, st.MPI_SOURCE, NULL, END_FAIL, "rank 0: out of memory");
            break;
        }
        MPI_Recv(buf, len, MPI_CHAR, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        buf[len] = 0;
        if (st.MPI_TAG == TAG_RESULT) {
            hub_put(h, st.MPI_SOURCE, buf, 0, NULL);
            continue;
        }
        if (st.MPI_TAG == TAG_END) hub_put(h, st.MPI_SOURCE, NULL, len ? buf[0] : END_FAIL,
                                           len ? buf + 1 : "");
        free(buf);
    }
    return NULL;
}

/* mg_sweep_dist.scanned of the writer: send every rank the candidates on
 * file, then start the local shard and the receiver. */
static int hub_scanned(void *ctx, const mg_sweep_done *done, mg_diag *d)
{
    hub *h = ctx;
    h->nskip = done->n;
    h->skip = malloc((done->n ? done->n : 1) * sizeof *h->skip);
    if (!h->skip) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    if (done->n) memcpy(h->skip, done->index, done->n * sizeof *h->skip);
    for (int r = 1; r < job.size; r++) {
        MPI_Send(&h->nskip, 1, MPI_UINT64_T, r, TAG_DONE, MPI_COMM_WORLD);
        if (h->nskip) MPI_Send(h->skip, (int)h->nskip, MPI_UINT64_T, r, TAG_DONE,
                               MPI_COMM_WORLD);
    }
    h->scanned = 1;
    if (pthread_create(&h->t_local, NULL, local_main, h)) {
        mg_diag_error(d, "cannot start threads");
        return -1;
    }
    if (pthread_create(&h->t_recv, NULL, recv_main, h)) {
        *h->cfg->stop = 1;
        pthread_join(h->t_local, NULL);
        mg_diag_error(d, "cannot start threads");
        return -1;
    }
    h->started = 1;
    return 0;
}

/* ---- the ranks' runs ------------------------------------------------------ */

/* Rank 0: the writer on the main thread; the end of the job.  As
 * mg_sweep_run. */
static int run_root(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, mg_diag *d)
{
    hub h;
    memset(&h, 0, sizeof h);
    h.cfg = cfg;
    h.q = calloc((size_t)job.size, sizeof *h.q);
    if (!h.q) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    pthread_mutex_init(&h.mu, NULL);
    pthread_cond_init(&h.cv, NULL);
    mg_sweep_dist dist = {.fetch = hub_fetch, .scanned = hub_scanned, .ctx = &h};
    mg_sweep_cfg c = *cfg;
    c.threads = 1;
    c.dist = &dist;
    int rc = mg_sweep_run(&c, sum, d);
    uint64_t none = NO_SCAN;
    if (!h.scanned)
        for (int r = 1; r < job.size; r++)
            MPI_Send(&none, 1, MPI_UINT64_T, r, TAG_DONE, MPI_COMM_WORLD);
    int clean = !rc && !sum->interrupted;
    if (h.started) {
        if (!clean) {                 /* stop the local shard and the receiver */
            *cfg->stop = 1;
            pthread_mutex_lock(&h.mu);
            h.quit = 1;
            pthread_mutex_unlock(&h.mu);
        }
        pthread_join(h.t_local, NULL);
        pthread_join(h.t_recv, NULL);
    }
    if (clean) {
        char bye = 1;
        for (int r = 1; r < job.size; r++) MPI_Send(&bye, 1, MPI_CHAR, r, TAG_BYE,
                                                   MPI_COMM_WORLD);
        job.ended_all = 1;
    }
    for (int r = 0; r < job.size; r++)
        for (qline *n = h.q[r].head, *next; n; n = next) {
            next = n->next;
            free(n->line);
            free(n);
        }
    free(h.q);
    free(h.skip);
    pthread_cond_destroy(&h.cv);
    pthread_mutex_destroy(&h.mu);
    return rc;
}

static int rank_sink(void *ctx, const mg_sweep_result *r, mg_diag *d)
{
    (void)ctx;
    char *line = mg_sweep_result_line(r);
    if (!line) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    MPI_Send(line, (int)strlen(line), MPI_CHAR, 0, TAG_RESULT, MPI_COMM_WORLD);
    free(line);
    return 0;
}

/* Rank 1 .. N-1: its shard, results to rank 0, then its end.  As
 * mg_sweep_run, its problems sent to rank 0 (d left empty). */
static int run_rank(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, mg_diag *d)
{
    uint64_t n;
    poll_recv(&n, 1, MPI_UINT64_T, 0, TAG_DONE);
    if (n == NO_SCAN) {                /* rank 0 stopped: it ends the job */
        wait_bye();
        return -1;
    }
    uint64_t *skip = malloc((n ? n : 1) * sizeof *skip);
    if (!skip) MPI_Abort(MPI_COMM_WORLD, 2);
    if (n) poll_recv(skip, (int)n, MPI_UINT64_T, 0, TAG_DONE);
    mg_sweep_dist dist = {.skip = skip, .nskip = n, .sink = rank_sink};
    mg_sweep_cfg c = *cfg;
    c.results = NULL;
    c.progress = 0;
    c.id.shard_i = (uint32_t)job.rank;
    c.id.shard_n = (uint32_t)job.size;
    c.dist = &dist;
    int rc = mg_sweep_run(&c, sum, d);
    char end[600];
    snprintf(end, sizeof end, "%c%s", rc ? END_FAIL : sum->interrupted ? END_STOP : END_OK,
             mg_diag_first(d));
    MPI_Send(end, (int)strlen(end), MPI_CHAR, 0, TAG_END, MPI_COMM_WORLD);
    mg_diag_free(d);
    mg_diag_init(d);
    free(skip);
    wait_bye();
    return rc;
}

/* Do all ranks sweep the same inputs with the same options?  Rank 0
 * reports the first that does not (in d). */
static int same_inputs(const mg_sweep_cfg *cfg, mg_diag *d)
{
    char desc[512];
    snprintf(desc, sizeof desc, "%s %s %s %s %s %s %d %d %.17g %.17g %llu %u",
             cfg->id.config, cfg->id.config_hash, cfg->id.space, cfg->id.space_hash,
             cfg->id.rules, cfg->id.rules_hash, cfg->sample, cfg->pruned_only, cfg->cutoff,
             cfg->max_work, (unsigned long long)cfg->limit, cfg->id.shard_n);
    uint64_t mine = mg_fnv1a_str(desc);
    uint64_t *all = malloc((size_t)job.size * sizeof *all);
    if (!all) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    int bad = 0;
    for (int r = 1; r < job.size && !bad; r++)
        if (all[r] != all[0]) {
            bad = 1;
            mg_diag_error(d, "rank %d has other inputs than rank 0 (its config, space or "
                          "rules file, or its options, differ: every rank must read the "
                          "same ones)", r);
        }
    free(all);
    return bad ? -1 : 0;
}

/* mg_sweep_runner.run over the job. */
static int mpi_run(const mg_sweep_cfg *cfg, mg_sweep_sum *sum, int *mute, mg_diag *d)
{
    *mute = job.rank != 0;
    int bad = same_inputs(cfg, d);
    if (!bad && (cfg->cutoff > 0 || cfg->limit || cfg->id.shard_n)) {
        mg_diag_error(d, "under mpirun, --cutoff, --limit and --shard do not apply (the ranks "
                      "split the sweep themselves)");
        bad = 1;
    }
    if (bad) {
        if (job.rank) {
            mg_diag_free(d);
            mg_diag_init(d);
            wait_bye();               /* rank 0 reports and aborts */
        }
        return -1;
    }
    return job.rank ? run_rank(cfg, sum, d) : run_root(cfg, sum, d);
}

int mg_mpi_cmd_sweep(int argc, char **argv)
{
    static const mg_sweep_runner runner = {.run = mpi_run};
    return mg_sweep_command(argc, argv, job.up && job.size > 1 ? &runner : NULL);
}
