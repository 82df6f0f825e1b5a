/*
 * kernel.h - a generated kernel: launch plan, tensors, arguments, static
 * features, and host-side data for running it (public API of traces/gen).
 *
 * Tensors have a logical shape dims[0..3] (dims[3] innermost) and a device
 * layout:
 *   buffer: row-major, elements of the storage type (fp32, fp16, int32),
 *           so a vector load of width v reads v consecutive dims[3] elements;
 *   image:  2D, `channels` (4 = RGBA, or 1) elements per texel, packing
 *           dims[3] into texels: width  = dims[2] * ceil(dims[3] / channels),
 *                                height = dims[0] * dims[1];
 *           element (i0,i1,i2,i3) is channel i3 % channels of texel
 *           x = i2 * ceil(dims[3]/channels) + i3 / channels, y = i0*dims[1] + i1.
 * Host arrays are always in logical order (row-major over dims), as float
 * (or int32 for index tensors); mg_tensor_pack/unpack convert to and from
 * the device bytes.
 */
#ifndef MG_KERNEL_H
#define MG_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "traces/trace.h"

#define MG_MAX_TENSORS 12     /* fuse: three sub-kernels of up to 4 tensors */
#define MG_MAX_ARGS    24

typedef enum { MG_DT_F32, MG_DT_F16, MG_DT_I32 } mg_dtype;
typedef enum { MG_TENSOR_IN, MG_TENSOR_OUT } mg_tensor_role;
typedef enum { MG_TL_BUFFER, MG_TL_IMAGE, MG_TL_CONSTANT } mg_tensor_layout;
/* How inputs are initialised (mg_host_init). */
typedef enum {
    MG_INIT_RANDOM,      /* uniform in [-1, 1), from the schedule's seed */
    MG_INIT_POSITIVE,    /* uniform in [0.5, 1.5) (divisors, logs) */
    MG_INIT_ZERO,
    MG_INIT_CHAIN        /* int32 pointer chase: filled by the op's init hook */
} mg_init;

typedef struct mg_tensor {
    char    name[16];
    int     role;          /* mg_tensor_role */
    int     layout;        /* mg_tensor_layout */
    int     dtype;         /* mg_dtype: storage type */
    int     channels;      /* images: 4 or 1 */
    int     init;          /* mg_init */
    int64_t dims[4];       /* logical shape, dims[3] innermost */
    int     obj;           /* trace object id: image id or buffer id */
    int64_t perm_block;    /* outputs only: > 0 when the values depend on the
                              device's execution order (atomic tickets): each
                              consecutive block of perm_block elements must be a
                              permutation of 0..perm_block-1, checked as such */
} mg_tensor;

typedef enum { MG_ARG_TENSOR, MG_ARG_INT, MG_ARG_FLOAT, MG_ARG_LOCAL } mg_arg_kind;

typedef struct mg_arg {
    int     kind;          /* mg_arg_kind */
    char    name[16];
    int     tensor;        /* MG_ARG_TENSOR: index in k->t */
    int64_t ival;          /* MG_ARG_INT value; MG_ARG_LOCAL bytes */
    double  fval;          /* MG_ARG_FLOAT value */
} mg_arg;

/* Static features, from the schedule alone (no simulation). */
typedef struct mg_features {
    int64_t regs_per_item;     /* estimated 32-bit registers live per item */
    int64_t loop_iters;        /* iterations of the main loop per item */
    int64_t bytes_per_iter;    /* bytes one item loads per main-loop iteration */
    int64_t bytes_per_item;    /* bytes one item loads in total */
    double  flops;             /* whole launch */
    int64_t local_bytes;       /* local memory per work group */
    int64_t access_width;      /* bytes per load instruction per item */
    int     boundary_checks;   /* 1 when the kernel guards edge items */
    int64_t wg_bytes_per_iter; /* distinct bytes the whole work group loads per
                                  main-loop iteration (items sharing data count
                                  it once); 0 when the op does not compute it */
} mg_features;

typedef struct mg_kernel {
    char     name[64];
    int      work_dim;
    int64_t  global[3];        /* NDRange, padded to multiples of local */
    int64_t  local[3];
    int      n_tensors;
    mg_tensor t[MG_MAX_TENSORS];
    int      n_args;
    mg_arg   args[MG_MAX_ARGS];
    mg_features f;
    int64_t  log_cap;          /* most accesses one item makes (tracer) */
    int      needs_fp16;       /* kernel uses half arithmetic (cl_khr_fp16) */
    uint32_t warp;             /* lanes per warp in the trace */
} mg_kernel;

/* Host-side data of every tensor in logical order. */
typedef struct mg_host {
    int      n;
    float   *f[MG_MAX_TENSORS];     /* F32/F16 tensors */
    int32_t *i[MG_MAX_TENSORS];     /* I32 tensors */
} mg_host;

/* Elements in a tensor's logical shape. */
int64_t mg_tensor_elems(const mg_tensor *t);
/* Image geometry of an image tensor, in texels. */
int64_t mg_tensor_img_width(const mg_tensor *t);
int64_t mg_tensor_img_height(const mg_tensor *t);
/* Bytes per element / per texel of the storage type. */
int     mg_tensor_elem_bytes(const mg_tensor *t);
/* Bytes of device storage (buffer bytes, or width*height*texel bytes). */
int64_t mg_tensor_device_bytes(const mg_tensor *t);

/* Pack logical host data into device bytes (fp16 rounded to nearest even,
 * image texels padded with zeros), and back. */
void mg_tensor_pack(const mg_tensor *t, const float *f, const int32_t *i, void *dev);
void mg_tensor_unpack(const mg_tensor *t, const void *dev, float *f, int32_t *i);

/* Round a float to the nearest fp16 value and back (reference helper). */
float mg_round_half(float x);

/* The trace header of a kernel (object tables from its tensors). */
void mg_kernel_trace_header(const mg_kernel *k, mg_trace_header *h);

#endif
