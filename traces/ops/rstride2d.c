/*
 * rstride2d.c - tmmodel's 2D random-stride pointer chase (tmmodel 3.1,
 * Fig 2 steps I-II): one work item walks a W x H image of 1-channel
 * CL_SIGNED_INT32 texels; each step moves by (dx, dy), dx and dy drawn
 * independently from a multinomial distribution over the candidate strides
 * `strides` (tmmodel: 1,2,3,4 with probabilities like 0.2,0.3,0.4,0.1).
 *
 * The distribution and the draws come from `seed` (splitmix64): the
 * probabilities are p_i = u_i / sum(u), u_i uniform in (0, 1], so each
 * seed is another distribution, as tmmodel runs each benchmark with a new
 * one.  The walk starts at (0, 0); positions wrap around the image:
 * next = ((x + dx) % W, (y + dy) % H).  The texel at a position holds the
 * packed coordinates x | y << 16 of the next one, so the kernel's addresses
 * are data-dependent:
 *
 *   c = 0;  for (i = 0; i < iters; i++) c = read_imagei(P, (c & 0xffff, c >> 16)).x;
 *   Out[0] = c;
 *
 * A position visited twice keeps the successor drawn at its first visit
 * (the texel holds one value), so from there on the walk repeats a cycle:
 * walk() below produces exactly the positions the kernel reads, for the
 * init hook (which writes the chain) and for the trace alike.  Texels off
 * the walk hold 0.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>
#include <stdlib.h>

enum { SITE_ADDR = 1, SITE_CHASE, SITE_OUT };
enum { TP, TOUT };

#define SIDE_MAX 16384

static const mg_key keys[] = {
    MG_KEY_INT("W", W, 1, SIDE_MAX, "256", "image width in texels"),
    MG_KEY_INT("H", H, 1, SIDE_MAX, "256", "image height in texels"),
    MG_KEY_INTS("strides", MG_K_LIST, nstrides, 1, 4096, "1,2,3,4",
                "candidate strides in texels, drawn for x and for y (up to 8)"),
    MG_KEY_INT("iters", iters, 1, (int64_t)1 << 22, "256", "dependent loads"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = s->wg[1] = s->wg[2] = 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    for (int64_t i = 0; i < s->nstrides; i++)
        for (int64_t j = 0; j < i; j++)
            if (s->strides[i] == s->strides[j]) {
                mg_diag_error(d, "%s: rstride2d: stride %lld is listed twice: the "
                              "distribution is over distinct strides", where,
                              (long long)s->strides[i]);
                return -1;
            }
    return 0;
}

/* ---- the walk -------------------------------------------------------------- */

