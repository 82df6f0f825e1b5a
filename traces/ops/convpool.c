/*
 * convpool.c - sequential fusion (THOMAS, 4.3): a layer's convolution,
 * pooling, optional per-channel normalization and activation in one
 * kernel, so the conv output never goes to memory.  NHWC, buffers (THOMAS
 * kept its fused layer on buffers, its section 4.3):
 *
 *   X [1, H, W, Cin], Wt [Cout, K, K, Cin] (conv2d's standard weights)
 *   conv   C [Hc, Wc, Cout],  Hc = (H + 2 pad - K) / stride + 1
 *   pool   P [Ho, Wo, Cout],  Ho = (Hc - pool) / pstride + 1 (no padding),
 *          max or avg over the pool x pool window
 *   norm   (norm=1) P * SB[c] + SB[Cout + c],  SB [1, 1, 2, Cout]
 *   act    none, relu max(v, 0) or relu6 min(max(v, 0), 6)
 *   Y [1, Ho, Wo, Cout]
 *
 * One work item computes one pooled output's 4 channels: item g <
 * Ho*Wo*Cout/4 takes q = g % (Cout/4), pixel p = g / (Cout/4), wo = p % Wo,
 * ho = p / Wo.  For each window position (py outer, px inner) it computes
 * the conv output at (ho pstride + py, wo pstride + px): taps ky outer, kx
 * inner, inside the input only, channels 4 at a time (a float4 of X, then
 * the 4 output channels' float4 weights, acc.sN += dot(x, w_N)); then it
 * pools (fmax or add), scales the average by 1 / pool^2, normalizes,
 * activates and stores.  Launch 1D, wg=X,1,1; items past the output are
 * masked.  The reference is the unfused chain: conv2d's reference, pool's,
 * then the normalization and activation.
 *
 * Flops, per item: 2 x 4 x 4 per tap inside and channel step (the dots),
 * 4 per window position (max or add), 4 each for the average's multiply
 * and the activation, 8 for the normalization's multiply-add: what the
 * trace's ALU records sum to.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SITE_ADDR = 1, SITE_X, SITE_W0, SITE_W1, SITE_W2, SITE_W3, SITE_DOT, SITE_POOL,
       SITE_SCALE, SITE_NS, SITE_NB, SITE_NORM, SITE_ACT, SITE_STORE };
enum { CP_MAX, CP_AVG };
enum { ACT_NONE, ACT_RELU, ACT_RELU6 };

static const char *const mode_names[] = {"max", "avg", NULL};
static const char *const act_names[] = {"none", "relu", "relu6", NULL};

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 4096, "8", "input height"),
    MG_KEY_INT("W", W, 1, 4096, "8", "input width"),
    MG_KEY_INT("Cin", Cin, 4, 4096, "8", "input channels (a multiple of 4)"),
    MG_KEY_INT("Cout", Cout, 4, 4096, "8", "output channels (a multiple of 4)"),
    MG_KEY_INT("K", K, 1, 15, "3", "conv window KxK"),
    MG_KEY_INT("stride", stride, 1, 8, "1", "conv stride"),
    MG_KEY_INT("pad", pad, 0, 7, "1", "conv zero padding on each side"),
    MG_KEY_INT("pool", pk, 1, 8, "2", "pooling window pool x pool (no padding)"),
    MG_KEY_INT("pstride", ps, 1, 8, "2", "pooling stride"),
    MG_KEY_ENUM("mode", mode, "max", mode_names, "pooling: max or avg"),
    MG_KEY_INT("norm", norm, 0, 1, "0", "1: per-channel scale and shift after pooling"),
    MG_KEY_ENUM("act", act, "relu", act_names, "activation: none, relu or relu6"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->layout[MG_ROLE_IN] = s->layout[MG_ROLE_W] = s->layout[MG_ROLE_OUT] = MG_LAYOUT_BUFFER;
}

static int64_t conv_len(const mg_schedule *s, int64_t n)
{
    return (n + 2 * s->pad - s->K) / s->stride + 1;
}

static int64_t pool_len(const mg_schedule *s, int64_t n)
{
    return (conv_len(s, n) - s->pk) / s->ps + 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    if (s->Cin % 4 || s->Cout % 4)
        mg_diag_error(d, "%s: convpool: Cin=%lld and Cout=%lld must be multiples of 4 (float4 "
                      "channel steps)", where, (long long)s->Cin, (long long)s->Cout);
    if (s->pad >= s->K)
        mg_diag_error(d, "%s: convpool: pad=%lld must be smaller than K=%lld", where,
                      (long long)s->pad, (long long)s->K);
    else if (s->H + 2 * s->pad < s->K || s->W + 2 * s->pad < s->K)
        mg_diag_error(d, "%s: convpool: the %lldx%lld conv window does not fit the %lldx%lld "
                      "input", where, (long long)s->K, (long long)s->K, (long long)s->H,
                      (long long)s->W);
    else if (conv_len(s, s->H) < s->pk || conv_len(s, s->W) < s->pk)
        mg_diag_error(d, "%s: convpool: the %lldx%lld conv output is smaller than the pool=%lld "
                      "window", where, (long long)conv_len(s, s->H),
                      (long long)conv_len(s, s->W), (long long)s->pk);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: convpool: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

/* Taps of conv output position o (one axis, input length n) inside. */
static int64_t taps_in(const mg_schedule *s, int64_t o, int64_t n)
{
    int64_t a = o * s->stride - s->pad, lo = a < 0 ? 0 : a;
    int64_t hi = a + s->K > n ? n : a + s->K;
    return hi - lo;
}

