/*
 * concat.c - concatenation along channels of 2 to 7 tensors, NHWC (the
 * Inception and SqueezeNet joins):
 *
 *   X0 [1, H, W, C0], ..., Xn-1 [1, H, W, Cn-1] -> Y [1, H, W, C0 + ... + Cn-1]
 *
 * with the key C=C0,C1,... (each a multiple of vec, so a chunk of vec
 * channels lies in one input).  One work item copies one output chunk of
 * `vec` channels (a texel for images): item g < H*W*CQ, CQ = Ctot/vec,
 * takes q = g % CQ, pixel p = g / CQ, finds the input i whose chunks
 * [Qi, Qi + Ci/vec) hold q in an if / else-if chain over the inputs in
 * order, loads chunk q - Qi of pixel p from it and stores Y's chunk g.  As
 * images (vec 4): X_i's texel (p % W) * Ci/4 + q - Qi, row p / W.  A warp
 * whose items straddle inputs issues each branch's load for its own
 * lanes.  Launch 1D, wg=X,1,1; items past the output return at once.
 *
 * Flops: none.  The tensors take X_i's and Y's layouts from layout_in
 * (every input) and layout_out.
 */
#include "traces/gen/clemit.h"
#include "traces/gen/emit.h"
#include "traces/gen/op.h"
#include "traces/gen/plan.h"

#include <stdio.h>

enum { SITE_ADDR = 1, SITE_LOAD, SITE_STORE };
/* At most 7 inputs (Inception-V3 needs 6): with the output within the
 * kernel's tensors, and within C's list of at most 8 values. */
#define MAX_IN 7
_Static_assert(MAX_IN < MG_MAX_TENSORS && MAX_IN <= MG_SCHED_MAX_STRIDES,
               "concat's inputs, its output and C's list must fit");

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 4096, "8", "height"),
    MG_KEY_INT("W", W, 1, 4096, "8", "width"),
    MG_KEY_INTS("C", MG_K_LIST, nparts, 1, 8192, "8,8",
                "the inputs' channels, joined in this order (2 to 7 inputs)"),
    MG_KEY_END,
};

static void defaults(mg_schedule *s)
{
    s->wg[0] = 64;
    s->wg[1] = s->wg[2] = 1;
    s->vec = 4;
}

static int64_t c_total(const mg_schedule *s)
{
    int64_t t = 0;
    for (int64_t i = 0; i < s->nparts; i++) t += s->parts[i];
    return t;
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    int any_image = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE ||
                    s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    if (s->nparts < 2 || s->nparts > MAX_IN)
        mg_diag_error(d, "%s: concat: C lists the channels of %lld input%s: concat joins 2 to "
                      "%d inputs", where, (long long)s->nparts, s->nparts == 1 ? "" : "s",
                      MAX_IN);
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: concat: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    else if (any_image && s->vec != 4)
        mg_diag_error(d, "%s: concat: vec=%lld with an image: a texel holds 4 channels, so vec "
                      "must be 4", where, (long long)s->vec);
    else
        for (int64_t i = 0; i < s->nparts; i++)
            if (s->parts[i] % s->vec) {
                mg_diag_error(d, "%s: concat: input %lld's C=%lld is not a multiple of vec=%lld "
                              "(a chunk must lie in one input)", where, (long long)i,
                              (long long)s->parts[i], (long long)s->vec);
                break;
            }
    if (s->wg[1] != 1 || s->wg[2] != 1)
        mg_diag_error(d, "%s: concat: the launch is 1D: wg must be X,1,1", where);
    return d->n == before ? 0 : -1;
}

static int64_t n_chunks(const mg_schedule *s) { return s->H * s->W * c_total(s) / s->vec; }

static void plan(const mg_schedule *s, mg_kernel *k)
{
    snprintf(k->name, sizeof k->name, "concat");
    int dt = mg_plan_dtype(s);
    for (int i = 0; i < (int)s->nparts; i++) {
        char name[16];
        snprintf(name, sizeof name, "X%d", i);
        mg_plan_arg_tensor(k, mg_plan_tensor(k, name, MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN),
                                             dt, 4, MG_INIT_RANDOM, 1, s->H, s->W, s->parts[i]));
    }
    mg_plan_arg_tensor(k, mg_plan_tensor(k, "Y", MG_TENSOR_OUT, mg_plan_layout(s, MG_ROLE_OUT),
                                         dt, 4, MG_INIT_ZERO, 1, s->H, s->W, c_total(s)));
    int64_t items[3] = {n_chunks(s), 1, 1};
    mg_plan_ndrange(k, 1, items, s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int eb = mg_sched_elem_bytes(s);
    k->f.regs_per_item = (s->compute == MG_PREC_FP16 ? (s->vec + 1) / 2 : s->vec) + 6;
    k->f.loop_iters = 1;
    k->f.bytes_per_iter = s->vec * eb;
    k->f.bytes_per_item = s->vec * eb;
    k->f.flops = 0;
    k->f.local_bytes = 0;
    k->f.access_width = s->vec * eb;
    k->f.boundary_checks = k->global[0] != n_chunks(s);
    k->log_cap = 2;
}

