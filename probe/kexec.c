/* kexec.c - build, bind, launch and read back one generated kernel (see
 * kexec.h). */
#include "probe/kexec.h"
#include "traces/gen/tracer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* Set e->msg and return status. */
static int say(mgp_kexec *e, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int say(mgp_kexec *e, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return status;
}

/* Report OpenCL error err of call fn (about `what`, may be ""); returns
 * MGP_KX_FAIL. */
static int cl_fail(mgp_kexec *e, const char *fn, cl_int err, const char *what)
{
    char buf[160];
    mgp_cl_errfmt(buf, sizeof buf, fn, err);
    return say(e, MGP_KX_FAIL, "%s%s%s", buf, *what ? " for " : "", what);
}

/* The OpenCL image format of an image tensor. */
static cl_image_format image_format(const mg_tensor *t)
{
    cl_image_format f;
    f.image_channel_order = t->channels == 1 ? CL_R : CL_RGBA;
    f.image_channel_data_type = t->dtype == MG_DT_F16   ? CL_HALF_FLOAT
                                : t->dtype == MG_DT_I32 ? CL_SIGNED_INT32
                                                        : CL_FLOAT;
    return f;
}

/* "CL_RGBA/CL_HALF_FLOAT" for messages. */
static const char *format_name(const mg_tensor *t, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", t->channels == 1 ? "CL_R" : "CL_RGBA",
             t->dtype == MG_DT_F16   ? "CL_HALF_FLOAT"
             : t->dtype == MG_DT_I32 ? "CL_SIGNED_INT32"
                                     : "CL_FLOAT");
    return buf;
}

/* Memory flags of tensor t's object. */
static cl_mem_flags mem_flags(const mg_tensor *t)
{
    if (t->role == MG_TENSOR_IN) return CL_MEM_READ_ONLY;
    return t->layout == MG_TL_IMAGE ? CL_MEM_WRITE_ONLY : CL_MEM_READ_WRITE;
}

/* Does the device support format f for images with flags? */
static int format_supported(mgp_kexec *e, cl_mem_flags flags, cl_image_format f, cl_int *err)
{
    cl_uint n = 0;
    *err = clGetSupportedImageFormats(e->dev->ctx, flags, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &n);
    if (*err != CL_SUCCESS || n == 0) return 0;
    cl_image_format *all = calloc(n, sizeof *all);
    if (!all) {
        *err = CL_OUT_OF_HOST_MEMORY;
        return 0;
    }
    *err = clGetSupportedImageFormats(e->dev->ctx, flags, CL_MEM_OBJECT_IMAGE2D, n, all, NULL);
    int ok = 0;
    for (cl_uint i = 0; *err == CL_SUCCESS && i < n; i++)
        ok |= all[i].image_channel_order == f.image_channel_order &&
              all[i].image_channel_data_type == f.image_channel_data_type;
    free(all);
    return ok;
}

/* Check what the device must offer before anything is built: features,
 * sizes and limits.  Returns MGP_KX_OK, or SKIP/FAIL with the reason. */
