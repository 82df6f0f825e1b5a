/*
 * conv2d.c - 2D convolution, KxK, stride, zero padding, optionally
 * depthwise; NHWC activations (romou Fig 4 and 10; tmmodel Conv2D/DwConv2D).
 * This file: keys, check(), the plan and static features, the reference;
 * the OpenCL text is conv2d_cl.c, the trace conv2d_trace.c (conv2d.h).
 *
 *   X [1, H, W, Cin] -> Y [1, Ho, Wo, Cout],  Ho = (H + 2 pad - K) / stride + 1
 *   weights: standard  [Cout, K, K, Cin]   (image: a texel holds 4 Cin of one Cout)
 *            depthwise [1, K, K, C]        (Cin = Cout = C)
 *
 * One work item computes tile=TWxTC: TW output pixels along W times TC
 * output channels (romou's 4x4 coarsening is tile=4x4 with 4-channel texels).
 * NDRange (Cout/TC, ceil(Wo/TW), Ho x split): neighbouring items in x share
 * their input pixels and differ in output channels, so a warp's input reads
 * coincide (broadcast) and its weight reads are adjacent texels.  The
 * reduction walks the KxK window (pattern=row: kx fastest; column: ky
 * fastest) and the input channels V at a time, V = 4 (a texel) when the
 * input or weights are images, else vec:
 *
 *   for (ky, kx) for (ci = c0; ci < c0 + CS; ci += V) {
 *       xv[j] = X[ho*s - pad + ky][(wo0+j)*s - pad + kx][ci..ci+V)  (0 outside)
 *       wv[c] = Wt[co0+c][ky][kx][ci..ci+V)
 *       acc[j][c] += dot(xv[j], wv[c])            (depthwise: acc += xv * wv)
 *   }
 *
 * then each valid pixel stores its TC channels (texels of 4, or vectors of 4
 * for buffers when TC % 4 == 0, else scalars).  Output pixels past Wo are
 * masked (boundary checks); padding positions load nothing but still count
 * as flops.
 *
 * Loop order (vec_axis; cin is the default and quiet): cin is the loop
 * above, vectors of V input channels and dot products.  vec_axis=cout is
 * TVM's Mali spatial-pack order (topi/mali/conv2d.py): the channel loop
 * steps one input channel at a time, an input value is a scalar broadcast
 * against vectors of V = vec output channels, and the accumulators are
 * TW x TC/V such vectors:
 *
 *   for (ky, kx) for (ci = c0; ci < c0 + CS; ci++) {
 *       xv[j] = X[ho*s - pad + ky][(wo0+j)*s - pad + kx][ci]      (a scalar)
 *       wv[c] = Wt[co0 + c*V .. co0 + c*V + V)[ky][kx][ci]          c < TC/V
 *       acc[j][c] += xv[j] * wv[c]                                   (V wide)
 *   }
 *
 * It takes a standard conv with buffer input and weights, layout_w=packed
 * (the weights [Cout/TC][K][K][Cin][TC], so each wv[c] is one vload of V),
 * and TC a multiple of vec; the stores and the split's partial tiles read
 * the vector accumulators as a depthwise conv's.  What still differs from
 * TVM's kernel: the taps are the outer loop and the input channels the
 * inner (TVM: channels outer, [kc, kh, kw]); X is NHWC as the generator's
 * unless pack_in is set (below); an item computes one row (TVM: VH rows).
 *
 * Packed input (pack_in; 0 is the default and quiet): pack_in=1 makes X
 * TVM's data_vec (topi/arm_cpu/conv2d_spatial_pack.py, which the Mali
 * schedule reuses), each output tile's padded input window per input
 * channel, [Ho][nx][Cin][PH][PW] with PH = stride + K - 1 rows (TVM's
 * VH stride + K - 1 with VH = 1, the generator's item being one row) and
 * PW = TW stride + K - 1 columns: element (ky, kx) of pixel j is
 * X[((ho nx + gx) Cin + ci) PH PW + ky PW + j stride + kx].  One item's
 * reads of a channel are one window, adjacent; the padding is stored in
 * data_vec, so the kernel reads every tap of a valid pixel (no bounds
 * check; loads where the NHWC kernel skips).  Tiles overlap by K -
 * stride columns (and rows), which data_vec stores twice.  The host fills
 * X as TVM's packing would from one NHWC input (init(): zeros in the
 * padding), so the kernel is a true convolution.  It takes vec_axis=cout
 * (one scalar of a channel a step) and takes TVM's loop order with it,
 * the input channels outside the taps ([kc, kh, kw]: per channel, the
 * item walks its window), and the weights packed as TVM's kernel_vec,
 * [Cout/TC][Cin][K][K][TC] (layout_w=packed's taps and channels
 * swapped, so that they stay one rising stream).  Features, registers
 * and flops are the NHWC kernel's.  pack_in=2 adds TVM's packing kernel as a pre-pass
 * of the same launch: after its ids, each item copies channels gz, gz +
 * nz, ... < Cin of its tile's window (rows ho stride - pad + r, columns
 * gx TW stride - pad + c) from the NCHW input XS [1][Cin][H][W] (one
 * scalar load where inside it, none in the padding) into P, data_vec's
 * layout (one scalar store each), so the launch moves the packing
 * kernel's bytes: every data_vec element written once, its reads spread
 * over the output tile's nz items as TVM spreads them over its Cin
 * threads per tile.  The convolution then reads X, a second tensor (the
 * items cannot wait for other work groups' packing), so the model sees
 * the pack's traffic and instructions but not TVM's launch boundary: a
 * group's pre-pass overlaps other groups' convolutions, and P's writes do
 * not warm the lines the convolution reads.  split=1 only.
 *
 * Reduction split (romou 4.2: more items share a reduction, which raises
 * the parallelism of small layers): split=S puts S items on each output
 * tile, in one work group: wg=X,Y,R*S holds R output rows of S items each,
 * local id z = s*R + r (s = the split index, slowest), ho = group z * R + r,
 * so z of the NDRange is Ho*S.  A standard conv splits the input channels:
 * item s reduces channels c0 = s*CS .. c0+CS-1, CS = Cin/S, over the whole
 * window (Cin must be a multiple of S*V).  A depthwise conv's only
 * reduction is the window (channels are independent), so it splits the
 * K*K taps in walk order: item s takes taps s*TT .. s*TT+TT-1, TT = K*K/S
 * (S must divide K*K: a 3x3 window splits 3 ways, one window row (row) or
 * column (column) per item, or 9 ways).  After its slice, item s > 0
 * stores its partial tile to local memory as floats, red[((s-1)*G + lid)*
 * TW*TC + j*TC + c] (G = X*Y*R items per split slice, lid = (r*Y + ly)*X +
 * lx), LW values at a time (standard: 4 when TC % 4 == 0, else 1;
 * depthwise: V, its accumulators being V wide); every item, edge items
 * included, reaches barrier(CLK_LOCAL_MEM_FENCE) (no early return: items
 * outside the output skip the work through a flag); item 0 then adds the
 * S-1 partials (s ascending) and stores Y.  split=1 is the kernel without
 * any of this (and the same text and trace as before split existed).
 *
 * Features: loop_iters = main-loop iterations per item (K*K*CS/V standard,
 * K*K*CS with vec_axis=cout, TT*TC/V depthwise); bytes_per_iter = one
 * iteration's loads, TW*V + TC*V elements (depthwise TW*V + V; cout TW +
 * TC); regs_per_item = the live 32-bit values
 * regs_per_item() counts (the accumulators, the loads held, addresses, loop
 * values; see there and mg_plan_regs).
 * local_bytes = (S-1) * G * TW*TC * 4.  wg_bytes_per_iter = the group's
 * distinct loads per iteration: items with the same (gx, z) read the same
 * input pixels, items with the same (gz, s) the same weights.  log_cap =
 * iters*(TW + weight loads) + (S-1)*TW*TC/LW local loads + TW*TC (stores,
 * a bound) for item s = 0, the busiest; LW is V with vec_axis=cout;
 * pack_in=2 adds the pre-pass's 2 ceil(Cin/nz) PH PW.
 *
 * Epilogue (bias=1, act=relu|relu6; THOMAS's and the frameworks' fused
 * conv + bias + activation): each stored vector of SV channels at co0 + c
 * first loads SV values of the bias B [1, 1, 1, Cout] (a buffer) at
 * co0 + c and adds them, then applies the activation (ewise.h), then
 * stores.  bias=0 act=none is the kernel without any of this (the same
 * text and trace), and those keys are quiet at their defaults, so such a
 * schedule's canonical text has neither.
 *
 * Launch (launch=flat; grid is the default and quiet): the items of the
 * split=1 grid launch with work groups box=X,Y,Z, as one 1D NDRange in
 * work groups of wg's x (wg=X',1,1 when set; the default 8,8,1 gives 8),
 * so that the kernel can be a sub-kernel of `fuse` (parallel fusion takes
 * 1D launches on get_global_id(0) alone).  Item f is local item l = f % B
 * (B = X Y Z, x fastest) of the grid's work group b = f / B (x fastest
 * over the G0 = ceil(nz/X), G1 = ceil(nx/Y), G2 = ceil(Ho/Z) groups):
 *
 *   gz = (b % G0) X + l % X,  gx = (b / G0 % G1) Y + l / X % Y,
 *   ho = b / (G0 G1) Z + l / (X Y)
 *
 * (16 integer instructions, traced at their own site), so each run of B
 * ids holds one grid work group's items in the grid's order and, with B
 * a multiple of the warp at a warp-aligned start, a warp holds exactly a
 * grid warp's items.  The range is G0 G1 G2 B items; items outside the
 * output return at once, like the grid's edge items.  The trace takes the
 * lane-by-lane path.
 *
 * Flops: a launch counts exactly 2 Ho Wo Cout Cin K K (depthwise 2 Ho Wo C
 * K K) plus (S-1) Ho Wo Cout adds combining partial sums, plus Ho Wo Cout
 * times (bias + the activation's flops) for the epilogue, which is what
 * the trace's ALU records sum to.
 */