/* Sum over pooled outputs and their window positions of taps inside. */
static int64_t taps_sum(const mg_schedule *s, int64_t n)
{
    int64_t t = 0;
    for (int64_t o = 0; o < pool_len(s, n); o++)
        for (int64_t p = 0; p < s->pk; p++) t += taps_in(s, o * s->ps + p, n);
    return t;
}

static int64_t n_items(const mg_schedule *s)
{
    return pool_len(s, s->H) * pool_len(s, s->W) * (s->Cout / 4);
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "convpool");
    int dt = mg_plan_dtype(s);
    int64_t Ho = pool_len(s, s->H), Wo = pool_len(s, s->W), outs = Ho * Wo * s->Cout;
    int x = mg_plan_tensor(k, "X", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4, MG_INIT_RANDOM, 1, s->H,
                           s->W, s->Cin);
    int w = mg_plan_tensor(k, "Wt", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4, MG_INIT_RANDOM, s->Cout,
                           s->K, s->K, s->Cin);
    int sb = s->norm ? mg_plan_tensor(k, "SB", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4,
                                      MG_INIT_RANDOM, 1, 1, 2, s->Cout) : -1;
    int y = mg_plan_tensor(k, "Y", MG_TENSOR_OUT, MG_TL_BUFFER, dt, 4, MG_INIT_ZERO, 1, Ho, Wo,
                           s->Cout);
    mg_plan_arg_tensor(k, x);
    mg_plan_arg_tensor(k, w);
    if (sb >= 0) mg_plan_arg_tensor(k, sb);
    mg_plan_arg_tensor(k, y);
    int64_t items[3] = {n_items(s), 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    int eb = mg_sched_elem_bytes(s);
    int64_t steps = s->pk * s->pk * s->K * s->K * (s->Cin / 4);
    k->f.regs_per_item = mg_plan_regs(s, 4 + 4 + 4 + 16, 2, 4);
    k->f.loop_iters = steps;
    k->f.bytes_per_iter = 5 * 4 * eb;
    k->f.bytes_per_item = steps * 5 * 4 * eb;
    k->f.flops = 32.0 * (double)(s->Cout / 4) * (double)(s->Cin / 4) *
                 (double)taps_sum(s, s->H) * (double)taps_sum(s, s->W) +
                 (double)outs * (double)(s->pk * s->pk + (s->mode == CP_AVG) + 2 * s->norm +
                                         (s->act != ACT_NONE));
    k->f.access_width = 4 * eb;
    k->f.boundary_checks = 1;
    k->log_cap = steps * 5 + 2 * s->norm + 1;
}

