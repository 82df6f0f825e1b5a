/*
 * conv2d.c - 2D convolution, KxK, stride, zero padding, optionally
 * depthwise; NHWC activations (romou Fig 4 and 10; tmmodel Conv2D/DwConv2D).
 *
 *   X [1, H, W, Cin] -> Y [1, Ho, Wo, Cout],  Ho = (H + 2 pad - K) / stride + 1
 *   weights: standard  [Cout, K, K, Cin]   (image: a texel holds 4 Cin of one Cout)
 *            depthwise [1, K, K, C]        (Cin = Cout = C)
 *
 * One work item computes tile=TWxTC: TW output pixels along W times TC
 * output channels (romou's 4x4 coarsening is tile=4x4 with 4-channel texels).
 * NDRange (Cout/TC, ceil(Wo/TW), Ho): neighbouring items in x share their
 * input pixels and differ in output channels, so a warp's input reads
 * coincide (broadcast) and its weight reads are adjacent texels.  The
 * reduction walks the KxK window
 * (pattern=row: kx fastest; column: ky fastest) and the input channels V at
 * a time, V = 4 (a texel) when the input or weights are images, else vec:
 *
 *   for (ky, kx) for (ci = 0; ci < Cin; ci += V) {
 *       xv[j] = X[ho*s - pad + ky][(wo0+j)*s - pad + kx][ci..ci+V)  (0 outside)
 *       wv[c] = Wt[co0+c][ky][kx][ci..ci+V)
 *       acc[j][c] += dot(xv[j], wv[c])            (depthwise: acc += xv * wv)
 *   }
 *
 * then each valid pixel stores its TC channels (texels of 4, or vectors of 4
 * for buffers when TC % 4 == 0, else scalars).  Output pixels past Wo are
 * masked (boundary checks); padding positions load nothing but still count
 * as flops, so a launch's flops are exactly 2 Ho Wo Cout Cin K K
 * (depthwise: 2 Ho Wo C K K).
 */
#include "gen/clemit.h"
#include "gen/emit.h"
#include "gen/op.h"
#include "gen/plan.h"

#include <stdio.h>
#include <string.h>

enum { SITE_X = 1, SITE_W, SITE_FMA, SITE_Y, SITE_ADDR };
enum { TX, TW_, TY };          /* tensor indices */

#define OFF(m) offsetof(mg_schedule, m)

static const mg_key keys[] = {
    {"H", MG_K_INT, OFF(H), 1, 4096, "8", NULL, "input height"},
    {"W", MG_K_INT, OFF(W), 1, 4096, "8", NULL, "input width"},
    {"Cin", MG_K_INT, OFF(Cin), 1, 8192, "8", NULL, "input channels"},
    {"Cout", MG_K_INT, OFF(Cout), 1, 8192, "8", NULL, "output channels (= Cin if depthwise)"},
    {"K", MG_K_INT, OFF(K), 1, 15, "1", NULL, "kernel size KxK"},
    {"stride", MG_K_INT, OFF(stride), 1, 8, "1", NULL, "stride"},
    {"pad", MG_K_INT, OFF(pad), 0, 7, "0", NULL, "zero padding on each side"},
    {"depthwise", MG_K_INT, OFF(depthwise), 0, 1, "0", NULL, "1: one filter per channel"},
    {NULL, 0, 0, 0, 0, NULL, NULL, NULL},
};

typedef struct conv_geom {
    int64_t Ho, Wo, TW, TC, V, nx, nz, cin4, cout4;
    int img_x, img_w, img_y, eb;
} conv_geom;

