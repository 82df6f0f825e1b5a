/*
 * pool.c - max or average pooling over a KxK window with stride and zero
 * padding that the average leaves out (TF "SAME" semantics); with K = H = W
 * and pad 0 it is global pooling (squeeze).  NHWC:
 *
 *   X [1, H, W, C] -> Y [1, Ho, Wo, C],  Ho = (H + 2 pad - K) / stride + 1
 *
 * As images, C is packed 4 per RGBA texel: X is W*C/4 x H texels, Y
 * Wo*C/4 x Ho.  One work item computes one output pixel's chunk of `vec`
 * channels (a texel for images): item g < Ho*Wo*CQ, CQ = C/vec, takes
 * q = g % CQ, pixel p = g / CQ, wo = p % Wo, ho = p / Wo, walks the window
 * ky outer, kx inner, loads the taps inside the input (taps in the padding
 * load nothing) and keeps their max (acc = fmax(acc, v)) or sum; the
 * average multiplies the sum by 1 / (the taps inside).  Then it stores.
 * Launch 1D, wg=X,1,1; items past the output are masked.
 *
 * Flops: one per element per tap inside (max or add), plus one per output
 * element for the average's multiply, what the trace's ALU records sum to.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <math.h>
#include <stdio.h>

enum { SITE_ADDR = 1, SITE_LOAD, SITE_OP, SITE_SCALE, SITE_STORE };
enum { POOL_MAX, POOL_AVG };

static const char *const mode_names[] = {"max", "avg", NULL};

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 4096, "8", "input height"),
    MG_KEY_INT("W", W, 1, 4096, "8", "input width"),
    MG_KEY_INT("C", C, 1, 8192, "8", "channels"),
    MG_KEY_INT("K", K, 1, 64, "3", "window KxK"),
    MG_KEY_INT("stride", stride, 1, 64, "2", "stride"),
    MG_KEY_INT("pad", pad, 0, 63, "0", "zero padding on each side (left out of the average)"),
    MG_KEY_ENUM("mode", mode, "max", mode_names, "max or avg"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->vec = 4;
}

static int64_t out_len(const mg_schedule *s, int64_t n)
{
    return (n + 2 * s->pad - s->K) / s->stride + 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    int any_image = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE ||
                    s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: pool: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    else if (any_image && s->vec != 4)
        mg_diag_error(d, "%s: pool: vec=%lld with an image: a texel holds 4 channels, so vec "
                      "must be 4", where, (long long)s->vec);
    else if (s->C % s->vec)
        mg_diag_error(d, "%s: pool: C=%lld is not a multiple of vec=%lld", where,
                      (long long)s->C, (long long)s->vec);
    if (s->pad >= s->K)
        mg_diag_error(d, "%s: pool: pad=%lld must be smaller than K=%lld (a window wholly in "
                      "the padding has nothing to pool)", where, (long long)s->pad,
                      (long long)s->K);
    else if (s->H + 2 * s->pad < s->K || s->W + 2 * s->pad < s->K)
        mg_diag_error(d, "%s: pool: the %lldx%lld window does not fit the %lldx%lld input", where,
                      (long long)s->K, (long long)s->K, (long long)s->H, (long long)s->W);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: pool: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

/* The taps of output position o (along one axis of length n) inside the
 * input: [*lo, *hi). */
static void taps(const mg_schedule *s, int64_t o, int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t a = o * s->stride - s->pad;
    *lo = a < 0 ? 0 : a;
    *hi = a + s->K > n ? n : a + s->K;
}

/* Sum over the output positions along one axis of their taps inside. */
static int64_t taps_sum(const mg_schedule *s, int64_t n)
{
    int64_t t = 0, lo, hi;
    for (int64_t o = 0; o < out_len(s, n); o++) {
        taps(s, o, n, &lo, &hi);
        t += hi - lo;
    }
    return t;
}

