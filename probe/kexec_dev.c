/* kexec_dev.c - opening and closing a device for kexec (see kexec.h). */
#include "probe/kexec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mgp_kexec_parse_id(const char *s, unsigned *pi, unsigned *di)
{
    char *end;
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    unsigned long p = strtoul(s, &end, 10);
    if (errno || *end != ':' || p > 65535) return -1;
    const char *t = end + 1;
    if (*t < '0' || *t > '9') return -1;
    unsigned long d = strtoul(t, &end, 10);
    if (errno || *end || d > 65535) return -1;
    *pi = (unsigned)p;
    *di = (unsigned)d;
    return 0;
}

/* Find platform pi and its device di.  Returns 0, or -1 with a message. */
static int find_device(mgp_kexec_dev *x, unsigned pi, unsigned di, int *none, mg_diag *d)
{
    char msg[160];
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && n == 0)) {
        if (none) *none = 1;
        mg_diag_error(d, "no OpenCL platform found (%s)",
                      err == CL_SUCCESS ? "the ICD loader lists none"
                                        : mgp_cl_errfmt(msg, sizeof msg, "clGetPlatformIDs", err));
        return -1;
    }
    cl_platform_id *plats = err == CL_SUCCESS ? calloc(n, sizeof *plats) : NULL;
    if (err == CL_SUCCESS) err = plats ? clGetPlatformIDs(n, plats, &n) : CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        free(plats);
        mg_diag_error(d, "%s", mgp_cl_errfmt(msg, sizeof msg, "clGetPlatformIDs", err));
        return -1;
    }
    if (pi >= n) {
        free(plats);
        mg_diag_error(d, "device %u:%u: there is no platform %u (%u platform%s; `mgprobe "
                      "devices` lists them)", pi, di, pi, n, n == 1 ? "" : "s");
        return -1;
    }
    x->platform = plats[pi];
    free(plats);
    cl_uint nd = 0;
    err = clGetDeviceIDs(x->platform, CL_DEVICE_TYPE_ALL, 0, NULL, &nd);
    if (err == CL_DEVICE_NOT_FOUND) {   /* a platform without devices */
        nd = 0;
        err = CL_SUCCESS;
    }
    cl_device_id *devs = err == CL_SUCCESS && nd ? calloc(nd, sizeof *devs) : NULL;
    if (err == CL_SUCCESS && nd)
        err = devs ? clGetDeviceIDs(x->platform, CL_DEVICE_TYPE_ALL, nd, devs, &nd)
                   : CL_OUT_OF_HOST_MEMORY;
    if (err != CL_SUCCESS) {
        free(devs);
        mg_diag_error(d, "platform %u: %s", pi,
                      mgp_cl_errfmt(msg, sizeof msg, "clGetDeviceIDs", err));
        return -1;
    }
    if (di >= nd) {
        free(devs);
        mg_diag_error(d, "device %u:%u: platform %u has %u device%s", pi, di, pi, nd,
                      nd == 1 ? "" : "s");
        return -1;
    }
    x->device = devs[di];
    free(devs);
    return 0;
}

/* Read the capabilities kernels are checked against.  Returns 0, or -1
 * with a message naming the query that failed. */