static void geom(const mg_schedule *s, conv_geom *g)
{
    g->Ho = (s->H + 2 * s->pad - s->K) / s->stride + 1;
    g->Wo = (s->W + 2 * s->pad - s->K) / s->stride + 1;
    g->TW = s->tile[0];
    g->TC = s->tile[1];
    g->img_x = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE;
    g->img_w = s->layout[MG_ROLE_W] == MG_LAYOUT_IMAGE;
    g->img_y = s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    g->V = (g->img_x || g->img_w) ? 4 : s->vec;
    g->nx = mg_ceil_div(g->Wo, g->TW);
    g->nz = s->Cout / g->TC;
    g->cin4 = s->Cin / 4;
    g->cout4 = s->Cout / 4;
    g->eb = mg_sched_elem_bytes(s);
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = 8;
    s->wg[1] = 8;
    s->wg[2] = 1;
    s->tile[0] = 1;
    s->tile[1] = 4;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    conv_geom g;
    geom(s, &g);
    if (s->H + 2 * s->pad < s->K || s->W + 2 * s->pad < s->K)
        mg_diag_error(d, "%s: conv2d: the %lldx%lld kernel is larger than the padded input",
                      where, (long long)s->K, (long long)s->K);
    if (s->depthwise && s->Cin != s->Cout)
        mg_diag_error(d, "%s: conv2d: depthwise needs Cin = Cout (got %lld, %lld)", where,
                      (long long)s->Cin, (long long)s->Cout);
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: conv2d: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    if ((g.img_x || g.img_w) && s->vec != 4 && mg_schedule_is_set(s, "vec"))
        mg_diag_error(d, "%s: conv2d: vec=%lld with an image input or weights: a texel holds "
                      "4 channels, so loads are 4 wide", where, (long long)s->vec);
    if (s->Cin % g.V)
        mg_diag_error(d, "%s: conv2d: Cin=%lld is not a multiple of the load width %lld", where,
                      (long long)s->Cin, (long long)g.V);
    if (s->Cout % g.TC)
        mg_diag_error(d, "%s: conv2d: tile=%lldx%lld: the channel tile %lld must divide "
                      "Cout=%lld", where, (long long)g.TW, (long long)g.TC, (long long)g.TC,
                      (long long)s->Cout);
    if (g.img_y && g.TC % 4)
        mg_diag_error(d, "%s: conv2d: an image output is written a texel (4 channels) at a "
                      "time: the channel tile %lld must be a multiple of 4", where,
                      (long long)g.TC);
    if (s->depthwise && g.TC % g.V)
        mg_diag_error(d, "%s: conv2d: depthwise: the channel tile %lld must be a multiple of "
                      "the load width %lld", where, (long long)g.TC, (long long)g.V);
    if (g.TW * g.TC > 256)
        mg_diag_error(d, "%s: conv2d: tile %lldx%lld needs more than 256 accumulators", where,
                      (long long)g.TW, (long long)g.TC);
    if (s->pattern != MG_PAT_ROW && s->pattern != MG_PAT_COLUMN)
        mg_diag_error(d, "%s: conv2d: pattern=%s: the KxK window is walked row or column "
                      "major", where, mg_pattern_names[s->pattern]);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    conv_geom g;
    geom(s, &g);
    snprintf(k->name, sizeof k->name, s->depthwise ? "dwconv2d" : "conv2d");
    int dt = mg_plan_dtype(s);
    int x = mg_plan_tensor(k, "X", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                           MG_INIT_RANDOM, 1, s->H, s->W, s->Cin);
    int w = s->depthwise
                ? mg_plan_tensor(k, "Wt", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_W), dt, 4,
                                 MG_INIT_RANDOM, 1, s->K, s->K, s->Cin)
                : mg_plan_tensor(k, "Wt", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_W), dt, 4,
                                 MG_INIT_RANDOM, s->Cout, s->K, s->K, s->Cin);
    int y = mg_plan_tensor(k, "Y", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT), dt, 4,
                           MG_INIT_ZERO, 1, g.Ho, g.Wo, s->Cout);
    mg_plan_arg_tensor(k, x);
    mg_plan_arg_tensor(k, w);
    mg_plan_arg_tensor(k, y);
    int64_t items[3] = {g.nz, g.nx, g.Ho};
    mg_plan_ndrange(k, 3, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int64_t red = s->depthwise ? 1 : s->Cin;             /* reduction length per window tap */
    k->f.loop_iters = s->K * s->K * (s->depthwise ? g.TC / g.V : s->Cin / g.V);
    int64_t loads = g.TW * g.V + (s->depthwise ? g.V : g.TC * g.V);   /* elements per iter */
    k->f.bytes_per_iter = loads * g.eb;
    k->f.bytes_per_item = k->f.loop_iters * k->f.bytes_per_iter;
    int64_t acc = g.TW * g.TC, live = acc + g.TW * g.V + (s->depthwise ? g.V : g.TC * g.V);
    if (s->compute == MG_PREC_FP16) live = (live + 1) / 2;
    k->f.regs_per_item = live + 6;                 /* + ids, loop counters, addresses */
    k->f.flops = 2.0 * (double)(g.Ho * g.Wo * s->Cout * red * s->K * s->K);
    k->f.local_bytes = 0;
    k->f.access_width = g.V * g.eb;
    /* The group's distinct loads per iteration: items with the same (gx, ho)
     * read the same TW pixels; items with the same gz the same weights. */
    k->f.wg_bytes_per_iter = (k->local[1] * k->local[2] * g.TW * g.V +
                              k->local[0] * (s->depthwise ? g.V : g.TC * g.V)) * g.eb;
    k->f.boundary_checks = g.nx * g.TW != g.Wo || k->global[0] != g.nz ||
                           k->global[1] != g.nx || k->global[2] != g.Ho;
    k->log_cap = k->f.loop_iters * (g.TW + (s->depthwise ? 1 : g.TC)) + g.TW * g.TC;
}