/* The item's place, its pooled accumulator and the window loop heads. */
static void emit_cl_head(const mg_schedule *s, mg_sb *o)
{
    long long CQ = (long long)(s->Cout / 4), Wo = (long long)pool_len(s, s->W);
    mg_sb_printf(o, "    const int g = get_global_id(0);\n"
                    "    if (g >= %lld) return;\n"
                    "    const int q = g %% %lld, p = g / %lld;\n"
                    "    const int wo = p %% %lld, ho = p / %lld;\n"
                    "    float4 best = (float4)(%s);\n"
                    "    for (int py = 0; py < %lld; py++) {\n"
                    "      for (int px = 0; px < %lld; px++) {\n"
                    "        const int y0 = (ho * %lld + py) * %lld - %lld;\n"
                    "        const int x0 = (wo * %lld + px) * %lld - %lld;\n"
                    "        float4 acc = (float4)(0);\n",
                 (long long)n_items(s), CQ, CQ, Wo, Wo, s->mode == CP_AVG ? "0" : "-INFINITY",
                 (long long)s->pk, (long long)s->pk, (long long)s->ps, (long long)s->stride,
                 (long long)s->pad, (long long)s->ps, (long long)s->stride, (long long)s->pad);
}

/* The conv taps of one window position: acc += X . Wt. */
static void emit_cl_conv(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    long long K = (long long)s->K, Cin = (long long)s->Cin;
    mg_sb_printf(o, "        for (int ky = 0; ky < %lld; ky++) {\n"
                    "          for (int kx = 0; kx < %lld; kx++) {\n"
                    "            const int y = y0 + ky, x = x0 + kx;\n"
                    "            if (y < 0 || y >= %lld || x < 0 || x >= %lld) continue;\n"
                    "            for (int ci = 0; ci < %lld; ci += 4) {\n"
                    "              const float4 xv = ", K, K, (long long)s->H, (long long)s->W,
                 Cin);
    char e[160];
    snprintf(e, sizeof e, "(y * %lld + x) * %lld + ci", (long long)s->W, Cin);
    mg_cl_ld(o, k, 0, SITE_X, e, 4, 0);
    mg_sb_puts(o, ";\n");
    for (int c = 0; c < 4; c++) {
        snprintf(e, sizeof e, "(((q * 4 + %d) * %lld + ky) * %lld + kx) * %lld + ci", c, K, K,
                 Cin);
        mg_sb_printf(o, "              const float4 w%d = ", c);
        mg_cl_ld(o, k, 1, SITE_W0 + c, e, 4, 0);
        mg_sb_puts(o, ";\n");
    }
    mg_sb_puts(o, "              acc.s0 += dot(xv, w0); acc.s1 += dot(xv, w1);\n"
                  "              acc.s2 += dot(xv, w2); acc.s3 += dot(xv, w3);\n"
                  "            }\n          }\n        }\n");
}

