/*
 * nt_fuse.c - the fusion picker of `mgsim net --fuse` (nt_fuse.h): the
 * sequential groups (conv2d + its pooling as `convpool`), then the
 * parallel ones (2-3 independent units of one graph level as `fuse`),
 * each fused kernel simulated (cached by content like the layers'),
 * adopted where it beats its units.  The report is nt_fuse_report.c.
 */
#include "sim/nettune/nt_fuse.h"
#include "sim/net/nop.h"
#include "traces/gen/op.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_nt_fuse_names[] = {"", "sequential", "parallel", "both", NULL};

/* A unit of parallel fusion: a layer, or an adopted sequential group. */
typedef struct unit {
    int    n, rows[2];
    int    level;
    double seconds;               /* its time in the network (with its gap) */
    char   sub[MG_SCHED_SUB_LEN]; /* its kernel as a fuse sub-schedule */
    long   wg, warp;
} unit;

/* Work state of one picking. */
typedef struct picker {
    const mg_nt_cfg    *cfg;
    const mg_nt_result *r;
    mg_nt_fusion       *f;
    int                *level;    /* per layer */
    int                *row_of;   /* per layer: its row, -1 none */
    int                *in_seq;   /* per row: 1 in an adopted sequential group */
    unit               *units;
    int                 nunits;
} picker;

int mg_nt_depends(const mg_net *net, int a, int b)
{
    if (a == b) return 1;
    /* a walk up b's inputs, each layer visited once (paths through a
     * network's joins multiply; the layers do not) */
    char *seen = calloc((size_t)net->nlayers + 1, 1);
    int *stack = calloc((size_t)net->nlayers + 1, sizeof *stack);
    int n = 0, found = 0;
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return 1;                 /* out of memory: assume the worst (no fusion) */
    }
    stack[n++] = b;
    seen[b] = 1;
    while (n && !found) {
        const mg_net_layer *l = &net->layers[stack[--n]];
        for (int i = 0; i < l->nin && !found; i++) {
            int p = net->tensors[l->in[i]].layer;
            if (p < 0 || seen[p]) continue;
            found = p == a;
            seen[p] = 1;
            stack[n++] = p;
        }
    }
    free(seen);
    free(stack);
    return found;
}

/* Each layer's level: 0 for one fed by network inputs only, else 1 + its
 * inputs' highest. */
static void levels(const mg_net *net, int *level)
{
    for (int i = 0; i < net->nlayers; i++) {
        int li = net->order[i], lv = 0;
        const mg_net_layer *l = &net->layers[li];
        for (int j = 0; j < l->nin; j++) {
            int p = net->tensors[l->in[j]].layer;
            if (p >= 0 && level[p] + 1 > lv) lv = level[p] + 1;
        }
        level[li] = lv;
    }
}

/* The layers that read layer li's output, and whether it is a network
 * output: *only gets the single consumer, -1 when there are 0 or 2+. */
static void consumer(const mg_net *net, int li, int *only)
{
    int n = 0;
    *only = -1;
    for (int i = 0; i < net->nlayers; i++)
        for (int j = 0; j < net->layers[i].nin; j++)
            if (net->tensors[net->layers[i].in[j]].layer == li) {
                n++;
                *only = i;
                break;
            }
    for (int o = 0; o < net->noutputs; o++)
        if (net->tensors[net->outputs[o]].layer == li) n++;
    if (n != 1) *only = -1;
}

/* The fused kernel of `words`: from the cache or simulated.  0, or -1
 * with the problem in d (interrupted, a cache that cannot be written). */
static int fused_kernel(picker *p, const char *words, mg_nt_kernel *k, int *cached, mg_diag *d)
{
    const mg_nt_cfg *cfg = p->cfg;
    if (cfg->search.stop && *cfg->search.stop) {
        mg_diag_error(d, "interrupted");
        return -1;
    }
    char key[24];
    mg_nt_cache_key(&cfg->search, "fused", words, key);
    *cached = mg_nt_cache_get(cfg->cache, key, k);
    if (*cached) return 0;
    if (cfg->progress) fprintf(stderr, "mgsim: net: fusing: %.200s\n", words);
    memset(k, 0, sizeof *k);
    mg_nt_simulate(&cfg->search, words, k);
    k->space = k->kept = 1;
    k->simulated = k->ok;
    p->f->simulated += k->simulated;
    return mg_nt_cache_put(cfg->cache, key, k, d);
}

/* A new group in f (NULL when out of memory). */
static mg_nt_group *new_group(mg_nt_fusion *f)
{
    mg_nt_group *g = realloc(f->groups, (size_t)(f->ngroups + 1) * sizeof *g);
    if (!g) return NULL;
    f->groups = g;
    g = &f->groups[f->ngroups++];
    memset(g, 0, sizeof *g);
    return g;
}