/* ---- OpenCL ---------------------------------------------------------------- */

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    conv_geom g;
    geom(s, &g);
    int fp16 = s->compute == MG_PREC_FP16;
    const char *vt = mg_cl_vtype(fp16, (int)g.V), *st = fp16 ? "half" : "float";
    long long TW = g.TW, TC = g.TC, V = g.V, K = s->K;
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int gz = get_global_id(0), gx = get_global_id(1), "
                    "ho = get_global_id(2);\n"
                    "    if (gx >= %lld || ho >= %lld || gz >= %lld) return;\n",
                 (long long)g.nx, (long long)g.Ho, (long long)g.nz);
    mg_sb_printf(o, "    const int wo0 = gx * %lld, co0 = gz * %lld;\n", TW, TC);
    if (s->depthwise)
        mg_sb_printf(o, "    %s acc[%lld];\n    for (int i = 0; i < %lld; i++) acc[i] = (%s)0;\n",
                     vt, TW * TC / V, TW * TC / V, vt);
    else
        mg_sb_printf(o, "    %s acc[%lld];\n    for (int i = 0; i < %lld; i++) acc[i] = 0;\n", st,
                     TW * TC, TW * TC);
    mg_sb_printf(o, "    %s xv[%lld], wv[%lld];\n", vt, TW, s->depthwise ? 1LL : TC);
    const char *outer = s->pattern == MG_PAT_ROW ? "ky" : "kx";
    const char *inner = s->pattern == MG_PAT_ROW ? "kx" : "ky";
    mg_sb_printf(o, "    for (int %s = 0; %s < %lld; %s++)\n    for (int %s = 0; %s < %lld; %s++) {\n",
                 outer, outer, K, outer, inner, inner, K, inner);
    mg_sb_printf(o, "        const int hi = ho * %lld - %lld + ky;\n", (long long)s->stride,
                 (long long)s->pad);
    int64_t clen = s->depthwise ? TC : s->Cin;
    if (s->unroll > 1) mg_sb_printf(o, "        #pragma unroll %lld\n", (long long)s->unroll);
    mg_sb_printf(o, "        for (int ci = 0; ci < %lld; ci += %lld) {\n", (long long)clen, V);
    const char *cc = s->depthwise ? "(co0 + ci)" : "ci";   /* channel of X and Wt */
    /* inputs */
    mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) {\n"
                    "                const int wi = (wo0 + j) * %lld - %lld + kx;\n"
                    "                xv[j] = (wo0 + j < %lld && hi >= 0 && hi < %lld && wi >= 0 "
                    "&& wi < %lld) ? ",
                 TW, (long long)s->stride, (long long)s->pad, (long long)g.Wo,
                 (long long)s->H, (long long)s->W);
    char e1[256], e2[256];
    if (g.img_x) {
        snprintf(e1, sizeof e1, "wi * %lld + %s / 4", (long long)g.cin4, cc);
        mg_cl_rd(o, k, TX, SITE_X, e1, "hi", fp16);
    } else {
        snprintf(e1, sizeof e1, "(hi * %lld + wi) * %lld + %s", (long long)s->W,
                 (long long)s->Cin, cc);
        mg_cl_ld(o, k, TX, SITE_X, e1, (int)V, fp16);
    }
    mg_sb_printf(o, " : (%s)0;\n            }\n", vt);
    /* weights */
    if (s->depthwise) {
        mg_sb_puts(o, "            wv[0] = ");
        if (g.img_w) {
            snprintf(e1, sizeof e1, "kx * %lld + (co0 + ci) / 4", (long long)g.cin4);
            mg_cl_rd(o, k, TW_, SITE_W, e1, "ky", fp16);
        } else {
            snprintf(e1, sizeof e1, "(ky * %lld + kx) * %lld + co0 + ci", K, (long long)s->Cin);
            mg_cl_ld(o, k, TW_, SITE_W, e1, (int)V, fp16);
        }
        mg_sb_puts(o, ";\n");
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++)\n"
                        "                if (wo0 + j < %lld) acc[j * %lld + ci / %lld] += xv[j] * wv[0];\n",
                     TW, (long long)g.Wo, TC / V, V);
    } else {
        mg_sb_printf(o, "            for (int c = 0; c < %lld; c++) wv[c] = ", TC);
        if (g.img_w) {
            snprintf(e1, sizeof e1, "kx * %lld + ci / 4", (long long)g.cin4);
            snprintf(e2, sizeof e2, "(co0 + c) * %lld + ky", K);
            mg_cl_rd(o, k, TW_, SITE_W, e1, e2, fp16);
        } else {
            snprintf(e1, sizeof e1, "(((co0 + c) * %lld + ky) * %lld + kx) * %lld + ci", K, K,
                     (long long)s->Cin);
            mg_cl_ld(o, k, TW_, SITE_W, e1, (int)V, fp16);
        }
        mg_sb_puts(o, ";\n");
        if (V == 1)
            mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                            "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                            "xv[j] * wv[c];\n", TW, (long long)g.Wo, TC, TC);
        else if (V == 8)    /* OpenCL's dot() stops at 4 lanes: two halves */
            mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                            "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                            "dot(xv[j].lo, wv[c].lo) + dot(xv[j].hi, wv[c].hi);\n", TW,
                         (long long)g.Wo, TC, TC);
        else
            mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                            "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                            "dot(xv[j], wv[c]);\n", TW, (long long)g.Wo, TC, TC);
    }
    mg_sb_puts(o, "        }\n    }\n");
    /* stores */
    int64_t sv = (g.img_y || TC % 4 == 0) ? 4 : 1;
    const char *sty = mg_cl_vtype(fp16, (int)sv);
    mg_sb_printf(o, "    for (int j = 0; j < %lld; j++) {\n"
                    "        if (wo0 + j >= %lld) break;\n"
                    "        for (int c = 0; c < %lld; c += %lld) {\n", TW, (long long)g.Wo, TC,
                 (long long)sv);
    char v[256];
    if (s->depthwise) {
        if (sv == V) snprintf(v, sizeof v, "acc[j * %lld + c / %lld]", TC / V, V);
        else if (sv == 4 && V == 8)
            snprintf(v, sizeof v, "((c %% 8) ? acc[j * %lld + c / 8].hi : acc[j * %lld + c / 8].lo)",
                     TC / 8, TC / 8);
        else if (sv == 4 && V == 2)
            snprintf(v, sizeof v, "(%s)(acc[j * %lld + c / 2], acc[j * %lld + c / 2 + 1])", sty,
                     TC / 2, TC / 2);
        else if (sv == 4 && V == 1)
            snprintf(v, sizeof v, "(%s)(acc[j * %lld + c], acc[j * %lld + c + 1], acc[j * %lld + c + 2], "
                     "acc[j * %lld + c + 3])", sty, TC, TC, TC, TC);
        else if (V == 2)    /* sv == 1: one lane of a float2 */
            snprintf(v, sizeof v, "((c %% 2) ? acc[j * %lld + c / 2].y : acc[j * %lld + c / 2].x)",
                     TC / 2, TC / 2);
        else
            snprintf(v, sizeof v, "acc[j * %lld + c]", TC);               /* sv == V == 1 */
    } else if (sv == 4) {
        snprintf(v, sizeof v, "(%s)(acc[j * %lld + c], acc[j * %lld + c + 1], acc[j * %lld + c + 2], "
                 "acc[j * %lld + c + 3])", sty, TC, TC, TC, TC);
    } else {
        snprintf(v, sizeof v, "acc[j * %lld + c]", TC);
    }
    mg_sb_puts(o, "            ");
    if (g.img_y) {
        snprintf(e1, sizeof e1, "(wo0 + j) * %lld + (co0 + c) / 4", (long long)g.cout4);
        mg_cl_wr(o, k, TY, SITE_Y, e1, "ho", v, fp16);
    } else {
        snprintf(e1, sizeof e1, "(ho * %lld + wo0 + j) * %lld + co0 + c", (long long)g.Wo,
                 (long long)s->Cout);
        mg_cl_st(o, k, TY, SITE_Y, e1, (int)sv, v, fp16);
    }
    mg_sb_puts(o, "\n        }\n    }\n}\n");
}