/* After the window: average, normalization, activation, store. */
static void emit_cl_tail(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    long long Cout = (long long)s->Cout;
    mg_sb_printf(o, "        best = %s;\n      }\n    }\n",
                 s->mode == CP_AVG ? "best + acc" : "fmax(best, acc)");
    if (s->mode == CP_AVG)
        mg_sb_printf(o, "    best = best * (float)(1.0f / %lld.0f);\n",
                     (long long)(s->pk * s->pk));
    char e[96];
    if (s->norm) {
        mg_sb_puts(o, "    const float4 sc = ");
        mg_cl_ld(o, k, 2, SITE_NS, "q * 4", 4, 0);
        snprintf(e, sizeof e, "%lld + q * 4", Cout);
        mg_sb_puts(o, ";\n    const float4 sh = ");
        mg_cl_ld(o, k, 2, SITE_NB, e, 4, 0);
        mg_sb_puts(o, ";\n    best = best * sc + sh;\n");
    }
    if (s->act == ACT_RELU) mg_sb_puts(o, "    best = fmax(best, (float4)(0));\n");
    if (s->act == ACT_RELU6) mg_sb_puts(o, "    best = clamp(best, (float4)(0), (float4)(6));\n");
    snprintf(e, sizeof e, "(ho * %lld + wo) * %lld + q * 4", (long long)pool_len(s, s->W), Cout);
    mg_sb_puts(o, "    ");
    mg_cl_st(o, k, k->n_tensors - 1, SITE_STORE, e, 4, "best", 0);
    mg_sb_puts(o, "\n}\n");
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_cl_signature(k, o);
    emit_cl_head(s, o);
    emit_cl_conv(s, k, o);
    emit_cl_tail(s, k, o);
}

/* One tap's channel steps for the lanes whose tap (y, x) is inside. */
static void trace_tap(mg_warp *w, const mg_schedule *s, const uint64_t valid[2], int64_t py,
                      int64_t px, int64_t ky, int64_t kx)
{
    int eb = mg_sched_elem_bytes(s);
    int64_t CQ = s->Cout / 4, Wo = pool_len(s, s->W);
    uint64_t in[2] = {0, 0};
    int64_t xa[MG_TRACE_MAX_LANES], q[MG_TRACE_MAX_LANES];
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l], p = g / CQ;
        int64_t y = ((p / Wo) * s->ps + py) * s->stride - s->pad + ky;
        int64_t x = ((p % Wo) * s->ps + px) * s->stride - s->pad + kx;
        if (y < 0 || y >= s->H || x < 0 || x >= s->W) continue;
        in[l >> 6] |= (uint64_t)1 << (l & 63);
        xa[l] = (y * s->W + x) * s->Cin;
        q[l] = g % CQ;
    }
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 4, 0);
    for (int64_t ci = 0; ci < s->Cin; ci += 4) {
        mg_emit_mem(w, MG_REC_BUF_LOAD, SITE_X, 0, (uint32_t)(4 * eb));
        for (uint32_t l = 0; l < w->lanes; l++)
            if ((in[l >> 6] >> (l & 63)) & 1) mg_emit_lane(w, l, (xa[l] + ci) * eb, 0);
        mg_emit_put(w);
        for (int c = 0; c < 4; c++) {
            mg_emit_mem(w, MG_REC_BUF_LOAD, SITE_W0 + c, 1, (uint32_t)(4 * eb));
            for (uint32_t l = 0; l < w->lanes; l++)
                if ((in[l >> 6] >> (l & 63)) & 1)
                    mg_emit_lane(w, l, ((((q[l] * 4 + c) * s->K + ky) * s->K + kx) * s->Cin +
                                        ci) * eb, 0);
            mg_emit_put(w);
        }
        mg_emit_alu(w, in, SITE_DOT, MG_ALU_FP32, 4, 4, 2);
    }
}

