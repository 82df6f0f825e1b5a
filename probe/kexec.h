/*
 * kexec.h - run one generated kernel (an mg_gen) on an OpenCL device.
 *
 * A device is opened once (context and a profiling command queue); then,
 * per kernel: prepare (build the source, create one memory object per
 * tensor from the packed host inputs, set the arguments), launch as often
 * as needed (outputs are poisoned with 0xFF bytes, NaN in every float
 * format, before each launch; the log is zeroed), read the outputs back
 * into the host arrays, release.  `mgprobe verify` runs each kernel once;
 * `mgprobe time` launches it repeatedly with event profiling.
 *
 * Results are MGP_KX_OK, MGP_KX_SKIP (the device cannot run this kernel:
 * no image support, no cl_khr_fp16, an image format or size it lacks, a
 * work group or local/constant memory larger than it allows) or
 * MGP_KX_FAIL (an OpenCL error, a build failure); SKIP and FAIL leave a
 * one-line reason in the kexec's msg, naming the OpenCL call and error
 * (e.g. "clBuildProgram: CL_BUILD_PROGRAM_FAILURE (-11)").  Nothing here
 * crashes on an OpenCL error.
 */
#ifndef MGP_KEXEC_H
#define MGP_KEXEC_H

#include "probe/cl_util.h"
#include "traces/gen/gen.h"
#include "base/diag.h"

#include <stddef.h>
#include <signal.h>
#include <stdint.h>

enum { MGP_KX_OK = 0, MGP_KX_SKIP = 1, MGP_KX_FAIL = 2, MGP_KX_HUNG = 3 };

#define MGP_KX_MSG_MAX 512

/* An opened device: P:D, its context and in-order profiling queue, and
 * the capabilities kernels are checked against. */
typedef struct mgp_kexec_dev {
    unsigned         pi, di;          /* platform and device index (P:D) */
    cl_platform_id   platform;
    cl_device_id     device;
    cl_context       ctx;
    cl_command_queue queue;
    char             name[256];       /* CL_DEVICE_NAME */
    int              images;          /* CL_DEVICE_IMAGE_SUPPORT */
    int              fp16;            /* cl_khr_fp16 */
    size_t           max_wg;          /* CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t           max_items[3];    /* CL_DEVICE_MAX_WORK_ITEM_SIZES */
    size_t           img_w, img_h;    /* CL_DEVICE_IMAGE2D_MAX_WIDTH/HEIGHT */
    cl_ulong         local_mem;       /* CL_DEVICE_LOCAL_MEM_SIZE */
    cl_ulong         const_mem;       /* CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE */
    cl_ulong         max_alloc;       /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
    int              lax_wg;          /* launch work groups larger than the kernel's
                                         CL_KERNEL_WORK_GROUP_SIZE anyway (the probe:
                                         NVIDIA reports 256 for kernels that launch at
                                         1024; the launch itself says when not) */
    int              cpu;             /* CL_DEVICE_TYPE_CPU: input buffers live in
                                         2 MiB-aligned host memory advised for huge
                                         pages (CL_MEM_USE_HOST_PTR), so a pointer
                                         chase sees the caches, not the TLB or the
                                         page colouring of 4 KiB pages */
} mgp_kexec_dev;

/* Open device pi:di (as `mgprobe devices` numbers them).  Returns 0; or -1
 * with a message in d, and *none set when no OpenCL platform exists at all
 * (none may be NULL). */
int mgp_kexec_open(mgp_kexec_dev *x, unsigned pi, unsigned di, int *none, mg_diag *d);
/* Release the queue and context (safe on a zeroed or closed x). */
void mgp_kexec_close(mgp_kexec_dev *x);

/* Parse "P:D" into *pi, *di.  Returns 0, or -1 when malformed. */
int mgp_kexec_parse_id(const char *s, unsigned *pi, unsigned *di);

/* One kernel prepared on a device. */
typedef struct mgp_kexec {
    mgp_kexec_dev *dev;
    const mg_gen  *g;
    int            instrumented;      /* built with -DMG_TRACE_LOG */
    cl_program     prog;
    cl_kernel      kern;
    cl_mem         mem[MG_MAX_TENSORS];
    void          *host[MG_MAX_TENSORS];  /* cpu: the host memory behind input buffers */
    cl_mem         log;               /* instrumented: the access log */
    size_t         log_words;
    void          *poison;            /* 0xFF bytes, as large as the largest output */
    char          *build_log;         /* after a build failure, or with extra options */
    size_t         kwg;               /* CL_KERNEL_WORK_GROUP_SIZE after the build */
    const char    *extra_opts;        /* appended to the build options (or NULL) */
    char           msg[MGP_KX_MSG_MAX];
} mgp_kexec;

/* Build g's source on dev ("-cl-std=CL1.2", plus "-DMG_TRACE_LOG
 * -DMG_LOG_CAP=<k.log_cap>" when instrumented), create the memory objects
 * with h's inputs (mg_tensor_pack'ed; images CL_RGBA or CL_R of CL_FLOAT,
 * CL_HALF_FLOAT or CL_SIGNED_INT32; constant tensors read-only buffers),
 * and set the arguments in k.args order, then the log buffer when
 * instrumented.  Returns MGP_KX_OK, SKIP or FAIL (reason in e->msg, build
 * log in e->build_log).  e must be released in every case. */
int mgp_kexec_prepare(mgp_kexec *e, mgp_kexec_dev *dev, const mg_gen *g, const mg_host *h,
                      int instrumented);

/* mgp_kexec_prepare with extra build options appended (NULL: none); after
 * a successful build with extra options the build log is kept in
 * e->build_log too (e.g. NVIDIA's -cl-nv-verbose register report). */
int mgp_kexec_prepare_opts(mgp_kexec *e, mgp_kexec_dev *dev, const mg_gen *g,
                           const mg_host *h, int instrumented, const char *extra_opts);

/* Run the NDRange once for timing: no poisoning, the wait polls the event
 * (about every 0.2 ms) and gives up after timeout_s seconds (0: never) or
 * as soon as *stop is nonzero (stop may be NULL): MGP_KX_HUNG, the kernel
 * possibly still running.  *ns is the execution time from event
 * profiling.  Returns MGP_KX_OK, MGP_KX_FAIL or MGP_KX_HUNG. */
int mgp_kexec_run_timed(mgp_kexec *e, double *ns, double timeout_s,
                        const volatile sig_atomic_t *stop);

/* Poison the outputs, zero the log, run the NDRange of the plan and wait
 * for it.  When ns is not NULL, *ns is the kernel's execution time from
 * event profiling (END - START, nanoseconds).  Returns MGP_KX_OK or
 * MGP_KX_FAIL. */
int mgp_kexec_launch(mgp_kexec *e, double *ns);

/* Read the outputs of the last launch into h's output arrays
 * (mg_tensor_unpack'ed) and, when instrumented and log is not NULL, the
 * log into a malloc'd array *log of *log_words words (the caller frees).
 * Returns MGP_KX_OK or MGP_KX_FAIL. */
int mgp_kexec_read(mgp_kexec *e, mg_host *h, uint32_t **log, size_t *log_words);

/* Release everything prepare created (safe on a zeroed or failed e). */
void mgp_kexec_release(mgp_kexec *e);

#endif