/* ---- trace ----------------------------------------------------------------- */

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    conv_geom g;
    geom(s, &g);
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    uint32_t xw = (uint32_t)(g.V * g.eb);
    mg_lmask item = {{0, 0}};               /* lanes that are real work items */
    int64_t wo0[MG_TRACE_MAX_LANES], co0[MG_TRACE_MAX_LANES], ho[MG_TRACE_MAX_LANES];
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (w->gid[0][l] >= g.nz || w->gid[1][l] >= g.nx || w->gid[2][l] >= g.Ho) continue;
        mg_lm_set(&item, l);
        co0[l] = w->gid[0][l] * g.TC;
        wo0[l] = w->gid[1][l] * g.TW;
        ho[l] = w->gid[2][l];
    }
    if (!item.m[0] && !item.m[1]) return;
    /* pixel j valid per lane */
    mg_lmask pix[256];
    for (int64_t j = 0; j < g.TW; j++) {
        pix[j] = (mg_lmask){{0, 0}};
        for (uint32_t l = 0; l < w->lanes; l++)
            if (mg_lm_get(&item, l) && wo0[l] + j < g.Wo) mg_lm_set(&pix[j], l);
    }
    int64_t clen = s->depthwise ? g.TC : s->Cin;
    for (int64_t o1 = 0; o1 < s->K; o1++)
        for (int64_t o2 = 0; o2 < s->K; o2++) {
            int64_t ky = s->pattern == MG_PAT_ROW ? o1 : o2;
            int64_t kx = s->pattern == MG_PAT_ROW ? o2 : o1;
            for (int64_t ci = 0; ci < clen; ci += g.V) {
                for (int64_t j = 0; j < g.TW; j++) {
                    mg_emit_mem(w, g.img_x ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_X, TX, xw);
                    for (uint32_t l = 0; l < w->lanes; l++) {
                        if (!mg_lm_get(&pix[j], l)) continue;
                        int64_t hi = ho[l] * s->stride - s->pad + ky;
                        int64_t wi = (wo0[l] + j) * s->stride - s->pad + kx;
                        if (hi < 0 || hi >= s->H || wi < 0 || wi >= s->W) continue;
                        int64_t c = s->depthwise ? co0[l] + ci : ci;
                        if (g.img_x) mg_emit_lane(w, l, wi * g.cin4 + c / 4, hi);
                        else mg_emit_lane(w, l, ((hi * s->W + wi) * s->Cin + c) * g.eb, 0);
                    }
                    mg_emit_put(w);
                }
                int64_t nw = s->depthwise ? 1 : g.TC;
                for (int64_t c = 0; c < nw; c++) {
                    mg_emit_mem(w, g.img_w ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_W, TW_, xw);
                    for (uint32_t l = 0; l < w->lanes; l++) {
                        if (!mg_lm_get(&item, l)) continue;
                        if (s->depthwise) {
                            int64_t ch = co0[l] + ci;
                            if (g.img_w) mg_emit_lane(w, l, kx * g.cin4 + ch / 4, ky);
                            else mg_emit_lane(w, l, ((ky * s->K + kx) * s->Cin + ch) * g.eb, 0);
                        } else {
                            int64_t co = co0[l] + c;
                            if (g.img_w) mg_emit_lane(w, l, kx * g.cin4 + ci / 4, co * s->K + ky);
                            else mg_emit_lane(w, l, (((co * s->K + ky) * s->K + kx) * s->Cin + ci) *
                                                    g.eb, 0);
                        }
                    }
                    mg_emit_put(w);
                }
                for (int64_t j = 0; j < g.TW; j++) {
                    if (s->depthwise)
                        mg_emit_alu(w, pix[j].m, SITE_FMA, cls, (int)g.V, 1, 2);
                    else
                        mg_emit_alu(w, pix[j].m, SITE_FMA, cls, (int)g.V, (uint32_t)g.TC, 2);
                }
            }
        }
    int64_t sv = (g.img_y || g.TC % 4 == 0) ? 4 : 1;
    for (int64_t j = 0; j < g.TW; j++)
        for (int64_t c = 0; c < g.TC; c += sv) {
            mg_emit_mem(w, g.img_y ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE, SITE_Y, TY,
                        (uint32_t)(sv * g.eb));
            for (uint32_t l = 0; l < w->lanes; l++) {
                if (!mg_lm_get(&pix[j], l)) continue;
                int64_t wo = wo0[l] + j, co = co0[l] + c;
                if (g.img_y) mg_emit_lane(w, l, wo * g.cout4 + co / 4, ho[l]);
                else mg_emit_lane(w, l, ((ho[l] * g.Wo + wo) * s->Cout + co) * g.eb, 0);
            }
            mg_emit_put(w);
        }
}