static int query_caps(mgp_kexec_dev *x, mg_diag *d)
{
    char msg[160];
    cl_uint img = 0;
    char *s = NULL;
    size_t *items = NULL, nitems = 0;
    cl_int err;
    const char *fn = "clGetDeviceInfo(CL_DEVICE_NAME)";
    if ((err = mgp_cl_device_str(x->device, CL_DEVICE_NAME, &s)) != CL_SUCCESS) goto fail;
    snprintf(x->name, sizeof x->name, "%s", s);
    free(s);
    s = NULL;
    fn = "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)";
    if ((err = mgp_cl_device_str(x->device, CL_DEVICE_EXTENSIONS, &s)) != CL_SUCCESS) goto fail;
    x->fp16 = mgp_cl_has_extension(s, "cl_khr_fp16");
    free(s);
    fn = "clGetDeviceInfo(CL_DEVICE_IMAGE_SUPPORT)";
    if ((err = mgp_cl_device_uint(x->device, CL_DEVICE_IMAGE_SUPPORT, &img)) != CL_SUCCESS)
        goto fail;
    x->images = img != CL_FALSE;
    if (x->images) {
        fn = "clGetDeviceInfo(CL_DEVICE_IMAGE2D_MAX_WIDTH)";
        if ((err = mgp_cl_device_size(x->device, CL_DEVICE_IMAGE2D_MAX_WIDTH, &x->img_w)))
            goto fail;
        fn = "clGetDeviceInfo(CL_DEVICE_IMAGE2D_MAX_HEIGHT)";
        if ((err = mgp_cl_device_size(x->device, CL_DEVICE_IMAGE2D_MAX_HEIGHT, &x->img_h)))
            goto fail;
    }
    fn = "clGetDeviceInfo(CL_DEVICE_MAX_WORK_GROUP_SIZE)";
    if ((err = mgp_cl_device_size(x->device, CL_DEVICE_MAX_WORK_GROUP_SIZE, &x->max_wg)))
        goto fail;
    fn = "clGetDeviceInfo(CL_DEVICE_MAX_WORK_ITEM_SIZES)";
    if ((err = mgp_cl_device_sizes(x->device, CL_DEVICE_MAX_WORK_ITEM_SIZES, &items, &nitems)))
        goto fail;
    for (size_t i = 0; i < 3; i++) x->max_items[i] = i < nitems ? items[i] : 1;
    free(items);
    fn = "clGetDeviceInfo(CL_DEVICE_LOCAL_MEM_SIZE)";
    if ((err = mgp_cl_device_ulong(x->device, CL_DEVICE_LOCAL_MEM_SIZE, &x->local_mem)))
        goto fail;
    fn = "clGetDeviceInfo(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE)";
    if ((err = mgp_cl_device_ulong(x->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
                                   &x->const_mem)))
        goto fail;
    cl_device_type type = 0;
    fn = "clGetDeviceInfo(CL_DEVICE_TYPE)";
    if ((err = mgp_cl_device_ulong(x->device, CL_DEVICE_TYPE, &type))) goto fail;
    x->cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
    fn = "clGetDeviceInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE)";
    if ((err = mgp_cl_device_ulong(x->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, &x->max_alloc)))
        goto fail;
    return 0;
fail:
    free(s);
    mg_diag_error(d, "device %u:%u: %s", x->pi, x->di, mgp_cl_errfmt(msg, sizeof msg, fn, err));
    return -1;
}

int mgp_kexec_open(mgp_kexec_dev *x, unsigned pi, unsigned di, int *none, mg_diag *d)
{
    char msg[160];
    memset(x, 0, sizeof *x);
    x->pi = pi;
    x->di = di;
    if (none) *none = 0;
    if (find_device(x, pi, di, none, d) || query_caps(x, d)) return -1;
    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)x->platform,
                                     0};
    x->ctx = clCreateContext(props, 1, &x->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        x->ctx = NULL;
        mg_diag_error(d, "device %u:%u: %s", pi, di,
                      mgp_cl_errfmt(msg, sizeof msg, "clCreateContext", err));
        return -1;
    }
    x->queue = clCreateCommandQueue(x->ctx, x->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        x->queue = NULL;
        mg_diag_error(d, "device %u:%u: %s", pi, di,
                      mgp_cl_errfmt(msg, sizeof msg, "clCreateCommandQueue", err));
        mgp_kexec_close(x);
        return -1;
    }
    return 0;
}

void mgp_kexec_close(mgp_kexec_dev *x)
{
    if (x->queue) clReleaseCommandQueue(x->queue);
    if (x->ctx) clReleaseContext(x->ctx);
    x->queue = NULL;
    x->ctx = NULL;
}