/* One branch: input i's load of chunk q - q0 of pixel p into v. */
static void emit_branch(const mg_schedule *s, const mg_kernel *k, int64_t i, int64_t q0,
                        mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long Ci = (long long)s->parts[i], V = (long long)s->vec;
    char x[96], e[96];
    mg_sb_puts(o, "v = ");
    if (k->t[i].layout == MG_TL_IMAGE) {
        snprintf(x, sizeof x, "(p %% %lld) * %lld + q - %lld", (long long)s->W, Ci / 4,
                 (long long)q0);
        snprintf(e, sizeof e, "p / %lld", (long long)s->W);
        mg_cl_rd(o, k, (int)i, SITE_LOAD, x, e, fp16);
    } else {
        snprintf(e, sizeof e, "p * %lld + (q - %lld) * %lld", Ci, (long long)q0, V);
        mg_cl_ld(o, k, (int)i, SITE_LOAD, e, (int)V, fp16);
    }
    mg_sb_puts(o, ";\n");
}

static void emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16, n = (int)s->nparts;
    long long CQ = (long long)(c_total(s) / s->vec), W = (long long)s->W;
    mg_cl_signature(k, o);
    mg_sb_printf(o, "    const int g = get_global_id(0);\n    if (g >= %lld) return;\n"
                    "    const int q = g %% %lld, p = g / %lld;\n    %s v;\n",
                 (long long)n_chunks(s), CQ, CQ, mg_cl_vtype(fp16, (int)s->vec));
    int64_t q0 = 0;
    for (int i = 0; i < n; i++) {
        int64_t q1 = q0 + s->parts[i] / s->vec;
        if (i == 0) mg_sb_printf(o, "    if (q < %lld) ", (long long)q1);
        else if (i < n - 1) mg_sb_printf(o, "    else if (q < %lld) ", (long long)q1);
        else mg_sb_puts(o, "    else ");
        emit_branch(s, k, i, q0, o);
        q0 = q1;
    }
    mg_sb_puts(o, "    ");
    if (k->t[n].layout == MG_TL_IMAGE) {
        char x[64], y[64];
        snprintf(x, sizeof x, "(p %% %lld) * %lld + q", W, CQ);
        snprintf(y, sizeof y, "p / %lld", W);
        mg_cl_wr(o, k, n, SITE_STORE, x, y, "v", fp16);
    } else {
        char e[64];
        snprintf(e, sizeof e, "g * %lld", (long long)s->vec);
        mg_cl_st(o, k, n, SITE_STORE, e, (int)s->vec, "v", fp16);
    }
    mg_sb_puts(o, "\n}\n");
}

/* Input i's load for its lanes (chunks [q0, q0 + Ci/vec) of their pixels). */
static void trace_branch(mg_warp *w, const mg_schedule *s, int64_t i, int64_t q0,
                         const uint64_t valid[2])
{
    const mg_kernel *k = w->k;
    int img = k->t[i].layout == MG_TL_IMAGE, eb = mg_sched_elem_bytes(s);
    int64_t CQ = c_total(s) / s->vec, Qi = s->parts[i] / s->vec;
    mg_emit_mem(w, img ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, SITE_LOAD, (int)i,
                (uint32_t)(s->vec * eb));
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l], q = g % CQ, p = g / CQ;
        if (q < q0 || q >= q0 + Qi) continue;
        if (img) mg_emit_lane(w, l, (p % s->W) * Qi + q - q0, p / s->W);
        else mg_emit_lane(w, l, (p * s->parts[i] + (q - q0) * s->vec) * eb, 0);
    }
    mg_emit_put(w);
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    const mg_kernel *k = w->k;
    int n = (int)s->nparts, img = k->t[n].layout == MG_TL_IMAGE, eb = mg_sched_elem_bytes(s);
    int64_t nc = n_chunks(s), CQ = c_total(s) / s->vec;
    uint64_t valid[2] = {0, 0};
    for (uint32_t l = 0; l < w->lanes; l++)
        if (w->gid[0][l] < nc) valid[l >> 6] |= (uint64_t)1 << (l & 63);
    if (!valid[0] && !valid[1]) return;        /* such items returned at once */
    mg_emit_alu(w, valid, SITE_ADDR, MG_ALU_INT, 1, 3, 0);
    int64_t q0 = 0;
    for (int64_t i = 0; i < n; i++) {
        trace_branch(w, s, i, q0, valid);
        q0 += s->parts[i] / s->vec;
    }
    uint32_t width = (uint32_t)(s->vec * eb);
    if (!img && !w->lanewise) {        /* Y's chunk g of local x: wg0 + x */
        mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        f.at[0] = (int64_t)w->wg[0] * k->local[0] * s->vec * eb;
        f.dx[0] = s->vec * eb;
        mg_emit_aff(w, MG_REC_BUF_STORE, SITE_STORE, n, width, valid, &f);
        return;
    }
    mg_emit_mem(w, img ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE, SITE_STORE, n, width);
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!((valid[l >> 6] >> (l & 63)) & 1)) continue;
        int64_t g = w->gid[0][l];
        if (img) mg_emit_lane(w, l, ((g / CQ) % s->W) * CQ + g % CQ, (g / CQ) / s->W);
        else mg_emit_lane(w, l, g * s->vec * eb, 0);
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
    int n = (int)s->nparts;
    int64_t C = c_total(s);
    for (int64_t p = 0; p < s->H * s->W; p++) {
        int64_t c0 = 0;
        for (int i = 0; i < n; i++) {
            for (int64_t c = 0; c < s->parts[i]; c++)
                h->f[n][p * C + c0 + c] = h->f[i][p * s->parts[i] + c];
            c0 += s->parts[i];
        }
    }
}

const mg_op mg_op_concat = {
    .name = "concat",
    .summary = "concatenation of 2 to 7 tensors along channels, C=C0,C1,... (NHWC)",
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