#include "traces/gen/op.h"
#include "traces/gen/plan.h"
#include "traces/ops/conv2d.h"
#include "traces/ops/ewise.h"

#include <stdio.h>
#include <string.h>

#define MAX_LOCAL 32768         /* OpenCL 1.2's minimum local memory */
#define MAX_WG 1024             /* the most items of a work group we accept with split */

static const char *const launch_names[] = {"grid", "flat", NULL};
static const char *const vaxis_names[] = {"cin", "cout", NULL};   /* MG_CONV_VEC_* */

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 4096, "8", "input height"),
    MG_KEY_INT("W", W, 1, 4096, "8", "input width"),
    MG_KEY_INT("Cin", Cin, 1, 8192, "8", "input channels"),
    MG_KEY_INT("Cout", Cout, 1, 8192, "8", "output channels (= Cin if depthwise)"),
    MG_KEY_INT("K", K, 1, 15, "1", "kernel size KxK"),
    MG_KEY_INT("stride", stride, 1, 8, "1", "stride"),
    MG_KEY_INT("pad", pad, 0, 7, "0", "zero padding on each side"),
    MG_KEY_INT("depthwise", depthwise, 0, 1, "0", "1: one filter per channel"),
    MG_KEY_INT_QUIET("bias", bias, 0, 1, "0", "1: add a per-channel bias in the store"),
    MG_KEY_ENUM_QUIET("act", act, "none", mg_gact_names, "activation in the store"),
    MG_KEY_ENUM_QUIET("launch", mode, "grid", launch_names,
                      "grid: the 3D NDRange (Cout/TC, tiles along Wo, Ho x split); flat: the "
                      "grid's items (split=1, work groups box) as one 1D range, wg=X,1,1: "
                      "a `fuse` sub-kernel"),
    MG_KEY_ENUM_QUIET("vec_axis", vaxis, "cin", vaxis_names,
                      "a standard conv's vectors: cin, vec input channels of a pixel and of a "
                      "filter, dot products; cout, vec output channels of the weights times a "
                      "broadcast input scalar (TVM's Mali spatial pack; buffers, "
                      "layout_w=packed)"),
    MG_KEY_INT_QUIET("pack_in", pack_in, 0, 2, "0",
                     "1: the input is TVM's spatial-pack data_vec, each output tile's padded "
                     "window per input channel, [Ho][Wo/TW][Cin][stride+K-1][TW stride+K-1] "
                     "(vec_axis=cout); 2: the same, after a pre-pass in which each item packs "
                     "its share of data_vec from an NCHW input XS into P (TVM's packing "
                     "kernel's traffic; split=1)"),
    /* quiet like launch (no macro for a quiet TRIPLE); conv2d's only list */
    {.name = "box", .type = MG_K_TRIPLE, .off = offsetof(mg_schedule, strides), .min = 1,
     .max = 1024, .def = "1,1,1", .quiet = 1,
     .help = "launch=flat: the grid's work group X[,Y[,Z]] whose items each run of X*Y*Z "
             "ids holds"},
    MG_KEY_END,
};