static int check_limits(mgp_kexec *e)
{
    const mgp_kexec_dev *x = e->dev;
    const mg_kernel *k = &e->g->k;
    char fmt[64];
    if (k->needs_fp16 && !x->fp16)
        return say(e, MGP_KX_SKIP, "the kernel computes in fp16 and the device lacks "
                   "cl_khr_fp16");
    uint64_t wg = 1;
    for (int i = 0; i < 3; i++) {
        size_t l = k->local[i] > 0 ? (size_t)k->local[i] : 1;
        wg *= l;
        if (l > x->max_items[i])
            return say(e, MGP_KX_SKIP, "work-group size %zu in dimension %d exceeds the "
                       "device's CL_DEVICE_MAX_WORK_ITEM_SIZES %zu", l, i, x->max_items[i]);
    }
    if (wg > x->max_wg)
        return say(e, MGP_KX_SKIP, "work group of %" PRIu64 " items exceeds the device's "
                   "CL_DEVICE_MAX_WORK_GROUP_SIZE %zu", wg, x->max_wg);
    if (k->f.local_bytes > 0 && (cl_ulong)k->f.local_bytes > x->local_mem)
        return say(e, MGP_KX_SKIP, "%" PRId64 " bytes of local memory exceed the device's %"
                   PRIu64, k->f.local_bytes, (uint64_t)x->local_mem);
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        cl_ulong bytes = (cl_ulong)mg_tensor_device_bytes(t);
        if (bytes > x->max_alloc)
            return say(e, MGP_KX_SKIP, "tensor '%s' of %" PRIu64 " bytes exceeds the device's "
                       "CL_DEVICE_MAX_MEM_ALLOC_SIZE", t->name, (uint64_t)bytes);
        if (t->layout == MG_TL_CONSTANT && bytes > x->const_mem)
            return say(e, MGP_KX_SKIP, "constant tensor '%s' of %" PRIu64 " bytes exceeds "
                       "the device's CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE %" PRIu64, t->name,
                       (uint64_t)bytes, (uint64_t)x->const_mem);
        if (t->layout != MG_TL_IMAGE) continue;
        if (!x->images) return say(e, MGP_KX_SKIP, "the device has no image support");
        int64_t w = mg_tensor_img_width(t), h = mg_tensor_img_height(t);
        if ((uint64_t)w > x->img_w || (uint64_t)h > x->img_h)
            return say(e, MGP_KX_SKIP, "image '%s' of %" PRId64 "x%" PRId64 " texels exceeds "
                       "the device's %zux%zu", t->name, w, h, x->img_w, x->img_h);
        cl_int err;
        if (!format_supported(e, mem_flags(t), image_format(t), &err)) {
            if (err != CL_SUCCESS) return cl_fail(e, "clGetSupportedImageFormats", err, t->name);
            return say(e, MGP_KX_SKIP, "the device does not support %s images (tensor '%s')",
                       format_name(t, fmt, sizeof fmt), t->name);
        }
    }
    return MGP_KX_OK;
}

/* Fetch the build log of e->prog into e->build_log (best effort). */
static void fetch_build_log(mgp_kexec *e)
{
    size_t n = 0;
    if (clGetProgramBuildInfo(e->prog, e->dev->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n) !=
            CL_SUCCESS || n == 0 || n > MGP_CL_INFO_MAX)
        return;
    char *s = malloc(n + 1);
    if (!s) return;
    if (clGetProgramBuildInfo(e->prog, e->dev->device, CL_PROGRAM_BUILD_LOG, n, s, NULL) !=
        CL_SUCCESS) {
        free(s);
        return;
    }
    s[n] = '\0';
    e->build_log = s;
}

/* Build the program and create the kernel.  Returns MGP_KX_OK or FAIL. */
static int build(mgp_kexec *e)
{
    const mg_gen *g = e->g;
    cl_int err;
    const char *src = g->source;
    size_t len = g->source_len;
    e->prog = clCreateProgramWithSource(e->dev->ctx, 1, &src, &len, &err);
    if (err != CL_SUCCESS) {
        e->prog = NULL;
        return cl_fail(e, "clCreateProgramWithSource", err, "");
    }
    char opts[512];
    if (e->instrumented)
        snprintf(opts, sizeof opts, "-cl-std=CL1.2 -DMG_TRACE_LOG -DMG_LOG_CAP=%" PRId64,
                 g->k.log_cap);
    else
        snprintf(opts, sizeof opts, "-cl-std=CL1.2");
    if (e->extra_opts && *e->extra_opts) {
        size_t n = strlen(opts);
        snprintf(opts + n, sizeof opts - n, " %s", e->extra_opts);
    }
    err = clBuildProgram(e->prog, 1, &e->dev->device, opts, NULL, NULL);
    if (err == CL_SUCCESS && e->extra_opts && *e->extra_opts) fetch_build_log(e);
    if (err != CL_SUCCESS) {
        fetch_build_log(e);
        cl_fail(e, "clBuildProgram", err, "");
        size_t n = strlen(e->msg);
        snprintf(e->msg + n, sizeof e->msg - n, " with \"%s\"%s", opts,
                 e->build_log ? " (build log follows)" : "");
        return MGP_KX_FAIL;
    }
    e->kern = clCreateKernel(e->prog, g->k.name, &err);
    if (err != CL_SUCCESS) {
        e->kern = NULL;
        return cl_fail(e, "clCreateKernel", err, g->k.name);
    }
    size_t kwg = 0;
    err = clGetKernelWorkGroupInfo(e->kern, e->dev->device, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof kwg, &kwg, NULL);
    if (err != CL_SUCCESS) return cl_fail(e, "clGetKernelWorkGroupInfo", err, g->k.name);
    uint64_t wg = 1;
    for (int i = 0; i < 3; i++) wg *= g->k.local[i] > 0 ? (uint64_t)g->k.local[i] : 1;
    e->kwg = kwg;
    if (wg > kwg && !e->dev->lax_wg)
        return say(e, MGP_KX_SKIP, "work group of %" PRIu64 " items exceeds the kernel's "
                   "CL_KERNEL_WORK_GROUP_SIZE %zu on this device", wg, kwg);
    return MGP_KX_OK;
}

