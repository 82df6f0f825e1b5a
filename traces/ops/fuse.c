/*
 * fuse.c - parallel fusion: 2 or 3 independent operators in one launch
 * (ParallelFusion, EMDL'21, 4.2; the ranges and their rounding in fuse.h).
 * This file: keys, check(), loading the sub-schedules, the plan, the trace
 * and the reference; the OpenCL text is fuse_cl.c.
 *
 * A sub-schedule is an operator's schedule with its words joined by ':'
 * (or blanks, in one quoted word): a=pool:H=8:W=8:C=16.  A sub-kernel runs
 * in the fused launch's work groups and warps, on the fused launch's
 * inputs, so it takes none of wg, warp and seed (set them on fuse); its
 * other keys are its own.  Fusable operators are those with a warp_body
 * (op.h): 1D launches on global ids alone (conv2d with launch=flat).
 *
 * Tensors and arguments are the sub-kernels' in order, each name suffixed
 * with its key (X_a, Y_a, A_b, B_b, scalar_b).  The trace of a warp is,
 * for each sub-kernel with lanes in it, that sub-kernel's records with only
 * those lanes active (mg_warp.only), its items' global ids shifted by its
 * offset.  The reference is each sub-kernel's own on its tensors.
 *
 * Features: flops the sum; registers, access width and log_cap the
 * sub-kernels' largest; loop and byte counts the mean over all items.
 */
#include "traces/ops/fuse.h"
#include "traces/gen/emit.h"
#include "traces/gen/plan.h"
#include "base/strsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const round_names[] = {"wave", "none", NULL};

