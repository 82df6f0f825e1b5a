/*
 * gen.c - the generator's entry points (gen.h): prepare, trace, host data.
 */
#include "traces/gen/gen.h"
#include "traces/gen/clemit.h"
#include "traces/gen/op.h"
#include "traces/gen/strbuf.h"
#include "traces/trace_internal.h"

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

/* OpenCL's sizes are 32-bit: each of the launch's global and local sizes
 * must be 1..2^32-1 before the trace header narrows them. */
static int check_sizes(const mg_gen *g, mg_diag *d)
{
    const mg_kernel *k = &g->k;
    for (int i = 0; i < 3; i++) {
        if (k->global[i] >= 1 && k->global[i] <= UINT32_MAX && k->local[i] >= 1 &&
            k->local[i] <= UINT32_MAX)
            continue;
        mg_diag_error(d, "%s: global size %lld x %lld x %lld, work group %lld x %lld x %lld: "
                      "each must be 1..%u (OpenCL's sizes are 32-bit)", g->s.op->name,
                      (long long)k->global[0], (long long)k->global[1],
                      (long long)k->global[2], (long long)k->local[0], (long long)k->local[1],
                      (long long)k->local[2], UINT32_MAX);
        return -1;
    }
    uint64_t items = 1, most = (uint64_t)MG_TRACE_MAX_WARPS * (k->warp ? k->warp : 1);
    for (int i = 0; i < 3; i++) {
        items *= (uint64_t)k->local[i];     /* <= 2^17 x 2^32: no overflow */
        if (items > most) {
            mg_diag_error(d, "%s: work group %lld x %lld x %lld is more than %u warps of %u "
                          "lanes (the trace format's limit)", g->s.op->name,
                          (long long)k->local[0], (long long)k->local[1],
                          (long long)k->local[2], MG_TRACE_MAX_WARPS, k->warp);
            return -1;
        }
    }
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        int64_t w = t->layout == MG_TL_IMAGE ? mg_tensor_img_width(t) : 1;
        int64_t h = t->layout == MG_TL_IMAGE ? mg_tensor_img_height(t) : 1;
        if (w < 1 || h < 1 || w > MG_TRACE_MAX_IMAGE_SIDE || h > MG_TRACE_MAX_IMAGE_SIDE) {
            mg_diag_error(d, "%s: image \"%s\": size %lldx%lld out of range (1..%u each)",
                          g->s.op->name, t->name, (long long)w, (long long)h,
                          MG_TRACE_MAX_IMAGE_SIDE);
            return -1;
        }
    }
    return 0;
}

/* The launch within every limit of the trace format (and so of gen -o,
 * run and the model): 32-bit sizes, warps per work group, image sides,
 * then the whole header as a trace file's reader checks it.  Before any
 * trace is made, so an impossible launch fails at once. */
static int check_geometry(mg_gen *g, mg_diag *d)
{
    if (check_sizes(g, d)) return -1;
    mg_kernel_trace_header(&g->k, &g->hdr);
    char why[256];
    if (mg_trace_check_header(&g->hdr, why, sizeof why)) {
        mg_diag_error(d, "%s: %s", g->s.op->name, why);
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
    if (plan_checked(g, d) || check_geometry(g, d)) return -1;
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