/* Create the memory object of tensor i, inputs initialised from h.
 * Returns MGP_KX_OK or FAIL. */
static int create_tensor(mgp_kexec *e, int i, const mg_host *h)
{
    const mg_tensor *t = &e->g->k.t[i];
    size_t bytes = (size_t)mg_tensor_device_bytes(t);
    void *data = NULL;
    cl_mem_flags flags = mem_flags(t);
    int keep = e->dev->cpu && t->role == MG_TENSOR_IN && t->layout != MG_TL_IMAGE;
    if (keep) {                    /* CPU devices: see mgp_kexec_dev.cpu */
        size_t align = (size_t)2 << 20, size = (bytes + align - 1) / align * align;
        if (posix_memalign(&data, align, size ? size : align))
            return say(e, MGP_KX_FAIL, "out of memory for tensor '%s'", t->name);
        madvise(data, size ? size : align, MADV_HUGEPAGE);   /* advice: may be refused */
        memset(data, 0, size ? size : align);
        mg_tensor_pack(t, h->f[i], h->i[i], data);
        flags |= CL_MEM_USE_HOST_PTR;
        e->host[i] = data;
    } else if (t->role == MG_TENSOR_IN) {
        if (!(data = calloc(bytes ? bytes : 1, 1)))
            return say(e, MGP_KX_FAIL, "out of memory for tensor '%s'", t->name);
        mg_tensor_pack(t, h->f[i], h->i[i], data);
        flags |= CL_MEM_COPY_HOST_PTR;
    }
    cl_int err;
    const char *fn;
    if (t->layout == MG_TL_IMAGE) {
        cl_image_format f = image_format(t);
        cl_image_desc desc;
        memset(&desc, 0, sizeof desc);
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = (size_t)mg_tensor_img_width(t);
        desc.image_height = (size_t)mg_tensor_img_height(t);
        fn = "clCreateImage";
        e->mem[i] = clCreateImage(e->dev->ctx, flags, &f, &desc, data, &err);
    } else {
        fn = "clCreateBuffer";
        e->mem[i] = clCreateBuffer(e->dev->ctx, flags, bytes, data, &err);
    }
    if (!keep) free(data);
    if (err != CL_SUCCESS) {
        e->mem[i] = NULL;
        return cl_fail(e, fn, err, t->name);
    }
    return MGP_KX_OK;
}

/* Set the kernel's arguments in k.args order, then the log.  Returns
 * MGP_KX_OK or FAIL. */
static int set_args(mgp_kexec *e)
{
    const mg_kernel *k = &e->g->k;
    char what[64];
    cl_uint i = 0;
    for (; i < (cl_uint)k->n_args; i++) {
        const mg_arg *a = &k->args[i];
        cl_int err = CL_INVALID_ARG_VALUE;
        cl_int iv = (cl_int)a->ival;
        cl_float fv = (cl_float)a->fval;
        switch (a->kind) {
        case MG_ARG_TENSOR:
            if (a->tensor >= 0 && a->tensor < k->n_tensors)
                err = clSetKernelArg(e->kern, i, sizeof(cl_mem), &e->mem[a->tensor]);
            break;
        case MG_ARG_INT: err = clSetKernelArg(e->kern, i, sizeof iv, &iv); break;
        case MG_ARG_FLOAT: err = clSetKernelArg(e->kern, i, sizeof fv, &fv); break;
        case MG_ARG_LOCAL: err = clSetKernelArg(e->kern, i, (size_t)a->ival, NULL); break;
        }
        if (err != CL_SUCCESS) {
            snprintf(what, sizeof what, "argument %u '%s'", i, a->name);
            return cl_fail(e, "clSetKernelArg", err, what);
        }
    }
    if (e->instrumented) {
        cl_int err = clSetKernelArg(e->kern, i, sizeof(cl_mem), &e->log);
        if (err != CL_SUCCESS) return cl_fail(e, "clSetKernelArg", err, "the access log");
    }
    return MGP_KX_OK;
}