static uint64_t mix(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double unit(uint64_t *st) { return (double)(mix(st) >> 11) / 9007199254740992.0; }

/* Draw one stride from the cumulative distribution cum[0..n-1]. */
static int64_t draw(const mg_schedule *s, const double *cum, uint64_t *st)
{
    double u = unit(st);
    for (int64_t i = 0; i < s->nstrides - 1; i++)
        if (u < cum[i]) return s->strides[i];
    return s->strides[s->nstrides - 1];
}

/* The positions the kernel reads: pos[0..steps], packed x | y << 16
 * (pos[i] is read by load i; pos[steps] is the value written out).
 * Returns 0, or -1 when out of memory. */
static int walk(const mg_schedule *s, int64_t steps, int32_t *pos)
{
    uint64_t st = (uint64_t)s->seed * 0x2545f4914f6cdd1dull + 0x5a17;
    double u[MG_SCHED_MAX_STRIDES], cum[MG_SCHED_MAX_STRIDES], sum = 0, run = 0;
    for (int64_t i = 0; i < s->nstrides; i++) sum += u[i] = 1.0 - unit(&st);    /* (0, 1] */
    for (int64_t i = 0; i < s->nstrides; i++) cum[i] = (run += u[i]) / sum;
    /* first visit of each position: open addressing, key = packed position */
    size_t cap = 16;
    while (cap < 2 * (size_t)(steps + 1)) cap *= 2;
    int64_t *key = malloc(cap * sizeof *key), *at = malloc(cap * sizeof *at);
    if (!key || !at) {
        free(key);
        free(at);
        return -1;
    }
    for (size_t i = 0; i < cap; i++) key[i] = -1;
    pos[0] = 0;
    for (int64_t k = 0; k < steps; k++) {
        size_t hsh = (size_t)(((uint64_t)pos[k] * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
        while (key[hsh] != -1 && key[hsh] != pos[k]) hsh = (hsh + 1) & (cap - 1);
        if (key[hsh] == pos[k]) {                    /* seen: follow the stored successor */
            pos[k + 1] = pos[at[hsh] + 1];
            continue;
        }
        key[hsh] = pos[k];
        at[hsh] = k;
        int64_t x = pos[k] & 0xffff, y = pos[k] >> 16;
        x = (x + draw(s, cum, &st)) % s->W;
        y = (y + draw(s, cum, &st)) % s->H;
        pos[k + 1] = (int32_t)(x | y << 16);
    }
    free(key);
    free(at);
    return 0;
}

/* ---- plan, kernel, trace --------------------------------------------------- */

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "rstride2d");
    int p = mg_plan_tensor(k, "P", MG_TENSOR_IN, MG_TL_IMAGE, MG_DT_I32, 1, MG_INIT_CHAIN, 1,
                           s->H, s->W, 1);
    int o = mg_plan_tensor(k, "Out", MG_TENSOR_OUT, MG_TL_BUFFER, MG_DT_I32, 1, MG_INIT_ZERO,
                           1, 1, 1, 1);
    mg_plan_arg_tensor(k, p);
    mg_plan_arg_tensor(k, o);
    int64_t items[3] = {1, 1, 1}, wg[3] = {1, 1, 1};
    mg_plan_ndrange(k, 1, items, wg);
    k->f.regs_per_item = 3;            /* the packed position, the loop counter, the address */
    k->f.loop_iters = s->iters;
    k->f.bytes_per_iter = 4;
    k->f.bytes_per_item = 4 * s->iters;
    k->f.flops = 0;
    k->f.local_bytes = 0;
    k->f.access_width = 4;
    k->f.boundary_checks = 0;
    k->log_cap = s->iters + 1;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    int c = 0;\n");
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int i = 0; i < %lld; i++) {\n        c = ", (long long)s->iters);
    mg_cl_rd(o, k, TP, SITE_CHASE, "(c & 0xffff)", "(c >> 16)", 0);
    mg_sb_puts(o, ";\n    }\n    ");
    mg_cl_st(o, k, TOUT, SITE_OUT, "0", 1, "c", 0);
    mg_sb_puts(o, "\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    int32_t *pos = malloc(sizeof *pos * (size_t)(s->iters + 1));
    if (!pos || walk(s, s->iters, pos)) {
        free(pos);
        return;                        /* out of memory: an empty warp */
    }
    for (int64_t i = 0; i < s->iters; i++) {
        mg_emit_alu(w, NULL, SITE_ADDR, MG_ALU_INT, 1, 2, 0);   /* unpack x and y */
        mg_emit_mem(w, MG_REC_TEX_READ, SITE_CHASE, TP, 4);
        mg_emit_lane(w, 0, pos[i] & 0xffff, pos[i] >> 16);
        mg_emit_put(w);
    }
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_OUT, TOUT, 4);
    mg_emit_lane(w, 0, 0, 0);
    mg_emit_put(w);
    free(pos);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* ---- host ------------------------------------------------------------------ */

static void init(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    int32_t *pos = malloc(sizeof *pos * (size_t)(s->iters + 1));
    if (!pos || walk(s, s->iters, pos)) {
        free(pos);
        return;                        /* out of memory: the chain stays 0 */
    }
    for (int64_t i = 0; i < s->iters; i++)
        h->i[TP][(int64_t)(pos[i] >> 16) * s->W + (pos[i] & 0xffff)] = pos[i + 1];
    free(pos);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    int32_t c = 0;
    for (int64_t i = 0; i < s->iters; i++) c = h->i[TP][(int64_t)(c >> 16) * s->W + (c & 0xffff)];
    h->i[TOUT][0] = c;
}

const mg_op mg_op_rstride2d = {
    .name = "rstride2d",
    .summary = "tmmodel's 2D random-stride image pointer chase (multinomial strides)",
    .keys = keys,
    .knobs = "seed unroll warp",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .init = init,
    .reference = reference,
};
