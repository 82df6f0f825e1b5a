/*
 * gen.c - the generator's entry points (gen.h): prepare, trace, host data.
 */
#include "traces/gen/gen.h"
#include "traces/gen/clemit.h"
#include "traces/gen/op.h"
#include "traces/gen/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Run the operator's plan on g->k (warp set); 0, or -1 with an error when
 * the operator has no plan or the plan overflows the kernel's tables. */
static int plan_checked(mg_gen *g, mg_diag *d)
{
    const mg_op *op = g->s.op;
    if (!op->plan) {
        mg_diag_error(d, "%s: internal: the operator has no plan", op->name);
        return -1;
    }
    op->plan(&g->s, &g->k);
    if (g->k.n_tensors > MG_MAX_TENSORS || g->k.n_args > MG_MAX_ARGS) {
        mg_diag_error(d, "%s: internal: too many tensors or arguments", op->name);
        return -1;
    }
    return 0;
}

int mg_gen_prepare(mg_gen *g, const mg_schedule *s, mg_diag *d)
{
    memset(g, 0, sizeof *g);
    g->s = *s;
    mg_kernel *k = &g->k;
    k->warp = (uint32_t)s->warp;
    if (plan_checked(g, d)) return -1;
    mg_kernel_trace_header(k, &g->hdr);
    mg_sb sb;
    mg_sb_init(&sb);
    mg_cl_preamble(k, &sb);
    if (s->op->emit_cl) s->op->emit_cl(&g->s, k, &sb);
    g->source = mg_sb_take(&sb, &g->source_len);
    if (!g->source) {
        mg_diag_error(d, "%s: out of memory emitting the kernel", s->op->name);
        return -1;
    }
    return 0;
}

int mg_gen_plan(mg_gen *g, const mg_schedule *s, mg_diag *d)
{
    memset(g, 0, sizeof *g);
    g->s = *s;
    g->k.warp = (uint32_t)s->warp;
    return plan_checked(g, d);
}

void mg_gen_free(mg_gen *g)
{
    free(g->source);
    g->source = NULL;
}

uint64_t mg_gen_num_wgs(const mg_gen *g)
{
    const mg_kernel *k = &g->k;
    return (uint64_t)(k->global[0] / k->local[0]) * (uint64_t)(k->global[1] / k->local[1]) *
           (uint64_t)(k->global[2] / k->local[2]);
}

int mg_gen_trace_wg(const mg_gen *g, uint64_t idx, mg_trace_wg *out)
{
    const mg_kernel *k = &g->k;
    uint64_t nx = (uint64_t)(k->global[0] / k->local[0]);
    uint64_t ny = (uint64_t)(k->global[1] / k->local[1]);
    uint32_t wg[3] = {(uint32_t)(idx % nx), (uint32_t)((idx / nx) % ny),
                      (uint32_t)(idx / (nx * ny))};
    if (g->s.op->trace_wg) g->s.op->trace_wg(&g->s, k, wg, out);
    return 0;
}

static int stream_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    mg_gen_stream *st = self;
    (void)d;
    if (st->next >= mg_gen_num_wgs(st->g)) return 0;
    if (mg_gen_trace_wg(st->g, st->next++, wg)) return -1;
    return 1;
}

static int stream_seek(void *self, uint64_t idx, mg_diag *d)
{
    mg_gen_stream *st = self;
    (void)d;
    uint64_t n = mg_gen_num_wgs(st->g);
    st->next = idx < n ? idx : n;
    return 0;
}

static int stream_at(void *self, uint64_t idx, mg_trace_wg *wg, mg_diag *d)
{
    mg_gen_stream *st = self;
    if (idx >= mg_gen_num_wgs(st->g)) {
        mg_diag_error(d, "%s: work group %llu out of range", st->g->hdr.kernel,
                      (unsigned long long)idx);
        return -1;
    }
    return mg_gen_trace_wg(st->g, idx, wg);
}

mg_trace_source mg_gen_source(mg_gen_stream *st, const mg_gen *g)
{
    st->g = g;
    st->next = 0;
    mg_trace_source src = {&g->hdr, stream_next, st, stream_seek, stream_at};
    return src;
}

/* ---- host data ----------------------------------------------------------- */

/* splitmix64: a small, fast, well-mixed deterministic generator. */
static uint64_t mix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int mg_host_init(const mg_gen *g, mg_host *h)
{
    const mg_kernel *k = &g->k;
    memset(h, 0, sizeof *h);
    h->n = k->n_tensors;
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        size_t n = (size_t)mg_tensor_elems(t);
        if (t->dtype == MG_DT_I32) h->i[i] = calloc(n ? n : 1, sizeof(int32_t));
        else h->f[i] = calloc(n ? n : 1, sizeof(float));
        if (!h->i[i] && !h->f[i]) { mg_host_free(h); return -1; }
        if (t->role != MG_TENSOR_IN || !h->f[i]) continue;
        uint64_t st = (uint64_t)g->s.seed * 1000003u + (uint64_t)i;
        for (size_t e = 0; e < n; e++) {
            double u = (double)(mix(&st) >> 11) / 9007199254740992.0;    /* [0,1) */
            float v = t->init == MG_INIT_POSITIVE ? (float)(0.5 + u)
                      : t->init == MG_INIT_ZERO   ? 0.0f : (float)(2.0 * u - 1.0);
            h->f[i][e] = t->dtype == MG_DT_F16 ? mg_round_half(v) : v;
        }
    }
    if (g->s.op->init) g->s.op->init(&g->s, k, h);
    return 0;
}

void mg_host_reference(const mg_gen *g, mg_host *h)
{
    if (g->s.op->reference) g->s.op->reference(&g->s, &g->k, h);
    /* The device stores results in the storage precision. */
    for (int i = 0; i < g->k.n_tensors; i++) {
        const mg_tensor *t = &g->k.t[i];
        if (t->role != MG_TENSOR_OUT || t->dtype != MG_DT_F16) continue;
        int64_t n = mg_tensor_elems(t);
        for (int64_t e = 0; e < n; e++) h->f[i][e] = mg_round_half(h->f[i][e]);
    }
}

void mg_host_free(mg_host *h)
{
    for (int i = 0; i < MG_MAX_TENSORS; i++) {
        free(h->f[i]);
        free(h->i[i]);
    }
    memset(h, 0, sizeof *h);
}