static int64_t n_chunks(const mg_schedule *s)
{
    return out_len(s, s->H) * out_len(s, s->W) * (s->C / s->vec);
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "pool");
    int dt = mg_plan_dtype(s);
    int64_t Ho = out_len(s, s->H), Wo = out_len(s, s->W);
    int x = mg_plan_tensor(k, "X", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                           MG_INIT_RANDOM, 1, s->H, s->W, s->C);
    int y = mg_plan_tensor(k, "Y", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT), dt, 4,
                           MG_INIT_ZERO, 1, Ho, Wo, s->C);
    mg_plan_arg_tensor(k, x);
    mg_plan_arg_tensor(k, y);
    int64_t items[3] = {n_chunks(s), 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int eb = mg_sched_elem_bytes(s);
    k->f.regs_per_item = 2 * (s->compute == MG_PREC_FP16 ? (s->vec + 1) / 2 : s->vec) + 8;
    k->f.loop_iters = s->K * s->K;
    k->f.bytes_per_iter = s->vec * eb;
    k->f.bytes_per_item = (s->K * s->K + 1) * s->vec * eb;
    k->f.flops = (double)s->C * (double)taps_sum(s, s->H) * (double)taps_sum(s, s->W) +
                 (s->mode == POOL_AVG ? (double)(Ho * Wo * s->C) : 0);
    k->f.local_bytes = 0;
    k->f.access_width = s->vec * eb;
    k->f.boundary_checks = s->pad > 0 || k->global[0] != n_chunks(s);
    k->log_cap = s->K * s->K + 1;
}

/* The item's place: q, wo, ho and the window's corner y0, x0. */
static void emit_cl_head(const mg_schedule *s, mg_sb *o)
{
    long long CQ = (long long)(s->C / s->vec), Wo = (long long)out_len(s, s->W);
    mg_sb_printf(o, "    const int g = get_global_id(0);\n"
                    "    if (g >= %lld) return;\n"
                    "    const int q = g %% %lld, p = g / %lld;\n"
                    "    const int wo = p %% %lld, ho = p / %lld;\n"
                    "    const int y0 = ho * %lld - %lld, x0 = wo * %lld - %lld;\n",
                 (long long)n_chunks(s), CQ, CQ, Wo, Wo, (long long)s->stride,
                 (long long)s->pad, (long long)s->stride, (long long)s->pad);
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16, avg = s->mode == POOL_AVG;
    const char *vt = mg_cl_vtype(fp16, (int)s->vec);
    long long C = (long long)s->C, V = (long long)s->vec, K = (long long)s->K;
    int img_in = k->t[0].layout == MG_TL_IMAGE, img_out = k->t[1].layout == MG_TL_IMAGE;
    mg_cl_signature(k, o);
    emit_cl_head(s, o);
    mg_sb_printf(o, "    %s acc = (%s)(%s);\n", vt, vt, avg ? "0" : "-INFINITY");
    mg_sb_printf(o, "    for (int ky = 0; ky < %lld; ky++) {\n"
                    "        for (int kx = 0; kx < %lld; kx++) {\n"
                    "            const int y = y0 + ky, x = x0 + kx;\n"
                    "            if (y >= 0 && y < %lld && x >= 0 && x < %lld) {\n"
                    "                %s v = ", K, K, (long long)s->H, (long long)s->W, vt);
    char tx[64];
    snprintf(tx, sizeof tx, "x * %lld + q", (long long)(s->C / 4));
    if (img_in) {
        mg_cl_rd(o, k, 0, SITE_LOAD, tx, "y", fp16);
    } else {
        char e[96];
        snprintf(e, sizeof e, "(y * %lld + x) * %lld + q * %lld", (long long)s->W, C, V);
        mg_cl_ld(o, k, 0, SITE_LOAD, e, (int)s->vec, fp16);
    }
    mg_sb_printf(o, ";\n                acc = %s;\n            }\n        }\n    }\n",
                 avg ? "acc + v" : "fmax(acc, v)");
    if (avg)
        mg_sb_printf(o, "    const int cy = min(y0 + %lld, %lld) - max(y0, 0);\n"
                        "    const int cx = min(x0 + %lld, %lld) - max(x0, 0);\n"
                        "    acc = acc * (%s)(1.0f / (float)(cy * cx));\n",
                     K, (long long)s->H, K, (long long)s->W, fp16 ? "half" : "float");
    mg_sb_puts(o, "    ");
    snprintf(tx, sizeof tx, "wo * %lld + q", (long long)(s->C / 4));
    if (img_out) {
        mg_cl_wr(o, k, 1, SITE_STORE, tx, "ho", "acc", fp16);
    } else {
        char e[96];
        snprintf(e, sizeof e, "(ho * %lld + wo) * %lld + q * %lld",
                 (long long)out_len(s, s->W), C, V);
        mg_cl_st(o, k, 1, SITE_STORE, e, (int)s->vec, "acc", fp16);
    }
    mg_sb_puts(o, "\n}\n");
}

