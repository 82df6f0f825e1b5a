/*
 * clemit.h - helpers for emitting OpenCL C kernels (internal to traces/).
 *
 * Every memory access of a generated kernel goes through MG_ACC (loads,
 * as an expression) or MG_ACCS (stores, a statement), which log the access
 * in the instrumented build (-DMG_TRACE_LOG) and vanish otherwise.  The
 * helpers below write those accesses for a tensor of the plan, so an op
 * never spells the logging by hand.
 */
#ifndef MG_CLEMIT_H
#define MG_CLEMIT_H

#include "traces/gen/kernel.h"
#include "traces/gen/strbuf.h"

/* The common preamble: fp16 pragma when needed, sampler, log macros. */
void mg_cl_preamble(const mg_kernel *k, mg_sb *out);

/* "__kernel void NAME(" + one parameter per plan argument + MG_LOG_ARG ")"
 * and the opening brace with MG_LOG_BEGIN. */
void mg_cl_signature(const mg_kernel *k, mg_sb *out);

/* The OpenCL type of `vec` elements of the compute precision: "float4". */
const char *mg_cl_vtype(int compute_fp16, int vec);

/* Load expression of `vec` consecutive elements of buffer tensor ti at
 * element index expression E (logged as byte address E * elem bytes),
 * converted to the compute type. */
void mg_cl_ld(mg_sb *out, const mg_kernel *k, int ti, int site, const char *e, int vec,
              int compute_fp16);

/* Store statement of value expression V (vec elements, compute type) to
 * buffer tensor ti at element index expression E. */
void mg_cl_st(mg_sb *out, const mg_kernel *k, int ti, int site, const char *e, int vec,
              const char *v, int compute_fp16);

/* Texel read (float4, or half4 for fp16 compute; int for 1-channel int
 * images) of image tensor ti at (X, Y). */
void mg_cl_rd(mg_sb *out, const mg_kernel *k, int ti, int site, const char *x,
              const char *y, int compute_fp16);

/* Texel write statement of V at (X, Y). */
void mg_cl_wr(mg_sb *out, const mg_kernel *k, int ti, int site, const char *x,
              const char *y, const char *v, int compute_fp16);

/* Local memory load/store (float elements, byte address logged). */
void mg_cl_ldl(mg_sb *out, int site, const char *arr, const char *e, int vec,
               const char *vtype);
void mg_cl_stl(mg_sb *out, int site, const char *arr, const char *e, int vec,
               const char *v);

#endif