/* The convpool words of conv layer c and pool layer q (the conv's input
 * stacked like conv2d's: N x batch images along H), without wg; 0, or 1
 * when the pair does not fit the operator. */
static int convpool_words(const mg_nt_result *r, const mg_net_layer *c, const mg_net_layer *q,
                          char *out, size_t len)
{
    const mg_net *net = r->net;
    const int64_t *x = net->tensors[c->in[0]].shape;
    int act = c->act;
    if (c->depthwise || c->kernel[0] != c->kernel[1] || c->stride[0] != c->stride[1] ||
        c->pad[0] != c->pad[1] || c->dilation[0] != 1 || c->dilation[1] != 1 ||
        x[3] % 4 || c->shape[3] % 4 || c->kernel[0] > 15 || c->stride[0] > 8 ||
        c->pad[0] >= c->kernel[0])
        return 1;
    if (q->kernel[0] != q->kernel[1] || q->stride[0] != q->stride[1] || q->pad[0] ||
        q->pad[1] || q->ceil || q->kernel[0] > 8 || q->stride[0] > 8)
        return 1;
    if (act == MG_ACT_GELU || (act != MG_ACT_NONE && q->kind != MG_POOL_MAX))
        return 1;                 /* only max pooling commutes with relu, relu6 */
    int64_t H = x[0] * r->batch * x[1];
    if (H > 4096 || x[2] > 4096) return 1;
    snprintf(out, len, "convpool H=%" PRId64 " W=%" PRId64 " Cin=%" PRId64 " Cout=%" PRId64
             " K=%" PRId64 " stride=%" PRId64 " pad=%" PRId64 " pool=%" PRId64 " pstride=%"
             PRId64 " mode=%s norm=%d act=%s storage=fp16", H, x[2], x[3], c->shape[3],
             c->kernel[0], c->stride[0], c->pad[0], q->kernel[0], q->stride[0],
             mg_net_pool_names[q->kind], c->bias, mg_net_act_names[act]);
    return 0;
}

/* The work-group sizes a convpool group tries, in order, its kernel the
 * fastest; the next is not tried once the best is over twice the unfused
 * time (a large convpool takes minutes to simulate, and the work-group
 * size moves it by less than that). */
static const int cp_wg[] = {64, 128, 256};

/* Try conv row ci + pool row qi as one convpool kernel into a new group.
 * 0 (tried or not fusable), or -1 with the problem in d. */
static int try_seq(picker *p, int ci, int qi, mg_diag *d)
{
    const mg_nt_result *r = p->r;
    const mg_nt_row *rc = &r->rows[ci], *rq = &r->rows[qi];
    char base[512];
    if (convpool_words(r, &r->net->layers[rc->layer], &r->net->layers[rq->layer], base,
                       sizeof base))
        return 0;
    mg_nt_group *g = new_group(p->f);
    if (!g) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    g->n = 2;
    g->rows[0] = ci;
    g->rows[1] = qi;
    g->unfused_s = rc->seconds + rq->seconds;
    for (size_t i = 0; i < sizeof cp_wg / sizeof cp_wg[0]; i++) {
        if (g->k.ok && g->k.seconds > 2 * g->unfused_s) break;   /* no size wins that back */
        char words[600];
        mg_nt_kernel k;
        int cached;
        snprintf(words, sizeof words, "%s wg=%d", base, cp_wg[i]);
        if (fused_kernel(p, words, &k, &cached, d)) return -1;
        if (k.ok && (!g->k.ok || k.seconds < g->k.seconds)) g->k = k;
        else if (!g->k.ok && !*g->k.why) g->k = k;
    }
    if (g->k.ok) g->fused_s = g->k.seconds + r->gap_s;
    g->adopted = g->k.ok && g->fused_s < g->unfused_s;
    if (g->adopted) p->in_seq[ci] = p->in_seq[qi] = 1;
    return 0;
}

/* Every conv2d row whose only consumer is a pooling row, both simulated
 * once: a sequential group tried.  0, or -1 with the problem in d. */
static int pick_seq(picker *p, mg_diag *d)
{
    const mg_nt_result *r = p->r;
    const mg_net *net = r->net;
    for (int i = 0; i < r->nrows; i++) {
        const mg_nt_row *row = &r->rows[i];
        int q;
        if (row->kernel < 0 || row->reps != 1 || strcmp(net->layers[row->layer].op->name,
                                                        "conv2d"))
            continue;
        consumer(net, row->layer, &q);
        if (q < 0 || strcmp(net->layers[q].op->name, "pool")) continue;
        int qi = p->row_of[q];
        if (qi < 0 || r->rows[qi].kernel < 0 || r->rows[qi].reps != 1) continue;
        if (try_seq(p, i, qi, d)) return -1;
    }
    return 0;
}

