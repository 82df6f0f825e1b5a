/*
 * eltwise.c - tensor-scalar add, B = A + scalar (romou 4.1, Listing 4).
 *
 * A and B are [1, H, W, C] (NHWC; as images, C packed 4 per RGBA texel,
 * width W*C/4, height H).  The unit of work is a chunk of `vec` consecutive
 * channels (a texel for images); an item handles T = tile cols chunks:
 *   pattern=row     item g takes chunks g*T .. g*T+T-1 (a private run);
 *   pattern=column  chunk t*G + g for t < T, G = global size (coalesced:
 *                   neighbouring items touch neighbouring chunks).
 * Chunk c is pixel p = c / (C/vec), channel group q = c % (C/vec); buffer
 * element c*vec, image texel x = (p % W) * (C/4) + q, y = p / W.
 * broadcast=explicit adds `(floatN)(scalar)`, a vector splat the trace
 * shows as one extra ALU instruction; auto leaves it to the compiler.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_ADDR = 1, SITE_LOAD, SITE_SPLAT, SITE_ADD, SITE_STORE };

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 1 << 16, "8", "height"),
    MG_KEY_INT("W", W, 1, 1 << 16, "8", "width"),
    MG_KEY_INT("C", C, 1, 1 << 16, "16", "channels"),
    MG_KEY_FLOAT("scalar", scalar, "0.5", "the constant added"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    int any_image = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE ||
                    s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: eltwise: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    else if (any_image && s->vec != 4)
        mg_diag_error(d, "%s: eltwise: vec=%lld with an image: a texel holds 4 channels, so "
                      "vec must be 4", where, (long long)s->vec);
    else if (s->C % s->vec)
        mg_diag_error(d, "%s: eltwise: C=%lld is not a multiple of vec=%lld", where,
                      (long long)s->C, (long long)s->vec);
    if (s->tile[0] != 1)
        mg_diag_error(d, "%s: eltwise: tile=%lldx%lld: the tile is 1xT (T chunks per item)",
                      where, (long long)s->tile[0], (long long)s->tile[1]);
    if (s->pattern != MG_PAT_ROW && s->pattern != MG_PAT_COLUMN)
        mg_diag_error(d, "%s: eltwise: pattern=%s: a 1D walk is row (private runs) or column "
                      "(coalesced)", where, mg_pattern_names[s->pattern]);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: eltwise: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

static int64_t n_chunks(const mg_schedule *s) { return s->H * s->W * s->C / s->vec; }

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "eltwise");
    int dt = mg_plan_dtype(s);
    int a = mg_plan_tensor(k, "A", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                           MG_INIT_RANDOM, 1, s->H, s->W, s->C);
    int b = mg_plan_tensor(k, "B", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT), dt, 4,
                           MG_INIT_ZERO, 1, s->H, s->W, s->C);
    mg_plan_arg_tensor(k, a);
    mg_plan_arg_tensor(k, b);
    mg_plan_arg_float(k, "scalar", s->scalar);
    int64_t T = s->tile[1], nc = n_chunks(s);
    int64_t items[3] = {mg_ceil_div(nc, T), 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int eb = mg_sched_elem_bytes(s);
    k->f.regs_per_item = (s->compute == MG_PREC_FP16 ? (s->vec + 1) / 2 : s->vec) + 4;
    k->f.loop_iters = T;
    k->f.bytes_per_iter = s->vec * eb;
    k->f.bytes_per_item = T * s->vec * eb;
    k->f.flops = (double)(s->H * s->W * s->C);
    k->f.local_bytes = 0;
    k->f.access_width = s->vec * eb;
    k->f.boundary_checks = k->global[0] * T != nc;
    k->log_cap = 2 * T;
}

/* Texel coordinates of chunk c (images: vec == 4). */
static void chunk_xy(const mg_schedule *s, int64_t c, int64_t *x, int64_t *y)
{
    int64_t cq = s->C / 4, p = c / cq, q = c % cq;
    *x = (p % s->W) * cq + q;
    *y = p / s->W;
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    int64_t T = s->tile[1];
    const char *vt = mg_cl_vtype(fp16, (int)s->vec);
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int g = get_global_id(0);\n");
    if (s->unroll > 1) mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "    for (int t = 0; t < %lld; t++) {\n", (long long)T);
    if (s->pattern == MG_PAT_ROW)
        mg_sb_printf(o, "        const int c = g * %lld + t;\n", (long long)T);
    else
        mg_sb_printf(o, "        const int c = t * %lld + g;\n", (long long)k->global[0]);
    mg_sb_printf(o, "        if (c < %lld) {\n", (long long)n_chunks(s));
    int img_in = k->t[0].layout == MG_TL_IMAGE, img_out = k->t[1].layout == MG_TL_IMAGE;
    if (img_in || img_out)
        mg_sb_printf(o, "            const int p = c / %lld, q = c %% %lld;\n"
                        "            const int x = (p %% %lld) * %lld + q, y = p / %lld;\n",
                     (long long)(s->C / 4), (long long)(s->C / 4), (long long)s->W,
                     (long long)(s->C / 4), (long long)s->W);
    char e[64];
    snprintf(e, sizeof e, "c * %lld", (long long)s->vec);
    mg_sb_printf(o, "            %s v = ", vt);
    if (img_in) mg_cl_rd(o, k, 0, SITE_LOAD, "x", "y", fp16);
    else mg_cl_ld(o, k, 0, SITE_LOAD, e, (int)s->vec, fp16);
    mg_sb_puts(o, ";\n");
    const char *sc = fp16 ? "(half)scalar" : "scalar";
    if (s->broadcast == MG_BCAST_EXPLICIT)
        mg_sb_printf(o, "            const %s n = (%s)(%s);\n            v = v + n;\n", vt, vt,
                     sc);
    else
        mg_sb_printf(o, "            v = v + %s;\n", sc);
    mg_sb_puts(o, "            ");
    if (img_out) mg_cl_wr(o, k, 1, SITE_STORE, "x", "y", "v", fp16);
    else mg_cl_st(o, k, 1, SITE_STORE, e, (int)s->vec, "v", fp16);
    mg_sb_puts(o, "\n        }\n    }\n}\n");
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    const mg_kernel *k = w->k;
    int64_t T = s->tile[1], nc = n_chunks(s);
    int eb = mg_sched_elem_bytes(s);
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int img_in = k->t[0].layout == MG_TL_IMAGE, img_out = k->t[1].layout == MG_TL_IMAGE;
    for (int64_t t = 0; t < T; t++) {
        int64_t c[MG_TRACE_MAX_LANES];
        uint64_t valid[2] = {0, 0};
        for (uint32_t l = 0; l < w->lanes; l++) {
            int64_t g = w->gid[0][l];
            c[l] = s->pattern == MG_PAT_ROW ? g * T + t : t * k->global[0] + g;
            if (c[l] < nc) valid[l >> 6] |= (uint64_t)1 << (l & 63);
        }
        mg_emit_needs(w, 0);                        /* c is the ids' and t's: no load */
        mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, img_in || img_out ? 4 : 1, 0);
        for (int pass = 0; pass < 2; pass++) {      /* 0: load A, 1: store B */
            int img = pass ? img_out : img_in;
            int type = img ? (pass ? MG_REC_IMG_WRITE : MG_REC_TEX_READ)
                           : (pass ? MG_REC_BUF_STORE : MG_REC_BUF_LOAD);
            if (!img && !w->lanewise) {
                /* c of local x: row (wg0 + x) T + t, else t global0 + wg0 + x */
                int64_t g0 = (int64_t)w->wg[0] * k->local[0], row = s->pattern == MG_PAT_ROW;
                mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
                f.at[0] = (row ? g0 * T + t : t * k->global[0] + g0) * s->vec * eb;
                f.dx[0] = (row ? T : 1) * s->vec * eb;
                mg_emit_aff(w, type, pass ? SITE_STORE : SITE_LOAD, pass, (uint32_t)(s->vec * eb),
                            valid, &f);
            } else {
                mg_emit_mem(w, type, pass ? SITE_STORE : SITE_LOAD, pass,
                            (uint32_t)(s->vec * eb));
                for (uint32_t l = 0; l < w->lanes; l++) {
                    if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
                    if (img) {
                        int64_t x, y;
                        chunk_xy(s, c[l], &x, &y);
                        mg_emit_lane(w, l, x, y);
                    } else {
                        mg_emit_lane(w, l, c[l] * s->vec * eb, 0);
                    }
                }
                mg_emit_put(w);
            }
            if (pass == 0) {
                if (s->broadcast == MG_BCAST_EXPLICIT)
                    mg_emit_alu(w, valid, SITE_SPLAT, cls, (int)s->vec, 1, 0);
                mg_emit_alu(w, valid, SITE_ADD, cls, (int)s->vec, 1, 1);
            }
        }
    }
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    int64_t n = mg_tensor_elems(&k->t[0]);
    float sc = (float)s->scalar;
    int half = s->compute == MG_PREC_FP16;
    if (half) sc = mg_round_half(sc);
    for (int64_t e = 0; e < n; e++) {
        float v = h->f[0][e] + sc;
        h->f[1][e] = half ? mg_round_half(v) : v;
    }
}

const mg_op mg_op_eltwise = {
    .name = "eltwise",
    .summary = "tensor-scalar add B = A + scalar (romou Listing 4)",
    .keys = keys,
    .knobs = "layout layout_in layout_out tile wg pattern vec storage compute broadcast unroll "
              "warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = emit_cl,
    .trace_wg = trace_wg,
    .reference = reference,
    .warp_body = trace_body,
};