void mg_conv_geom_of(const mg_schedule *s, mg_conv_geom *g)
{
    g->Ho = (s->H + 2 * s->pad - s->K) / s->stride + 1;
    g->Wo = (s->W + 2 * s->pad - s->K) / s->stride + 1;
    g->TW = s->tile[0];
    g->TC = s->tile[1];
    g->img_x = s->layout[MG_ROLE_IN] == MG_LAYOUT_IMAGE;
    g->img_w = s->layout[MG_ROLE_W] == MG_LAYOUT_IMAGE;
    g->img_y = s->layout[MG_ROLE_OUT] == MG_LAYOUT_IMAGE;
    g->pack_w = s->layout[MG_ROLE_W] == MG_LAYOUT_PACKED;
    g->V = (g->img_x || g->img_w) ? 4 : s->vec;
    g->cout = !s->depthwise && s->vaxis == MG_CONV_VEC_COUT;
    g->vacc = s->depthwise || g->cout;
    g->XV = g->cout ? 1 : g->V;
    g->nx = mg_ceil_div(g->Wo, g->TW);
    g->nz = s->Cout / g->TC;
    g->cin4 = s->Cin / 4;
    g->cout4 = s->Cout / 4;
    g->eb = mg_sched_elem_bytes(s);
    g->S = s->split;
    g->R = s->wg[2] / g->S;
    g->CS = s->Cin / g->S;
    g->TT = s->K * s->K / g->S;
    g->clen = s->depthwise ? g->TC : g->CS;
    g->nw = s->depthwise ? 1 : g->cout ? g->TC / g->V : g->TC;
    g->iters = s->depthwise ? g->TT * (g->TC / g->V) : s->K * s->K * (g->CS / g->XV);
    g->LW = g->vacc ? g->V : (g->TC % 4 == 0 ? 4 : 1);
    g->SV = (g->img_y || g->TC % 4 == 0) ? 4 : 1;
    g->flat = s->mode == MG_CONV_FLAT;
    g->pack_x = s->pack_in >= 1;
    g->prepass = s->pack_in == 2;
    g->tsrc = MG_CONV_TB + (int)s->bias;
    g->tpk = g->tsrc + 1;
    g->ptrips = g->nz > 0 ? mg_ceil_div(s->Cin, g->nz) : 0; /* nz 0: refused by check */
    g->PH = s->stride + s->K - 1;
    g->PW = g->TW * s->stride + s->K - 1;
    const int64_t ext[3] = {g->nz, g->nx, g->Ho};
    g->items = 1;
    for (int i = 0; i < 3; i++) {
        g->box[i] = s->strides[i] > 0 ? s->strides[i] : 1;
        g->ngrp[i] = mg_ceil_div(ext[i], g->box[i]);
        g->items *= g->ngrp[i] * g->box[i];
    }
}