/* Create the memory objects: tensors, the log, and the poison pattern. */
static int create_memory(mgp_kexec *e, const mg_host *h)
{
    const mg_kernel *k = &e->g->k;
    size_t poison = 0;
    for (int i = 0; i < k->n_tensors; i++) {
        int rc = create_tensor(e, i, h);
        if (rc != MGP_KX_OK) return rc;
        size_t b = (size_t)mg_tensor_device_bytes(&k->t[i]);
        if (k->t[i].role == MG_TENSOR_OUT && b > poison) poison = b;
    }
    if (!(e->poison = malloc(poison ? poison : 1)))
        return say(e, MGP_KX_FAIL, "out of memory for the output poison");
    memset(e->poison, 0xFF, poison ? poison : 1);
    if (!e->instrumented) return MGP_KX_OK;
    e->log_words = mg_tracer_log_words(k);
    if (e->log_words == 0 || e->log_words > SIZE_MAX / 4)
        return say(e, MGP_KX_FAIL, "the access log (log_cap %" PRId64 ") is too large",
                   k->log_cap);
    if ((cl_ulong)e->log_words * 4 > e->dev->max_alloc)
        return say(e, MGP_KX_SKIP, "the access log of %zu bytes exceeds the device's "
                   "CL_DEVICE_MAX_MEM_ALLOC_SIZE", e->log_words * 4);
    cl_int err;
    e->log = clCreateBuffer(e->dev->ctx, CL_MEM_READ_WRITE, e->log_words * 4, NULL, &err);
    if (err != CL_SUCCESS) {
        e->log = NULL;
        return cl_fail(e, "clCreateBuffer", err, "the access log");
    }
    return MGP_KX_OK;
}

int mgp_kexec_prepare(mgp_kexec *e, mgp_kexec_dev *dev, const mg_gen *g, const mg_host *h,
                      int instrumented)
{
    return mgp_kexec_prepare_opts(e, dev, g, h, instrumented, NULL);
}

int mgp_kexec_prepare_opts(mgp_kexec *e, mgp_kexec_dev *dev, const mg_gen *g,
                           const mg_host *h, int instrumented, const char *extra_opts)
{
    memset(e, 0, sizeof *e);
    e->extra_opts = extra_opts;
    e->dev = dev;
    e->g = g;
    e->instrumented = instrumented;
    int rc = check_limits(e);
    if (rc == MGP_KX_OK) rc = build(e);
    if (rc == MGP_KX_OK) rc = create_memory(e, h);
    if (rc == MGP_KX_OK) rc = set_args(e);
    return rc;
}

/* Region of image tensor t, in texels. */
static void image_region(const mg_tensor *t, size_t region[3])
{
    region[0] = (size_t)mg_tensor_img_width(t);
    region[1] = (size_t)mg_tensor_img_height(t);
    region[2] = 1;
}

