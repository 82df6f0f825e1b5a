/*
 * ewise.c - the activations and the elementwise kernel of add and act
 * (ewise.h).
 *
 * The kernel: X0 [, X1] and Y are [1, H, W, C] (NHWC; as images, C packed
 * 4 per RGBA texel, width W*C/4, height H).  Item g < H*W*C/vec takes the
 * chunk of `vec` channels g (a texel for images: pixel p = g / (C/4),
 * texel x = (p % W) * (C/4) + g % (C/4), y = p / W), loads it from each
 * input, adds them (add), applies the activation and stores it.  Items
 * past the tensor return at once.  Launch 1D, wg = X,1,1.
 *
 * Flops: (nin - 1) adds plus the activation's flops per element, what the
 * trace's ALU records sum to.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"
#include "traces/ops/ewise.h"

#include <math.h>
#include <stdio.h>

enum { SITE_ADDR = 1, SITE_LOAD, SITE_ADD, SITE_ACT, SITE_STORE };

const char *const mg_gact_names[] = {"none", "relu", "relu6", NULL};

int mg_gact_flops(int act)
{
    return act == MG_GACT_RELU ? 1 : act == MG_GACT_RELU6 ? 2 : 0;
}

void mg_gact_cl(mg_sb *o, int act, const char *ind, const char *vt, const char *v)
{
    if (act == MG_GACT_NONE) return;
    mg_sb_printf(o, "%s%s = fmax(%s, (%s)(0));\n", ind, v, v, vt);
    if (act == MG_GACT_RELU6) mg_sb_printf(o, "%s%s = fmin(%s, (%s)(6));\n", ind, v, v, vt);
}

void mg_gact_trace(mg_warp *w, const uint64_t *mask, int site, int cls, int vec, int act)
{
    for (int i = 0; i < mg_gact_flops(act); i++) mg_emit_alu(w, mask, site, cls, vec, 1, 1);
}

float mg_gact_ref(int act, float v)
{
    if (act == MG_GACT_NONE) return v;
    v = fmaxf(v, 0.0f);
    return act == MG_GACT_RELU6 ? fminf(v, 6.0f) : v;
}

void mg_ew_defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->vec = 4;
}

void mg_ew_check(const mg_schedule *s, const char *op, const char *where, mg_diag *d)
{
    int any_image = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE ||
                    s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: %s: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where, op,
                      (long long)s->vec);
    else if (any_image && s->vec != 4)
        mg_diag_error(d, "%s: %s: vec=%lld with an image: a texel holds 4 channels, so vec "
                      "must be 4", where, op, (long long)s->vec);
    else if (s->C % s->vec)
        mg_diag_error(d, "%s: %s: C=%lld is not a multiple of vec=%lld", where, op,
                      (long long)s->C, (long long)s->vec);
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: %s: the launch is 1D: wg must be X,1,1", where, op);
}

static int64_t n_chunks(const mg_schedule *s) { return s->H * s->W * s->C / s->vec; }

void mg_ew_plan(const mg_schedule *s, mg_kernel *k, int nin, const char *name)
{
    static const char *const in_names[] = {"A", "B"};
    snprintf(k->name, sizeof k->name, "%s", name);
    int dt = mg_plan_dtype(s);
    for (int i = 0; i < nin; i++)
        mg_plan_arg_tensor(k, mg_plan_tensor(k, nin == 1 ? "X" : in_names[i], MG_TENSOR_IN,
                                             mg_plan_layout(s, MG_ROLE_IN), dt, 4,
                                             MG_INIT_RANDOM, 1, s->H, s->W, s->C));
    mg_plan_arg_tensor(k, mg_plan_tensor(k, "Y", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT),
                                         dt, 4, MG_INIT_ZERO, 1, s->H, s->W, s->C));
    int64_t items[3] = {n_chunks(s), 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int eb = mg_sched_elem_bytes(s);
    k->f.regs_per_item = nin * (s->compute == MG_PREC_FP16 ? (s->vec + 1) / 2 : s->vec) + 4;
    k->f.loop_iters = 1;
    k->f.bytes_per_iter = nin * s->vec * eb;
    k->f.bytes_per_item = nin * s->vec * eb;
    k->f.flops = (double)(s->H * s->W * s->C) * (double)(nin - 1 + mg_gact_flops(s->act));
    k->f.local_bytes = 0;
    k->f.access_width = s->vec * eb;
    k->f.boundary_checks = k->global[0] != n_chunks(s);
    k->log_cap = nin + 1;
}

void mg_ew_emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16, nin = k->n_tensors - 1;
    const char *vt = mg_cl_vtype(fp16, (int)s->vec);
    long long CQ = (long long)(s->C / 4), W = (long long)s->W;
    int any_img = 0;
    for (int i = 0; i < k->n_tensors; i++) any_img |= k->t[i].layout == MG_TL_IMAGE;
    char e[64];
    snprintf(e, sizeof e, "g * %lld", (long long)s->vec);
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int g = get_global_id(0);\n    if (g >= %lld) return;\n",
                 (long long)n_chunks(s));
    if (any_img)
        mg_sb_printf(o, "    const int p = g / %lld, x = (p %% %lld) * %lld + g %% %lld, "
                        "y = p / %lld;\n", CQ, W, CQ, CQ, W);
    for (int i = 0; i < nin; i++) {
        mg_sb_printf(o, i ? "    v = v + " : "    %s v = ", vt);
        if (k->t[i].layout == MG_TL_IMAGE) mg_cl_rd(o, k, i, SITE_LOAD, "x", "y", fp16);
        else mg_cl_ld(o, k, i, SITE_LOAD, e, (int)s->vec, fp16);
        mg_sb_puts(o, ";\n");
    }
    mg_gact_cl(o, s->act, "    ", vt, "v");
    mg_sb_puts(o, "    ");
    if (k->t[nin].layout == MG_TL_IMAGE) mg_cl_wr(o, k, nin, SITE_STORE, "x", "y", "v", fp16);
    else mg_cl_st(o, k, nin, SITE_STORE, e, (int)s->vec, "v", fp16);
    mg_sb_puts(o, "\n}\n");
}

/* One access of tensor ti (a load or Y's store) by the valid lanes. */
static void trace_access(mg_warp *w, const mg_schedule *s, int ti, int store,
                         const uint64_t valid[2])
{
    const mg_kernel *k = w->k;
    int img = k->t[ti].layout == MG_TL_IMAGE, eb = mg_sched_elem_bytes(s);
    int type = img ? (store ? MG_REC_IMG_WRITE : MG_REC_TEX_READ)
                   : (store ? MG_REC_BUF_STORE : MG_REC_BUF_LOAD);
    int site = store ? SITE_STORE : SITE_LOAD;
    uint32_t width = (uint32_t)(s->vec * eb);
    if (!img && !w->lanewise) {        /* chunk g of local x: wg0 + x */
        mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        f.at[0] = (int64_t)w->wg[0] * k->local[0] * s->vec * eb;
        f.dx[0] = s->vec * eb;
        mg_emit_aff(w, type, site, ti, width, valid, &f);
        return;
    }
    int64_t CQ = s->C / 4;
    mg_emit_mem(w, type, site, ti, width);
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l], p = g / CQ;
        if (img) mg_emit_lane(w, l, (p % s->W) * CQ + g % CQ, p / s->W);
        else mg_emit_lane(w, l, g * s->vec * eb, 0);
    }
    mg_emit_put(w);
}