int64_t mg_conv_w_index(const mg_schedule *s, const mg_conv_geom *g, int64_t co, int64_t ky,
                        int64_t kx, int64_t ci)
{
    if (!g->pack_w) return ((co * s->K + ky) * s->K + kx) * s->Cin + ci;
    if (g->pack_x)      /* TVM's kernel_vec [Cout/TC][Cin][K][K][TC] (channels outer) */
        return (((co / g->TC * s->Cin + ci) * s->K + ky) * s->K + kx) * g->TC + co % g->TC;
    int64_t tap = (co / g->TC * s->K + ky) * s->K + kx;
    return ((tap * (s->Cin / g->XV) + ci / g->XV) * g->TC + co % g->TC) * g->XV + ci % g->XV;
}

int64_t mg_conv_xp_index(const mg_schedule *s, const mg_conv_geom *g, int64_t ho, int64_t gx,
                         int64_t j, int64_t ky, int64_t kx, int64_t ci)
{
    return ((ho * g->nx + gx) * s->Cin + ci) * g->PH * g->PW + ky * g->PW + j * s->stride + kx;
}

int64_t mg_conv_local_bytes(const mg_schedule *s, const mg_conv_geom *g)
{
    return g->S > 1 ? (g->S - 1) * s->wg[0] * s->wg[1] * g->R * g->TW * g->TC * 4 : 0;
}

static void defaults(mg_schedule *s)
{
    s->wg[0] = 8;
    s->wg[1] = 8;
    s->wg[2] = 1;
    s->tile[0] = 1;
    s->tile[1] = 4;
}