/* Fill every output with 0xFF bytes and the log with zeros (blocking). */
static int poison_outputs(mgp_kexec *e)
{
    const mg_kernel *k = &e->g->k;
    static const size_t origin[3] = {0, 0, 0};
    for (int i = 0; i < k->n_tensors; i++) {
        const mg_tensor *t = &k->t[i];
        if (t->role != MG_TENSOR_OUT) continue;
        cl_int err;
        if (t->layout == MG_TL_IMAGE) {
            size_t region[3];
            image_region(t, region);
            err = clEnqueueWriteImage(e->dev->queue, e->mem[i], CL_TRUE, origin, region, 0, 0,
                                      e->poison, 0, NULL, NULL);
            if (err != CL_SUCCESS) return cl_fail(e, "clEnqueueWriteImage", err, t->name);
        } else {
            err = clEnqueueWriteBuffer(e->dev->queue, e->mem[i], CL_TRUE, 0,
                                       (size_t)mg_tensor_device_bytes(t), e->poison, 0, NULL,
                                       NULL);
            if (err != CL_SUCCESS) return cl_fail(e, "clEnqueueWriteBuffer", err, t->name);
        }
    }
    if (e->log) {
        cl_uint zero = 0;
        cl_int err = clEnqueueFillBuffer(e->dev->queue, e->log, &zero, sizeof zero, 0,
                                         e->log_words * 4, 0, NULL, NULL);
        if (err == CL_SUCCESS) err = clFinish(e->dev->queue);
        if (err != CL_SUCCESS) return cl_fail(e, "clEnqueueFillBuffer", err, "the access log");
    }
    return MGP_KX_OK;
}

int mgp_kexec_launch(mgp_kexec *e, double *ns)
{
    if (!e->kern) return say(e, MGP_KX_FAIL, "launch of a kernel that was not prepared");
    int rc = poison_outputs(e);
    if (rc != MGP_KX_OK) return rc;
    const mg_kernel *k = &e->g->k;
    size_t global[3], local[3];
    for (int i = 0; i < 3; i++) {
        global[i] = k->global[i] > 0 ? (size_t)k->global[i] : 1;
        local[i] = k->local[i] > 0 ? (size_t)k->local[i] : 1;
    }
    cl_uint dims = k->work_dim >= 1 && k->work_dim <= 3 ? (cl_uint)k->work_dim : 3;
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(e->dev->queue, e->kern, dims, NULL, global, local, 0,
                                        NULL, &ev);
    if (err != CL_SUCCESS) return cl_fail(e, "clEnqueueNDRangeKernel", err, k->name);
    err = clWaitForEvents(1, &ev);
    if (err != CL_SUCCESS) {
        clReleaseEvent(ev);
        return cl_fail(e, "clWaitForEvents", err, k->name);
    }
    if (ns) {
        cl_ulong t0 = 0, t1 = 0;
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        if (err == CL_SUCCESS)
            err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
        if (err != CL_SUCCESS) {
            clReleaseEvent(ev);
            return cl_fail(e, "clGetEventProfilingInfo", err, k->name);
        }
        *ns = t1 >= t0 ? (double)(t1 - t0) : 0.0;
    }
    clReleaseEvent(ev);
    return MGP_KX_OK;
}

/* Seconds since an arbitrary start. */
static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int mgp_kexec_run_timed(mgp_kexec *e, double *ns, double timeout_s,
                        const volatile sig_atomic_t *stop)
{
    if (!e->kern) return say(e, MGP_KX_FAIL, "launch of a kernel that was not prepared");
    const mg_kernel *k = &e->g->k;
    size_t global[3], local[3];
    for (int i = 0; i < 3; i++) {
        global[i] = k->global[i] > 0 ? (size_t)k->global[i] : 1;
        local[i] = k->local[i] > 0 ? (size_t)k->local[i] : 1;
    }
    cl_uint dims = k->work_dim >= 1 && k->work_dim <= 3 ? (cl_uint)k->work_dim : 3;
    cl_event ev = NULL;
    cl_int err = clEnqueueNDRangeKernel(e->dev->queue, e->kern, dims, NULL, global, local, 0,
                                        NULL, &ev);
    if (err != CL_SUCCESS) return cl_fail(e, "clEnqueueNDRangeKernel", err, k->name);
    if ((err = clFlush(e->dev->queue)) != CL_SUCCESS) {
        clReleaseEvent(ev);
        return cl_fail(e, "clFlush", err, k->name);
    }
    double t0 = mono_s();
    for (;;) {
        cl_int st = CL_QUEUED;
        err = clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL);
        if (err != CL_SUCCESS) {
            clReleaseEvent(ev);
            return cl_fail(e, "clGetEventInfo", err, k->name);
        }
        if (st < 0) {            /* the command failed: st is its error code */
            clReleaseEvent(ev);
            return cl_fail(e, "kernel execution", st, k->name);
        }
        if (st == CL_COMPLETE) break;
        if ((stop && *stop) || (timeout_s > 0 && mono_s() - t0 > timeout_s)) {
            clReleaseEvent(ev);
            return say(e, MGP_KX_HUNG, "%s: the kernel did not finish within %.1f s%s",
                       k->name, mono_s() - t0, stop && *stop ? " (interrupted)" : "");
        }
        struct timespec nap = {0, 200000};
        nanosleep(&nap, NULL);
    }
    cl_ulong a = 0, b = 0;
    err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
    clReleaseEvent(ev);
    if (err != CL_SUCCESS) return cl_fail(e, "clGetEventProfilingInfo", err, k->name);
    if (ns) *ns = b >= a ? (double)(b - a) : 0.0;
    return MGP_KX_OK;
}

