/*
 * conv2d.h - the conv2d operator's parts (internal to traces/ops): the
 * geometry every part derives from a schedule, the OpenCL emitter
 * (conv2d_cl.c) and the trace emitter (conv2d_trace.c); conv2d.c holds the
 * keys, check(), the plan (static features) and the CPU reference, and
 * documents the kernel.
 */
#ifndef MG_OPS_CONV2D_H
#define MG_OPS_CONV2D_H

#include <stdint.h>

#include "traces/gen/emit.h"
#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"
#include "traces/gen/strbuf.h"
#include "traces/trace.h"

/* Sites (the kernel's access and ALU points; 5 was an address site once
 * and stays reserved so that the numbers of the others do not move). */
enum {
    MG_CONV_SITE_X = 1, MG_CONV_SITE_W, MG_CONV_SITE_FMA, MG_CONV_SITE_Y,
    MG_CONV_SITE_LST = 6, MG_CONV_SITE_BAR, MG_CONV_SITE_LLD, MG_CONV_SITE_ADD,
    MG_CONV_SITE_BIAS, MG_CONV_SITE_BADD, MG_CONV_SITE_ACT,     /* the epilogue's */
    MG_CONV_SITE_CVT, MG_CONV_SITE_FLAT,                           /* launch=flat's ids */
    MG_CONV_SITE_PLD, MG_CONV_SITE_PST                /* pack_in=2: the packing pre-pass */
};
/* launch: the NDRange (conv2d.c); the value of the schedule's mode. */
enum { MG_CONV_GRID, MG_CONV_FLAT };
/* vec_axis: the axis a standard conv's vectors run along (conv2d.c); the
 * value of the schedule's vaxis. */
enum { MG_CONV_VEC_CIN, MG_CONV_VEC_COUT };
/* Tensor indices; the bias B (bias=1) comes after Y, so that the others'
 * indices and trace object ids are those of a conv without it. */
enum { MG_CONV_TX, MG_CONV_TW, MG_CONV_TY, MG_CONV_TB };

typedef struct mg_conv_geom {
    int64_t Ho, Wo;            /* output height and width */
    int64_t TW, TC;            /* tile: pixels along W x output channels */
    int64_t V;                 /* load width: 4 when X or Wt is an image, else vec */
    int64_t XV;                /* input elements per load and the channel loop's step:
                                * V, or 1 (vec_axis=cout: a broadcast scalar) */
    int64_t nx, nz;            /* tiles along Wo, along Cout */
    int64_t cin4, cout4;       /* texels per pixel of X, of Y */
    int64_t S;                 /* split */
    int64_t R;                 /* output rows per work group: wg z / split */
    int64_t CS;                /* standard: input channels per split item, Cin / S */
    int64_t TT;                /* depthwise: window taps per split item, K K / S */
    int64_t clen;              /* channel-loop length per tap: CS, or TC (depthwise) */
    int64_t nw;                /* weight loads per iteration: TC, 1 (depthwise), or
                                * TC / V (vec_axis=cout) */
    int cout;                  /* vec_axis=cout: vectors of V output channels */
    int vacc;                  /* the accumulators are V-wide vectors along the output
                                * channels (depthwise, or vec_axis=cout) */
    int64_t iters;             /* main-loop iterations per item */
    int64_t LW;                /* width of a partial-sum local store/load */
    int64_t SV;                /* width of an output store */
    int img_x, img_w, img_y, eb;
    int pack_w;                /* layout_w=packed (a buffer in the items' order) */
    int pack_x;                /* pack_in >= 1: X is TVM's data_vec [Ho][nx][Cin][PH][PW] */
    int prepass;               /* pack_in=2: each item first packs its share of data_vec
                                * from the NCHW input XS into P (tensors XS, P after Y, B) */
    int tsrc, tpk;             /* pack_in=2: the tensor indices of XS and P */
    int64_t ptrips;            /* pack_in=2: the most channels an item packs, ceil(Cin/nz) */
    int64_t PH, PW;            /* pack_in: a tile's window, stride + K - 1 rows of
                                * TW stride + K - 1 columns of the padded input */
    int flat;                  /* launch=flat: the grid's items as one 1D NDRange */
    int64_t box[3];            /* launch=flat: the grid's work group (box=X,Y,Z) */
    int64_t ngrp[3];           /* launch=flat: such groups along nz, nx, Ho */
    int64_t items;             /* launch=flat: the grid's items, ngrp x box in each dim */
} mg_conv_geom;

/* Derive g from a schedule that passed (or is being checked by) check();
 * divisions by zero cannot happen for any schedule within the key ranges. */
void mg_conv_geom_of(const mg_schedule *s, mg_conv_geom *g);

/* Whether the compiler streams the weights: each weight vector loaded just
 * before the one dot (vec_axis=cout: FMA) it feeds, so one channel step
 * holds one weight vector, not nw (the register estimate), and exposes a
 * load latency per weight vector (the trace). */
int mg_conv_streams_w(const mg_schedule *s, const mg_conv_geom *g);

/* The element index of weight (co, ky, kx, ci) of a standard conv's
 * buffer: [Cout][K][K][Cin], or packed, [Cout/TC][K][K][Cin/XV][TC][XV]
 * (each item's weights in the order it reads them: one stream; with
 * vec_axis=cout, XV = 1: [Cout/TC][K][K][Cin][TC]; with pack_in, whose
 * loop has the channels outside the taps, TVM's kernel_vec
 * [Cout/TC][Cin][K][K][TC]). */
int64_t mg_conv_w_index(const mg_schedule *s, const mg_conv_geom *g, int64_t co, int64_t ky,
                        int64_t kx, int64_t ci);

/* The element index of input (ky, kx, ci) of output pixel wo0 + j of row
 * ho in the packed input (pack_in=1, conv2d.c): TVM's data_vec, one
 * tile's padded window per input channel, [Ho][nx][Cin][PH][PW]. */
int64_t mg_conv_xp_index(const mg_schedule *s, const mg_conv_geom *g, int64_t ho, int64_t gx,
                         int64_t j, int64_t ky, int64_t kx, int64_t ci);

/* Local memory for the partial tiles of split > 1 (0 when split = 1):
 * (S - 1) x items per split slice x TW x TC floats. */
int64_t mg_conv_local_bytes(const mg_schedule *s, const mg_conv_geom *g);

/* Append the kernel's OpenCL C source (conv2d_cl.c). */
void mg_conv_emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o);

/* Emit work group wg's trace, in the kernel's program order (conv2d_trace.c). */
void mg_conv_trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                      mg_trace_wg *out);

/* One warp of a launch=flat kernel (ctx: the schedule): each lane's flat
 * id to its (gz, gx, ho), then the kernel's body lane by lane; trace_wg's
 * body for launch=flat, and conv2d's warp_body as a sub-kernel of `fuse`
 * (op.h), which takes launch=flat only (plan_sub refuses a 3D launch). */
void mg_conv_flat_body(mg_warp *w, const void *ctx);

#endif