static void trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                     mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}

/* ---- reference ------------------------------------------------------------- */

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    conv_geom g;
    geom(s, &g);
    const float *x = h->f[TX], *wt = h->f[TW_];
    float *y = h->f[TY];
    for (int64_t ho = 0; ho < g.Ho; ho++)
        for (int64_t wo = 0; wo < g.Wo; wo++)
            for (int64_t co = 0; co < s->Cout; co++) {
                double acc = 0;
                for (int64_t ky = 0; ky < s->K; ky++)
                    for (int64_t kx = 0; kx < s->K; kx++) {
                        int64_t hi = ho * s->stride - s->pad + ky;
                        int64_t wi = wo * s->stride - s->pad + kx;
                        if (hi < 0 || hi >= s->H || wi < 0 || wi >= s->W) continue;
                        if (s->depthwise) {
                            acc += (double)x[(hi * s->W + wi) * s->Cin + co] *
                                   wt[(ky * s->K + kx) * s->Cin + co];
                        } else {
                            for (int64_t ci = 0; ci < s->Cin; ci++)
                                acc += (double)x[(hi * s->W + wi) * s->Cin + ci] *
                                       wt[((co * s->K + ky) * s->K + kx) * s->Cin + ci];
                        }
                    }
                y[(ho * g.Wo + wo) * s->Cout + co] = (float)acc;
            }
}

const mg_op mg_op_conv2d = {
    "conv2d", "2D convolution KxK, stride, padding, depthwise (NHWC)", keys,
    "layout layout_in layout_w layout_out tile wg pattern vec storage compute unroll warp seed",
    defaults, check, plan, emit_cl, trace_wg, NULL, reference,
};