/* One tap's load and operation, for the lanes whose tap is inside. */
static void trace_tap(mg_warp *w, const mg_schedule *s, const uint64_t valid[2], int64_t ky,
                      int64_t kx)
{
    const mg_kernel *k = w->k;
    int img = k->t[0].layout == MG_TL_IMAGE, eb = mg_sched_elem_bytes(s);
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int64_t CQ = s->C / s->vec, Wo = out_len(s, s->W);
    uint64_t in[2] = {0, 0};
    mg_emit_needs(w, 0);                    /* the tap's x, y: the ids', no load */
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 3, 0);
    mg_emit_mem(w, img ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_LOAD, 0,
                (uint32_t)(s->vec * eb));
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l], q = g % CQ, p = g / CQ;
        int64_t y = (p / Wo) * s->stride - s->pad + ky, x = (p % Wo) * s->stride - s->pad + kx;
        if (y < 0 || y >= s->H || x < 0 || x >= s->W) continue;
        in[l >> 6] |= (uint64_t)1 << (l & 63);
        if (img) mg_emit_lane(w, l, x * CQ + q, y);
        else mg_emit_lane(w, l, ((y * s->W + x) * s->C + q * s->vec) * eb, 0);
    }
    mg_emit_put(w);
    mg_emit_alu(w, in, SITE_OP, cls, (int)s->vec, 1, 1);
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    const mg_kernel *k = w->k;
    int img = k->t[1].layout == MG_TL_IMAGE, eb = mg_sched_elem_bytes(s);
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int64_t CQ = s->C / s->vec, Wo = out_len(s, s->W), nc = n_chunks(s);
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < nc) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 4, 0);
    for (int64_t ky = 0; ky < s->K; ky++)
        for (int64_t kx = 0; kx < s->K; kx++) trace_tap(w, s, valid, ky, kx);
    if (s->mode == POOL_AVG) {
        mg_emit_alu(w, valid, SITE_SCALE, MG_ALU_INT, 1, 4, 0);
        mg_emit_alu(w, valid, SITE_SCALE, cls, (int)s->vec, 1, 1);
    }
    mg_emit_mem(w, img ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE, SITE_STORE, 1,
                (uint32_t)(s->vec * eb));
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l], q = g % CQ, p = g / CQ;
        if (img) mg_emit_lane(w, l, (p % Wo) * CQ + q, p / Wo);
        else mg_emit_lane(w, l, (p * s->C + q * s->vec) * eb, 0);
    }
    mg_emit_put(w);
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    int half = s->compute == MG_PREC_FP16, avg = s->mode == POOL_AVG;
    int64_t Ho = out_len(s, s->H), Wo = out_len(s, s->W);
    for (int64_t ho = 0; ho < Ho; ho++)
        for (int64_t wo = 0; wo < Wo; wo++)
            for (int64_t c = 0; c < s->C; c++) {
                int64_t y0, y1, x0, x1;
                taps(s, ho, s->H, &y0, &y1);
                taps(s, wo, s->W, &x0, &x1);
                float acc = avg ? 0.0f : -INFINITY;
                for (int64_t y = y0; y < y1; y++)
                    for (int64_t x = x0; x < x1; x++) {
                        float v = h->f[0][(y * s->W + x) * s->C + c];
                        acc = avg ? acc + v : fmaxf(acc, v);
                        if (half) acc = mg_round_half(acc);
                    }
                if (avg) {
                    float r = 1.0f / (float)((y1 - y0) * (x1 - x0));
                    acc = half ? mg_round_half(acc * mg_round_half(r)) : acc * r;
                }
                h->f[1][(ho * Wo + wo) * s->C + c] = acc;
            }
}

const mg_op mg_op_pool = {
    .name = "pool",
    .summary = "max or average pooling, KxK window, stride, pad (K = H = W: global)",
    .keys = keys,
    .knobs = "layout layout_in layout_out wg vec storage compute warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
    .warp_body = trace_body,
};