/* The split's own conditions (split > 1; the load width is valid). */
static void check_split(const mg_schedule *s, const mg_conv_geom *g, const char *where,
                        mg_diag *d)
{
    long long S = (long long)g->S;
    if (s->wg[2] % g->S)
        mg_diag_error(d, "%s: conv2d: split=%lld needs wg=X,Y,R*%lld (R output rows per work "
                      "group: the split items of one output tile must be in one work group "
                      "to meet at its barrier), got wg z %lld", where, S, S,
                      (long long)s->wg[2]);
    if (s->depthwise && (s->K * s->K) % g->S)
        mg_diag_error(d, "%s: conv2d: depthwise: split=%lld must divide the %lldx%lld window's "
                      "%lld taps (a depthwise conv reduces only over the window: each split "
                      "item sums K*K/split taps)", where, S, (long long)s->K, (long long)s->K,
                      (long long)(s->K * s->K));
    if (!s->depthwise && s->Cin % g->XV == 0 && s->Cin % (g->S * g->XV))
        mg_diag_error(d, "%s: conv2d: Cin=%lld must be a multiple of split x load width = "
                      "%lld x %lld (each split item reduces Cin/split channels in whole loads)",
                      where, (long long)s->Cin, S, (long long)g->XV);
    int64_t items = s->wg[0] * s->wg[1] * s->wg[2];
    if (items > MAX_WG)
        mg_diag_error(d, "%s: conv2d: a work group of %lld items is more than %d", where,
                      (long long)items, MAX_WG);
    else if (s->wg[2] % g->S == 0 && mg_conv_local_bytes(s, g) > MAX_LOCAL)
        mg_diag_error(d, "%s: conv2d: split=%lld needs %lld bytes of local memory for the "
                      "partial tiles (more than %d)", where, S,
                      (long long)mg_conv_local_bytes(s, g), MAX_LOCAL);
}

/* vec_axis=cout's own conditions: a standard conv reading buffers, the
 * weights packed (a vector of output channels is contiguous only there),
 * the channel tile whole vectors. */
static void check_cout(const mg_schedule *s, const mg_conv_geom *g, const char *where,
                       mg_diag *d)
{
    if (s->depthwise) {
        mg_diag_error(d, "%s: conv2d: vec_axis=cout is for a standard conv (a depthwise "
                      "conv's vectors run along its channels already)", where);
        return;
    }
    if (g->img_x || g->img_w)
        mg_diag_error(d, "%s: conv2d: vec_axis=cout reads one input channel at a time and "
                      "vectors of output channels: layout_in and layout_w must be buffers "
                      "(a texel holds 4 input channels)", where);
    else if (!g->pack_w)
        mg_diag_error(d, "%s: conv2d: vec_axis=cout needs layout_w=packed (a vector of output "
                      "channels is contiguous only in the packed weights)", where);
    if (g->TC % g->V)
        mg_diag_error(d, "%s: conv2d: vec_axis=cout: the channel tile %lld must be a multiple "
                      "of vec=%lld", where, (long long)g->TC, (long long)g->V);
}

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    if (s->H + 2 * s->pad < s->K || s->W + 2 * s->pad < s->K)
        mg_diag_error(d, "%s: conv2d: the %lldx%lld kernel is larger than the padded input",
                      where, (long long)s->K, (long long)s->K);
    if (g.pack_w && s->depthwise)
        mg_diag_error(d, "%s: conv2d: layout_w=packed is for a standard conv (a depthwise "
                      "item reads its weights in order already)", where);
    if (s->depthwise && s->Cin != s->Cout)
        mg_diag_error(d, "%s: conv2d: depthwise needs Cin = Cout (got %lld, %lld)", where,
                      (long long)s->Cin, (long long)s->Cout);
    if (s->vec != 1 && s->vec != 2 && s->vec != 4 && s->vec != 8)
        mg_diag_error(d, "%s: conv2d: vec=%lld: a vector load is 1, 2, 4 or 8 wide", where,
                      (long long)s->vec);
    if ((g.img_x || g.img_w) && s->vec != 4 && mg_schedule_is_set(s, "vec"))
        mg_diag_error(d, "%s: conv2d: vec=%lld with an image input or weights: a texel holds "
                      "4 channels, so loads are 4 wide", where, (long long)s->vec);
    if (s->Cin % g.XV)
        mg_diag_error(d, "%s: conv2d: Cin=%lld is not a multiple of the load width %lld", where,
                      (long long)s->Cin, (long long)g.XV);
    if (s->vaxis == MG_CONV_VEC_COUT) check_cout(s, &g, where, d);
    if (g.pack_x && !g.cout)
        mg_diag_error(d, "%s: conv2d: pack_in=%lld needs vec_axis=cout (the packed input "
                      "holds one channel's window contiguous: an item reads it a scalar at a "
                      "time)", where, (long long)s->pack_in);
    if (g.prepass && g.S > 1)
        mg_diag_error(d, "%s: conv2d: pack_in=2 needs split=1 (the pre-pass shares the "
                      "channels among an output tile's items, one per channel tile)", where);
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
    /* flat: wg's x alone (the default 8,8,1 is 8 items, given or not, so
     * that the canonical text, which prints it, parses back; a sub-kernel
     * of fuse is checked before fuse sets its wg) */
    int wg_default = s->wg[0] == 8 && s->wg[1] == 8 && s->wg[2] == 1;
    int wg_2d = mg_schedule_is_set(s, "wg") && !wg_default && (s->wg[1] != 1 || s->wg[2] != 1);
    if (g.flat && (g.S > 1 || wg_2d))
        mg_diag_error(d, "%s: conv2d: launch=flat is a 1D launch of the split=1 kernel: it "
                      "needs split=1 and wg=X,1,1 (got split=%lld, wg %lld,%lld,%lld)", where,
                      (long long)g.S, (long long)s->wg[0], (long long)s->wg[1],
                      (long long)s->wg[2]);
    if (mg_schedule_is_set(s, "box") && !g.flat)
        mg_diag_error(d, "%s: conv2d: box is launch=flat's (the grid launch's work group is "
                      "wg)", where);
    if (g.box[0] * g.box[1] * g.box[2] > MAX_WG)
        mg_diag_error(d, "%s: conv2d: a box of %lld items is more than %d", where,
                      (long long)(g.box[0] * g.box[1] * g.box[2]), MAX_WG);
    if (g.S > 1 && d->n == before) check_split(s, &g, where, d);
    return d->n == before ? 0 : -1;
}