void mg_ew_warp_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    const mg_kernel *k = w->k;
    int nin = k->n_tensors - 1, cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int any_img = 0;
    for (int i = 0; i < k->n_tensors; i++) any_img |= k->t[i].layout == MG_TL_IMAGE;
    int64_t nc = n_chunks(s);
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < nc) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    if (!valid[0] && !valid[1]) return;        /* such items returned at once */
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, any_img ? 5 : 1, 0);
    for (int i = 0; i < nin; i++) {
        trace_access(w, s, i, 0, valid);
        if (i) mg_emit_alu(w, valid, SITE_ADD, cls, (int)s->vec, 1, 1);
    }
    mg_gact_trace(w, valid, SITE_ACT, cls, (int)s->vec, s->act);
    trace_access(w, s, nin, 1, valid);
}

void mg_ew_trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                    mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, mg_ew_warp_body, s);
}

void mg_ew_reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    int nin = k->n_tensors - 1, half = s->compute == MG_PREC_FP16;
    int64_t n = mg_tensor_elems(&k->t[0]);
    for (int64_t e = 0; e < n; e++) {
        float v = h->f[0][e];
        for (int i = 1; i < nin; i++) {
            v += h->f[i][e];
            if (half) v = mg_round_half(v);
        }
        h->f[nin][e] = mg_gact_ref(s->act, v);
    }
}
