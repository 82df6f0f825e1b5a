/*
 * vcheck.h - verify one schedule on a device: results against the CPU
 * reference, accesses against the generated trace (`mgprobe verify`).
 */
#ifndef MGP_VCHECK_H
#define MGP_VCHECK_H

#include "probe/kexec.h"
#include "traces/gen/gen.h"

#include <stddef.h>

/* Relative-error bounds: |got - ref| / max(|ref|, floor) <= tol, with
 * floor = max(MGP_VCHECK_FLOOR, MGP_VCHECK_FLOOR_PER_ADD * (n - 1)) for an
 * output that sums n terms (n = plan flops / 2 / output elements: a
 * multiply-add is 2 flops).  The reference accumulates in double; a device
 * sums in fp32, and each addition rounds by up to 2^-24 of the partial sum
 * (O(1) for inputs in [-1, 1)), not of the result: an output that cancels
 * to near zero legitimately differs by ~n x 6e-8.  The n-scaled floor
 * allows 5e-7 x (n - 1) absolute at tol 1e-5, about 10x the worst rounding
 * PoCL shows (4e-8 per term); a wrong or missing term is O(0.1) and still
 * fails.  For n <= 1 (element-wise ops) it is the plain 1e-3 floor. */
#define MGP_VCHECK_TOL_FP32       1e-5
#define MGP_VCHECK_TOL_FP16       1e-2
#define MGP_VCHECK_FLOOR          1e-3
#define MGP_VCHECK_FLOOR_PER_ADD  0.05

typedef struct mgp_vresult {
    int   status;              /* MGP_KX_OK, MGP_KX_SKIP or MGP_KX_FAIL */
    char  reason[1024];        /* one line, for SKIP and FAIL */
    char *details;             /* further lines (malloc'd), or NULL */
} mgp_vresult;

/* The tolerance of schedule s: MGP_VCHECK_TOL_FP16 when its storage or
 * compute precision is fp16, else MGP_VCHECK_TOL_FP32. */
double mgp_vcheck_tolerance(const mg_schedule *s);

/* Terms summed into one output element: plan flops / 2 / output elements
 * (0 when the plan has no flops or no outputs). */
double mgp_vcheck_terms(const mg_gen *g);

/* The floor of the relative error of g's outputs (see above). */
double mgp_vcheck_floor(const mg_gen *g);

/* Compare every output tensor of g in got with ref (float tensors within
 * tol, relative to max(|ref|, mgp_vcheck_floor(g)); integer ones exactly,
 * except a tensor with a perm_block (the device's execution order, e.g.
 * atomic tickets), whose every block must be a permutation of
 * 0..perm_block-1;
 * NaN never passes).  Returns 0 when all match;
 * otherwise 1 with the first wrong element of the first wrong tensor, the
 * number wrong and the worst error, in why. */
int mgp_vcheck_outputs(const mg_gen *g, const mg_host *ref, const mg_host *got, double tol,
                       char *why, size_t len);

/* Generate s, run it on dev and check it (and, when trace, its
 * instrumented build against the trace).  Fills *r; never fails itself
 * (an OpenCL or generator error is a FAIL with its reason). */
void mgp_verify_one(mgp_kexec_dev *dev, const mg_schedule *s, int trace, mgp_vresult *r);
/* Free r's details (the rest is plain data). */
void mgp_vresult_free(mgp_vresult *r);

#endif