static const mg_key keys[] = {
    MG_KEY_TEXT("a", sub[0], "eltwise", "first sub-schedule, words joined by ':' "
                "(pool:H=8:W=8:C=16)"),
    MG_KEY_TEXT("b", sub[1], "pool", "second sub-schedule"),
    MG_KEY_TEXT("c", sub[2], "", "third sub-schedule (optional; at most three: a, b, c)"),
    MG_KEY_ENUM("round", mode, "wave", round_names,
                "wave: each sub-kernel's range rounded up to the warp; none: ranges back "
                "to back, so a warp can straddle two sub-kernels"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
}

/* "eltwise, pool, ...": the operators with a warp_body. */
static void fusable_names(char *buf, size_t len)
{
    const char *names[64];
    size_t n = 0;
    for (size_t i = 0; mg_ops[i] && n < 64; i++)
        if (mg_ops[i]->warp_body) names[n++] = mg_ops[i]->name;
    mg_join_names(buf, len, names, n, ", ");
}

/* Parse sub-schedule text (words joined by ':') into sub->s and check
 * what a sub-kernel needs of it.  Returns 0 or -1 with errors in d. */
static int parse_sub(const mg_schedule *s, fuse_sub *sub, const char *text, const char *where,
                     mg_diag *d)
{
    char line[MG_SCHED_SUB_LEN];
    snprintf(line, sizeof line, "%s", text);
    for (char *c = line; *c; c++)
        if (*c == ':') *c = ' ';
    mg_diag sd;
    mg_diag_init(&sd);
    int rc = mg_schedule_parse_line(line, NULL, &sub->s, &sd);
    for (size_t i = 0; i < sd.stored; i++) {
        const char *m = sd.msg[i];
        if (!strncmp(m, "schedule: ", 10)) m += 10;
        mg_diag_error(d, "%s: fuse: %c=%s: %s", where, sub->key, text, m);
    }
    mg_diag_free(&sd);
    if (rc) return -1;
    char list[256];
    if (!sub->s.op->warp_body) {
        fusable_names(list, sizeof list);
        mg_diag_error(d, "%s: fuse: %c=%s: %s cannot be a sub-kernel (fusable: %s)", where,
                      sub->key, text, sub->s.op->name, list);
        return -1;
    }
    static const char *const own[] = {"wg", "warp", "seed"};
    for (int i = 0; i < 3; i++)
        if (mg_schedule_is_set(&sub->s, own[i])) {
            mg_diag_error(d, "%s: fuse: %c=%s: %s: a sub-kernel runs in fuse's work groups "
                          "and warps, on fuse's inputs; set %s on fuse", where, sub->key, text,
                          own[i], own[i]);
            rc = -1;
        }
    sub->s.wg[0] = sub->s.wg[1] = sub->s.wg[2] = 1;
    sub->s.warp = s->warp;
    return rc;
}

/* Plan sub (its items are its wg-1 launch's global[0]); -1 with an error
 * when the launch is not a 1D one the fused kernel can hold. */
static int plan_sub(fuse_sub *sub, const char *where, mg_diag *d)
{
    memset(&sub->k, 0, sizeof sub->k);
    sub->k.warp = (uint32_t)sub->s.warp;
    sub->s.op->plan(&sub->s, &sub->k);
    sub->items = sub->k.global[0];
    int bad = sub->k.global[1] != 1 || sub->k.global[2] != 1;
    for (int i = 0; i < sub->k.n_args; i++) bad |= sub->k.args[i].kind == MG_ARG_LOCAL;
    if (bad) {
        int flat = 0;             /* the operator has a 1D launch to offer (conv2d) */
        for (const mg_key *key = sub->s.op->keys; key->name && !flat; key++)
            flat = !strcmp(key->name, "launch");
        mg_diag_error(d, "%s: fuse: %c=%s: the launch is not 1D without local memory%s",
                      where, sub->key, sub->s.op->name, flat ? " (set launch=flat)" : "");
        return -1;
    }
    return 0;
}

/* Add sub's tensors and arguments to the fused kernel p->k, suffixed with
 * its key, and give its tensors the fused kernel's object ids.  -1 with
 * an error when the fused kernel's tables are full. */
static int add_sub_tensors(fuse_plan *p, fuse_sub *sub, const char *where, mg_diag *d)
{
    mg_kernel *k = &p->k;
    if (k->n_tensors + sub->k.n_tensors > MG_MAX_TENSORS ||
        k->n_args + sub->k.n_args > MG_MAX_ARGS) {
        mg_diag_error(d, "%s: fuse: the sub-kernels have more than %d tensors or %d arguments "
                      "in all", where, MG_MAX_TENSORS, MG_MAX_ARGS);
        return -1;
    }
    sub->t0 = k->n_tensors;
    for (int j = 0; j < sub->k.n_tensors; j++) {
        mg_tensor *t = &sub->k.t[j];
        char name[20];
        snprintf(name, sizeof name, "%.12s_%c", t->name, sub->key);
        int ti = mg_plan_tensor(k, name, t->role, t->layout, t->dtype, t->channels, t->init,
                                t->dims[0], t->dims[1], t->dims[2], t->dims[3]);
        t->obj = k->t[ti].obj;
    }
    for (int j = 0; j < sub->k.n_args; j++) {
        mg_arg a = sub->k.args[j];
        if (a.kind == MG_ARG_TENSOR) a.tensor += sub->t0;
        snprintf(a.name, sizeof a.name, "%.12s_%c", sub->k.args[j].name, sub->key);
        k->args[k->n_args++] = a;
    }
    return 0;
}

/* The sub-kernels' ranges (fuse.h) and p->end. */
static void lay_out(const mg_schedule *s, fuse_plan *p)
{
    int64_t at = 0, ws = s->warp;
    for (int i = 0; i < p->n; i++) {
        p->sub[i].off = at;
        at += s->mode == FUSE_ROUND_WAVE ? mg_ceil_div(p->sub[i].items, ws) * ws
                                         : p->sub[i].items;
    }
    p->end = at;
}

int fuse_load(const mg_schedule *s, fuse_plan *p, const char *where, mg_diag *d)
{
    memset(p, 0, sizeof *p);
    p->k.warp = (uint32_t)s->warp;
    size_t before = d->n;
    for (int i = 0; i < MG_SCHED_MAX_SUBS; i++) {
        if (!s->sub[i][0]) {
            if (i < 2) mg_diag_error(d, "%s: fuse: %c is empty: fuse takes 2 or 3 "
                                     "sub-schedules (a, b and optionally c)", where, 'a' + i);
            continue;
        }
        fuse_sub *sub = &p->sub[p->n++];
        sub->key = (char)('a' + i);
        if (parse_sub(s, sub, s->sub[i], where, d) == 0 && plan_sub(sub, where, d) == 0)
            add_sub_tensors(p, sub, where, d);
    }
    if (d->n != before) return -1;
    lay_out(s, p);
    return 0;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: fuse: the launch is 1D: wg must be X,1,1", where);
    if (s->mode == FUSE_ROUND_WAVE && s->wg[0] % s->warp && s->warp % s->wg[0])
        mg_diag_error(d, "%s: fuse: round=wave with wg=%lld and warp=%lld: a range starts on "
                      "a warp only when one of them divides the other (or use round=none)",
                      where, (long long)s->wg[0], (long long)s->warp);
    fuse_plan *p = malloc(sizeof *p);
    if (!p) {
        mg_diag_error(d, "%s: fuse: out of memory", where);
        return -1;
    }
    if (fuse_load(s, p, where, d) == 0)
        for (int i = 0; i < p->n; i++) fuse_check_cl(&p->sub[i], where, d);
    free(p);
    return d->n == before ? 0 : -1;
}

/* p for s, which check() accepted (NULL when memory runs out). */
static fuse_plan *load_checked(const mg_schedule *s)
{
    fuse_plan *p = malloc(sizeof *p);
    mg_diag d;
    mg_diag_init(&d);
    if (p && fuse_load(s, p, "fuse", &d)) {
        free(p);
        p = NULL;
    }
    mg_diag_free(&d);
    return p;
}

/* The fused features: flops summed; registers, access width and log_cap
 * the largest (every item must fit them); the loop and byte counts per
 * item the mean over the items of every sub-kernel. */
static void features(const fuse_plan *p, mg_kernel *k)
{
    double items = 0, iters = 0, per_iter = 0, per_item = 0;
    for (int i = 0; i < p->n; i++) {
        const mg_kernel *q = &p->sub[i].k;
        double n = (double)p->sub[i].items;
        if (q->f.regs_per_item > k->f.regs_per_item) k->f.regs_per_item = q->f.regs_per_item;
        if (q->f.access_width > k->f.access_width) k->f.access_width = q->f.access_width;
        if (q->log_cap > k->log_cap) k->log_cap = q->log_cap;
        items += n;
        iters += n * (double)q->f.loop_iters;
        per_iter += n * (double)q->f.bytes_per_iter;
        per_item += n * (double)q->f.bytes_per_item;
        k->f.flops += q->f.flops;
        k->needs_fp16 |= q->needs_fp16;
    }
    k->f.loop_iters = (int64_t)(iters / items + 0.5);
    k->f.bytes_per_iter = (int64_t)(per_iter / items + 0.5);
    k->f.bytes_per_item = (int64_t)(per_item / items + 0.5);
    k->f.boundary_checks = 1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "fuse");
    fuse_plan *p = load_checked(s);
    if (!p) return;                     /* no launch: the generator refuses it */
    k->n_tensors = p->k.n_tensors;
    memcpy(k->t, p->k.t, sizeof k->t);
    k->n_args = p->k.n_args;
    memcpy(k->args, p->k.args, sizeof k->args);
    int64_t items[3] = {p->end, 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    features(p, k);
    free(p);
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    fuse_plan *p = load_checked(s);
    if (!p) return;
    fuse_emit_cl(p, k, o);
    free(p);
}

/* One warp: each sub-kernel's body for the lanes in its range, their
 * global ids shifted to its own, lane by lane (its fast forms assume
 * global id = group x size + local id). */
static void trace_body(mg_warp *w, const void *ctx)
{
    const fuse_plan *p = ctx;
    const mg_kernel *fk = w->k;
    int lanewise = w->lanewise;
    static _Thread_local int64_t gid[MG_TRACE_MAX_LANES];
    memcpy(gid, w->gid[0], w->lanes * sizeof gid[0]);
    for (int i = 0; i < p->n; i++) {
        const fuse_sub *sub = &p->sub[i];
        uint64_t only[2] = {0, 0};
        for (uint32_t l = 0; l < w->lanes; l++) {
            if (gid[l] >= sub->off && gid[l] < sub->off + sub->items)
                only[l >> 6] |= (uint64_t)1 << (l & 63);
            w->gid[0][l] = gid[l] - sub->off;
        }
        if (!only[0] && !only[1]) continue;
        w->only[0] = only[0];
        w->only[1] = only[1];
        w->k = &sub->k;
        w->lanewise = 1;
        sub->s.op->warp_body(w, &sub->s);
    }
    memcpy(w->gid[0], gid, w->lanes * sizeof gid[0]);
    w->only[0] = w->only[1] = ~(uint64_t)0;
    w->k = fk;
    w->lanewise = lanewise;
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    fuse_plan *p = load_checked(s);
    if (!p) return;
    mg_emit_wg(k, wg, out, trace_body, p);
    free(p);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    fuse_plan *p = load_checked(s);
    if (!p) return;
    for (int i = 0; i < p->n; i++) {
        const fuse_sub *sub = &p->sub[i];
        mg_host sh;
        memset(&sh, 0, sizeof sh);
        sh.n = sub->k.n_tensors;
        for (int j = 0; j < sh.n; j++) {
            sh.f[j] = h->f[sub->t0 + j];
            sh.i[j] = h->i[sub->t0 + j];
        }
        if (sub->s.op->reference) sub->s.op->reference(&sub->s, &sub->k, &sh);
    }
    free(p);
}

const mg_op mg_op_fuse = {
    .name = "fuse",
    .summary = "parallel fusion: 2-3 independent operators in one launch (ParallelFusion)",
    .keys = keys,
    .knobs = "wg warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
};