/* The items of a work group of "wg=X[,Y[,Z]]" (the value at v). */
static long wg_items(const char *v)
{
    long n = 1;
    for (char *e; *v && *v != ' '; v = *e == ',' ? e + 1 : e) {
        long x = strtol(v, &e, 10);
        if (e == v) break;
        n *= x;
    }
    return n;
}

/* sched (canonical words) as a fuse sub-schedule: its words joined by
 * ':' without wg, warp and seed (fuse's own), which go to *wg (its work
 * group's items) and *warp.  A conv2d kernel becomes its launch=flat form
 * with box = its wg (the same items, each work group's a run of ids:
 * the same warps when the run is whole warps), split=1 only.  0, or 1 when its operator cannot be a sub-kernel or it does not
 * fit. */
static int sub_of(const char *sched, char *out, size_t len, long *wg, long *warp)
{
    char op[32];
    if (sscanf(sched, "%31s", op) != 1) return 1;
    const mg_op *o = mg_op_find(op);
    if (!o || !o->warp_body) return 1;
    int conv = !strcmp(op, "conv2d");
    size_t n = 0;
    *wg = 64;
    *warp = 64;
    for (const char *s = sched; *s;) {
        while (*s == ' ') s++;
        size_t w = strcspn(s, " ");
        if (!w) break;
        if (conv && !strncmp(s, "split=", 6) && strtol(s + 6, NULL, 10) != 1) return 1;
        if (!strncmp(s, "wg=", 3)) {
            *wg = wg_items(s + 3);
            if (conv) {                              /* the grid's work group: the box */
                if (n + w + 3 > len) return 1;
                n += (size_t)snprintf(out + n, len - n, "%sbox=%.*s", n ? ":" : "",
                                      (int)w - 3, s + 3);
            }
        } else if (!strncmp(s, "warp=", 5)) *warp = strtol(s + 5, NULL, 10);
        else if (strncmp(s, "seed=", 5)) {
            if (n + w + 2 > len) return 1;
            n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? ":" : "", (int)w, s);
        }
        s += w;
    }
    if (conv) {
        if (n + 13 > len) return 1;
        snprintf(out + n, len - n, ":launch=flat");
    }
    return 0;
}

/* The units of parallel fusion in execution order: adopted sequential
 * groups (when mode has sequential) and single simulated rows whose
 * kernel `fuse` can take. */
static void make_units(picker *p)
{
    const mg_nt_result *r = p->r;
    mg_nt_fusion *f = p->f;
    for (int i = 0; i < r->nrows; i++) {
        unit *u = &p->units[p->nunits];
        memset(u, 0, sizeof *u);
        const mg_nt_group *seq = NULL;
        for (int g = 0; g < f->ngroups && !seq; g++)
            if (!f->groups[g].parallel && f->groups[g].adopted && f->groups[g].rows[0] == i)
                seq = &f->groups[g];
        if (seq) {
            u->n = 2;
            u->rows[0] = seq->rows[0];
            u->rows[1] = seq->rows[1];
            u->seconds = seq->fused_s;
            if (sub_of(seq->k.schedule, u->sub, sizeof u->sub, &u->wg, &u->warp)) continue;
        } else {
            const mg_nt_row *row = &r->rows[i];
            if (p->in_seq[i] || row->kernel < 0 || row->reps != 1) continue;
            u->n = 1;
            u->rows[0] = i;
            u->seconds = row->seconds;
            if (sub_of(r->kernels[row->kernel].schedule, u->sub, sizeof u->sub, &u->wg,
                       &u->warp))
                continue;
        }
        u->level = p->level[r->rows[u->rows[0]].layer];
        p->nunits++;
    }
}

/* 1 when no layer of unit a depends on one of unit b or back. */
static int independent(const picker *p, const unit *a, const unit *b)
{
    const mg_nt_result *r = p->r;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            int la = r->rows[a->rows[i]].layer, lb = r->rows[b->rows[j]].layer;
            if (mg_nt_depends(r->net, la, lb) || mg_nt_depends(r->net, lb, la)) return 0;
        }
    return 1;
}

/* Try units us[0 .. n) as one fuse launch into a new group (*out).  0, or
 * -1 with the problem in d. */