/* Streamed weights (regs_per_item, below): TW = 1, not depthwise, the
 * weights a buffer, and not X an image with the channel loop unrolled. */
int mg_conv_streams_w(const mg_schedule *s, const mg_conv_geom *g)
{
    return g->TW == 1 && !s->depthwise && !g->img_w && !(g->img_x && s->unroll > 1);
}

/* The register estimate (mg_plan_regs): the accumulators TW TC, and the
 * loads of one channel-loop iteration, all issued before its FMAs: TW
 * input vectors of XV (vec_axis=cout: TW scalars) and nw weight vectors of
 * V (cout: TC/V vectors of output channels).  A channel loop of at most
 * 2 iterations (depthwise: TC/V) is unrolled whole, so its iterations'
 * loads are held at once.  The `#pragma unroll` copies of a longer loop
 * reuse xv and wv, so unroll adds none.  Inputs: X and Wt; a KxK window
 * (K > 1) adds its two loop counters and the input row hi.  The split's
 * combine reuses the dead xv and wv.  Which loads are held follows how the
 * compiler schedules them:
 *   - texture batches: image reads are issued as one batch and their
 *     texels stay live until the FMAs that wait for the batch; buffer loads
 *     issued ahead of such a wait stay live with them;
 *   - streamed weights: with TW = 1 each weight vector feeds a single dot
 *     (cout: a single FMA),
 *     so a buffer weight is loaded just before it (V values, not TC V);
 *     not when the weights are an image (a texture batch), nor when X is
 *     an image and the channel loop is unrolled (the dots of one copy wait
 *     for the batch that holds the next copy's reads);
 *   - depthwise window taps: with X an image and a channel loop of at most
 *     2 iterations, the loop over the taps of a window row (column pattern:
 *     of a window column), K trips (split: the item's taps, at most K), is
 *     unrolled whole: its X reads form one batch of the distinct texels of
 *     the TW pixels across those taps ((TW - 1) stride + K with the row
 *     pattern and stride <= K, neighbouring pixels sharing reads; else TW
 *     K), while each tap's weight vector is read once and consumed by the
 *     tap's FMAs; the unrolled taps keep no loop counters. */
static int64_t regs_per_item(const mg_schedule *s, const mg_conv_geom *g)
{
    int64_t trips = g->clen / g->XV, copies = trips <= 2 ? trips : 1;
    int64_t acc = g->TW * g->TC;
    if (s->depthwise && g->img_x && trips <= 2) {
        int64_t taps = g->S == 1 || g->TT > s->K ? s->K : g->TT;
        int64_t px = s->pattern == MG_PAT_ROW && s->stride <= s->K
                         ? (g->TW - 1) * s->stride + taps : g->TW * taps;
        return mg_plan_regs(s, acc + (px + 1) * g->V * copies, 2, 0);
    }
    int stream = mg_conv_streams_w(s, g);
    int64_t xv = g->TW * g->XV * copies;
    int64_t wv = stream ? g->V : g->nw * g->V * copies;
    return mg_plan_regs(s, acc + xv + wv, 2, s->K > 1 ? 3 : 0);
}