/* Normalization loads and multiply-add, activation, store. */
static void trace_tail(mg_warp *w, const mg_schedule *s, const uint64_t valid[2])
{
    int eb = mg_sched_elem_bytes(s);
    int64_t CQ = s->Cout / 4;
    if (s->mode == CP_AVG) mg_emit_alu(w, valid, SITE_SCALE, MG_ALU_FP32, 4, 1, 1);
    for (int n = 0; s->norm && n < 2; n++) {
        mg_emit_mem(w, MG_REC_BUF_LOAD, n ? SITE_NB : SITE_NS, 2, (uint32_t)(4 * eb));
        for (uint32_t l = 0; l < w->lanes; l++)
            if ((valid[l >> 6] >> (l & 63)) & 1)
                mg_emit_lane(w, l, (n * s->Cout + w->gid[0][l] % CQ * 4) * eb, 0);
        mg_emit_put(w);
    }
    if (s->norm) mg_emit_alu(w, valid, SITE_NORM, MG_ALU_FP32, 4, 1, 2);
    if (s->act != ACT_NONE) mg_emit_alu(w, valid, SITE_ACT, MG_ALU_FP32, 4, 1, 1);
    mg_emit_mem(w, MG_REC_BUF_STORE, SITE_STORE, w->k->n_tensors - 1, (uint32_t)(4 * eb));
    for (uint32_t l = 0; l < w->lanes; l++)
        if ((valid[l >> 6] >> (l & 63)) & 1)
            mg_emit_lane(w, l, (w->gid[0][l] / CQ * s->Cout + w->gid[0][l] % CQ * 4) * eb, 0);
    mg_emit_put(w);
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    int64_t n = n_items(s);
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] >= 0 && w->gid[0][l] < n) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 4, 0);
    for (int64_t py = 0; py < s->pk; py++)
        for (int64_t px = 0; px < s->pk; px++) {
            mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 2, 0);
            for (int64_t ky = 0; ky < s->K; ky++)
                for (int64_t kx = 0; kx < s->K; kx++) trace_tap(w, s, valid, py, px, ky, kx);
            mg_emit_alu(w, valid, SITE_POOL, MG_ALU_FP32, 4, 1, 1);
        }
    trace_tail(w, s, valid);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* Parse "OP key=value ..." built from s (the unfused chain's steps). */
static int step_schedule(mg_schedule *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int step_schedule(mg_schedule *out, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_schedule_parse_line(line, NULL, out, &d);
    mg_diag_free(&d);
    return rc;
}

/* Normalization and activation of the pooled values, in place. */
static void norm_act(const mg_schedule *s, const float *sb, float *v, int64_t n)
{
    for (int64_t e = 0; e < n; e++) {
        int64_t c = e % s->Cout;
        float x = v[e];
        if (s->norm) x = x * sb[c] + sb[s->Cout + c];
        if (s->act == ACT_RELU) x = fmaxf(x, 0.0f);
        if (s->act == ACT_RELU6) x = fminf(fmaxf(x, 0.0f), 6.0f);
        v[e] = x;
    }
}

/* The unfused chain: conv2d's reference into C, pool's into Y, then the
 * normalization and activation on Y. */
static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    mg_schedule cs, ps;
    int64_t Hc = conv_len(s, s->H), Wc = conv_len(s, s->W);
    if (step_schedule(&cs, "conv2d H=%lld W=%lld Cin=%lld Cout=%lld K=%lld stride=%lld "
                      "pad=%lld layout=buffer vec=4", (long long)s->H, (long long)s->W,
                      (long long)s->Cin, (long long)s->Cout, (long long)s->K,
                      (long long)s->stride, (long long)s->pad) ||
        step_schedule(&ps, "pool H=%lld W=%lld C=%lld K=%lld stride=%lld pad=0 mode=%s "
                      "layout=buffer vec=4", (long long)Hc, (long long)Wc, (long long)s->Cout,
                      (long long)s->pk, (long long)s->ps, mode_names[s->mode]))
        return;                          /* check() keeps both steps valid */
    float *c = calloc((size_t)(Hc * Wc * s->Cout), sizeof *c);
    if (!c) return;
    int ny = k->n_tensors - 1;
    mg_host ch = {.n = 3, .f = {h->f[0], h->f[1], c}};
    cs.op->reference(&cs, NULL, &ch);
    mg_host ph = {.n = 2, .f = {c, h->f[ny]}};
    ps.op->reference(&ps, NULL, &ph);
    norm_act(s, s->norm ? h->f[2] : NULL, h->f[ny],
             pool_len(s, s->H) * pool_len(s, s->W) * s->Cout);
    free(c);
}

const mg_op mg_op_convpool = {
    .name = "convpool",
    .summary = "sequential fusion: conv2d + pool + [norm] + act in one kernel (THOMAS)",
    .keys = keys,
    .knobs = "wg storage warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
    .warp_body = trace_body,
};