static int try_par(picker *p, const unit *const *us, int n, mg_nt_group **out, mg_diag *d)
{
    static const char keys[] = "abc";
    char words[1024];
    long wg = 0;
    size_t len = 0;
    mg_nt_group *g = new_group(p->f);
    if (!g) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    g->parallel = 1;
    g->units = n;
    len += (size_t)snprintf(words, sizeof words, "fuse");
    for (int i = 0; i < n; i++) {
        len += (size_t)snprintf(words + len, sizeof words - len, " %c=%s", keys[i], us[i]->sub);
        if (us[i]->wg > wg) wg = us[i]->wg;
        g->unfused_s += us[i]->seconds;
        for (int j = 0; j < us[i]->n; j++) {
            g->unit_of[g->n] = i;
            g->rows[g->n++] = us[i]->rows[j];
        }
    }
    long ws = us[0]->warp;        /* round=wave needs whole warps per group */
    if (ws > 0) wg = (wg + ws - 1) / ws * ws;
    snprintf(words + len, sizeof words - len, " round=wave wg=%ld warp=%ld", wg, ws);
    int cached;
    if (fused_kernel(p, words, &g->k, &cached, d)) return -1;
    g->cached = cached;
    if (g->k.ok) g->fused_s = g->k.seconds + p->r->gap_s;
    *out = g;
    return 0;
}

/* The gain of a tried group in seconds (negative: a loss; none without
 * a kernel). */
static double saved(const mg_nt_group *g)
{
    return g->k.ok ? g->unfused_s - g->fused_s : -1e30;
}

/* Units i, i+1 (and i+2) of one level, pairwise independent: the triple
 * and the pair tried, the one that saves most adopted when it saves.
 * *used: how many units the adopted group took (1: none).  0, or -1. */
static int pick_at(picker *p, int i, int *used, mg_diag *d)
{
    const unit *u = p->units;
    mg_nt_group *best = NULL, *g;
    int took = 1;
    *used = 1;
    for (int n = 3; n >= 2; n--) {
        if (i + n > p->nunits || u[i + n - 1].level != u[i].level) continue;
        const unit *us[3] = {&u[i], &u[i + 1], n == 3 ? &u[i + 2] : NULL};
        int ok = independent(p, us[0], us[1]);
        if (n == 3) ok = ok && independent(p, us[0], us[2]) && independent(p, us[1], us[2]);
        if (!ok) continue;
        int bi = best ? (int)(best - p->f->groups) : -1;
        if (try_par(p, us, n, &g, d)) return -1;
        best = bi >= 0 ? &p->f->groups[bi] : NULL;   /* the array may have moved */
        if (saved(g) > 0 && (!best || saved(g) > saved(best))) {
            best = g;
            took = n;
        }
    }
    if (best) {
        best->adopted = 1;
        *used = took;
    }
    return 0;
}

/* Units sorted by level, then execution order (a stable insertion sort:
 * networks are small). */
static void sort_units(picker *p)
{
    for (int i = 1; i < p->nunits; i++) {
        unit t = p->units[i];
        int j = i - 1;
        while (j >= 0 && p->units[j].level > t.level) {
            p->units[j + 1] = p->units[j];
            j--;
        }
        p->units[j + 1] = t;
    }
}

/* Parallel groups over the units, level by level in execution order. */
static int pick_par(picker *p, mg_diag *d)
{
    make_units(p);
    sort_units(p);
    for (int i = 0; i < p->nunits;) {
        int used;
        if (pick_at(p, i, &used, d)) return -1;
        i += used;
    }
    return 0;
}

int mg_nt_fuse(const mg_nt_cfg *cfg, const mg_nt_result *r, int mode, mg_nt_fusion *f,
               mg_diag *d)
{
    memset(f, 0, sizeof *f);
    f->mode = mode;
    int n = r->net->nlayers;
    picker p = {.cfg = cfg, .r = r, .f = f};
    p.level = calloc((size_t)n + 1, sizeof *p.level);
    p.row_of = calloc((size_t)n + 1, sizeof *p.row_of);
    p.in_seq = calloc((size_t)r->nrows + 1, sizeof *p.in_seq);
    p.units = calloc((size_t)r->nrows + 1, sizeof *p.units);
    int rc = -1;
    if (!p.level || !p.row_of || !p.in_seq || !p.units) {
        mg_diag_error(d, "out of memory");
    } else {
        levels(r->net, p.level);
        for (int i = 0; i < n; i++) p.row_of[i] = -1;
        for (int i = 0; i < r->nrows; i++) p.row_of[r->rows[i].layer] = i;
        rc = (mode & MG_NT_FUSE_SEQ) ? pick_seq(&p, d) : 0;
        if (!rc && (mode & MG_NT_FUSE_PAR)) rc = pick_par(&p, d);
    }
    f->latency_s = r->total_s;
    for (int g = 0; g < f->ngroups; g++)
        if (f->groups[g].adopted) f->latency_s -= saved(&f->groups[g]);
    free(p.level);
    free(p.row_of);
    free(p.in_seq);
    free(p.units);
    return rc;
}

void mg_nt_fusion_free(mg_nt_fusion *f)
{
    free(f->groups);
    memset(f, 0, sizeof *f);
}