static void plan(const mg_schedule *s, mg_kernel *k)
{
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    snprintf(k->name, sizeof k->name, s->depthwise ? "dwconv2d" : "conv2d");
    int dt = mg_plan_dtype(s);
    int x = g.pack_x ? mg_plan_tensor(k, "X", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4, MG_INIT_RANDOM,
                                      g.Ho, g.nx, s->Cin, g.PH * g.PW)
                     : mg_plan_tensor(k, "X", MG_TENSOR_IN, mg_plan_layout(s, MG_ROLE_IN), dt, 4,
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
    if (s->bias)
        mg_plan_arg_tensor(k, mg_plan_tensor(k, "B", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4,
                                             MG_INIT_RANDOM, 1, 1, 1, s->Cout));
    if (g.prepass) {    /* XS [1][Cin][H][W] (NCHW, TVM's data) and P, data_vec */
        mg_plan_arg_tensor(k, mg_plan_tensor(k, "XS", MG_TENSOR_IN, MG_TL_BUFFER, dt, 4,
                                             MG_INIT_RANDOM, 1, s->Cin, s->H, s->W));
        mg_plan_arg_tensor(k, mg_plan_tensor(k, "P", MG_TENSOR_OUT, MG_TL_BUFFER, dt, 4,
                                             MG_INIT_ZERO, g.Ho, g.nx, s->Cin, g.PH * g.PW));
    }
    if (g.S > 1) mg_plan_arg_local(k, "red", mg_conv_local_bytes(s, &g));
    int64_t items[3] = {g.nz, g.nx, g.Ho * g.S}, flat[3] = {g.items, 1, 1};
    int64_t wg1[3] = {s->wg[0], 1, 1};
    mg_plan_ndrange(k, g.flat ? 1 : 3, g.flat ? flat : items, g.flat ? wg1 : s->wg);
    k->needs_fp16 = s->compute == MG_PREC_FP16;
    int64_t red = s->depthwise ? 1 : s->Cin;             /* reduction length per window tap */
    k->f.loop_iters = g.iters;
    int64_t loads = g.TW * g.XV + g.nw * g.V;                          /* elements per iter */
    k->f.bytes_per_iter = loads * g.eb;
    k->f.bytes_per_item = k->f.loop_iters * k->f.bytes_per_iter;
    k->f.regs_per_item = regs_per_item(s, &g);
    k->f.flops = 2.0 * (double)(g.Ho * g.Wo * s->Cout * red * s->K * s->K) +
                 (double)(g.S - 1) * (double)(g.Ho * g.Wo * s->Cout) +
                 (double)(g.Ho * g.Wo * s->Cout) * (double)(s->bias + mg_gact_flops(s->act));
    k->f.local_bytes = mg_conv_local_bytes(s, &g);
    k->f.access_width = g.V * g.eb;
    /* The group's distinct loads per iteration: items with the same (gx, z)
     * read the same TW pixels (z includes the split index: other channels
     * or taps); items with the same (gz, s) the same weights. */
    k->f.wg_bytes_per_iter = (k->local[1] * k->local[2] * g.TW * g.XV +
                              k->local[0] * g.S * g.nw * g.V) * g.eb;
    k->f.boundary_checks = g.nx * g.TW != g.Wo || k->global[0] != g.nz ||
                           k->global[1] != g.nx || k->global[2] != g.Ho * g.S;
    if (g.flat) {   /* the boxes' distinct loads, times the boxes a work group holds */
        int64_t boxes = mg_ceil_div(k->local[0], g.box[0] * g.box[1] * g.box[2]);
        k->f.wg_bytes_per_iter = boxes * (g.box[1] * g.box[2] * g.TW * g.XV +
                                          g.box[0] * g.nw * g.V) * g.eb;
        k->f.boundary_checks = g.nx * g.TW != g.Wo || g.items != g.nz * g.nx * g.Ho ||
                               k->global[0] != g.items;
    }
    k->log_cap = k->f.loop_iters * (g.TW + g.nw) + (g.S - 1) * g.TW * (g.TC / g.LW) +
                 g.TW * g.TC + (s->bias ? g.TW * (g.TC / g.SV) : 0) +
                 (g.prepass ? 2 * g.ptrips * g.PH * g.PW : 0);
}

/* ---- input data and reference ---------------------------------------------- */

/* pack_in: the input pixel (hi, wi) that data_vec's element at window
 * (ho, gx), row r, column c holds; 0 when it is padding (outside the input). */
static int pack_src(const mg_schedule *s, const mg_conv_geom *g, int64_t ho, int64_t gx,
                    int64_t r, int64_t c, int64_t *hi, int64_t *wi)
{
    *hi = ho * s->stride + r - s->pad;
    *wi = gx * g->TW * s->stride + c - s->pad;
    return *hi >= 0 && *hi < s->H && *wi >= 0 && *wi < s->W;
}

/* pack_in=1: the packed input as TVM's packing kernel writes it from one
 * NHWC input, so that the kernel computes a true convolution: each
 * element is the padded input's value at its (hi, wi, ci), 0 in the
 * padding (and past the input's right and bottom edges), else a value in
 * [-1, 1) hashed from the seed and the position (tiles that overlap read
 * the same values). */
static void init(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    if (!g.pack_x) return;
    float *x = h->f[MG_CONV_TX];
    int fp16 = k->t[MG_CONV_TX].dtype == MG_DT_F16;
    for (int64_t ho = 0; ho < g.Ho; ho++)
        for (int64_t gx = 0; gx < g.nx; gx++)
            for (int64_t ci = 0; ci < s->Cin; ci++)
                for (int64_t r = 0; r < g.PH; r++)
                    for (int64_t c = 0; c < g.PW; c++) {
                        int64_t hi, wi;
                        float v = 0;
                        if (pack_src(s, &g, ho, gx, r, c, &hi, &wi)) {
                            uint64_t z = (uint64_t)s->seed * 0x9e3779b97f4a7c15ull +
                                         (uint64_t)((hi * s->W + wi) * s->Cin + ci) + 1;
                            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
                            z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
                            z ^= z >> 31;
                            v = (float)(2.0 * ((double)(z >> 11) / 9007199254740992.0) - 1.0);
                        }
                        x[((ho * g.nx + gx) * s->Cin + ci) * g.PH * g.PW + r * g.PW + c] =
                            fp16 ? mg_round_half(v) : v;
                    }
}

static void reference(const mg_schedule *s, const mg_kernel *k, mg_host *h)
{
    (void)k;
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    const float *x = h->f[MG_CONV_TX], *wt = h->f[MG_CONV_TW];
    float *y = h->f[MG_CONV_TY];
    if (g.prepass) {        /* P: XS's windows as TVM's packing kernel writes them */
        const float *xs = h->f[g.tsrc];
        for (int64_t ho = 0; ho < g.Ho; ho++)
            for (int64_t gx = 0; gx < g.nx; gx++)
                for (int64_t ci = 0; ci < s->Cin; ci++)
                    for (int64_t r = 0; r < g.PH; r++)
                        for (int64_t c = 0; c < g.PW; c++) {
                            int64_t hi, wi;
                            h->f[g.tpk][((ho * g.nx + gx) * s->Cin + ci) * g.PH * g.PW +
                                        r * g.PW + c] =
                                pack_src(s, &g, ho, gx, r, c, &hi, &wi)
                                    ? xs[(ci * s->H + hi) * s->W + wi] : 0.0f;
                        }
    }
    if (g.pack_x) {         /* every window position, the padding's zeros included */
        for (int64_t ho = 0; ho < g.Ho; ho++)
            for (int64_t wo = 0; wo < g.Wo; wo++)
                for (int64_t co = 0; co < s->Cout; co++) {
                    double acc = 0;
                    for (int64_t ky = 0; ky < s->K; ky++)
                        for (int64_t kx = 0; kx < s->K; kx++)
                            for (int64_t ci = 0; ci < s->Cin; ci++)
                                acc += (double)x[mg_conv_xp_index(s, &g, ho, wo / g.TW,
                                                                  wo % g.TW, ky, kx, ci)] *
                                       wt[mg_conv_w_index(s, &g, co, ky, kx, ci)];
                    if (s->bias) acc += h->f[MG_CONV_TB][co];
                    y[(ho * g.Wo + wo) * s->Cout + co] = mg_gact_ref(s->act, (float)acc);
                }
        return;
    }
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
                                       wt[mg_conv_w_index(s, &g, co, ky, kx, ci)];
                        }
                    }
                if (s->bias) acc += h->f[MG_CONV_TB][co];
                y[(ho * g.Wo + wo) * s->Cout + co] = mg_gact_ref(s->act, (float)acc);
            }
}

const mg_op mg_op_conv2d = {
    .name = "conv2d",
    .summary = "2D convolution KxK, stride, padding, depthwise (NHWC)",
    .keys = keys,
    .knobs = "layout layout_in layout_w layout_out tile wg pattern vec storage compute split "
              "unroll warp seed",
    .defaults = defaults,
    .check = check,
    .plan = plan,
    .emit_cl = mg_conv_emit_cl,
    .trace_wg = mg_conv_trace_wg,
    .init = init,
    .reference = reference,
    .trace_inert = "unroll",  /* a #pragma: the trace and the register estimate ignore it */
    .warp_body = mg_conv_flat_body,
    .packed_w = 1,
};