/* Read output tensor i into h.  Returns MGP_KX_OK or FAIL. */
static int read_tensor(mgp_kexec *e, int i, mg_host *h)
{
    const mg_tensor *t = &e->g->k.t[i];
    size_t bytes = (size_t)mg_tensor_device_bytes(t);
    void *data = malloc(bytes ? bytes : 1);
    if (!data) return say(e, MGP_KX_FAIL, "out of memory reading tensor '%s'", t->name);
    static const size_t origin[3] = {0, 0, 0};
    cl_int err;
    const char *fn;
    if (t->layout == MG_TL_IMAGE) {
        size_t region[3];
        image_region(t, region);
        fn = "clEnqueueReadImage";
        err = clEnqueueReadImage(e->dev->queue, e->mem[i], CL_TRUE, origin, region, 0, 0, data,
                                 0, NULL, NULL);
    } else {
        fn = "clEnqueueReadBuffer";
        err = clEnqueueReadBuffer(e->dev->queue, e->mem[i], CL_TRUE, 0, bytes, data, 0, NULL,
                                  NULL);
    }
    if (err == CL_SUCCESS) mg_tensor_unpack(t, data, h->f[i], h->i[i]);
    free(data);
    return err == CL_SUCCESS ? MGP_KX_OK : cl_fail(e, fn, err, t->name);
}

int mgp_kexec_read(mgp_kexec *e, mg_host *h, uint32_t **log, size_t *log_words)
{
    if (log) *log = NULL;
    if (log_words) *log_words = 0;
    const mg_kernel *k = &e->g->k;
    for (int i = 0; i < k->n_tensors; i++) {
        if (k->t[i].role != MG_TENSOR_OUT) continue;
        int rc = read_tensor(e, i, h);
        if (rc != MGP_KX_OK) return rc;
    }
    if (!e->log || !log) return MGP_KX_OK;
    uint32_t *w = malloc(e->log_words * 4);
    if (!w) return say(e, MGP_KX_FAIL, "out of memory reading the access log");
    cl_int err = clEnqueueReadBuffer(e->dev->queue, e->log, CL_TRUE, 0, e->log_words * 4, w, 0,
                                     NULL, NULL);
    if (err != CL_SUCCESS) {
        free(w);
        return cl_fail(e, "clEnqueueReadBuffer", err, "the access log");
    }
    *log = w;
    if (log_words) *log_words = e->log_words;
    return MGP_KX_OK;
}

void mgp_kexec_release(mgp_kexec *e)
{
    for (int i = 0; i < MG_MAX_TENSORS; i++)
        if (e->mem[i]) clReleaseMemObject(e->mem[i]);
    if (e->dev && e->dev->queue) clFinish(e->dev->queue);   /* before the host memory goes */
    for (int i = 0; i < MG_MAX_TENSORS; i++) {
        free(e->host[i]);
        e->host[i] = NULL;
    }
    if (e->log) clReleaseMemObject(e->log);
    if (e->kern) clReleaseKernel(e->kern);
    if (e->prog) clReleaseProgram(e->prog);
    free(e->poison);
    free(e->build_log);
    memset(e->mem, 0, sizeof e->mem);
    e->log = NULL;
    e->kern = NULL;
    e->prog = NULL;
    e->poison = NULL;
    e->build_log = NULL;
}
