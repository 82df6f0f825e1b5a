/* devinfo.c - see devinfo.h. */
#include "probe/devinfo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const mgp_field mgp_platform_fields[] = {
    {"name", "Name", CL_PLATFORM_NAME, MGP_F_STR, NULL, NULL},
    {"vendor", "Vendor", CL_PLATFORM_VENDOR, MGP_F_STR, NULL, NULL},
    {"version", "Version", CL_PLATFORM_VERSION, MGP_F_STR, NULL, NULL},
};
const size_t mgp_platform_field_count = sizeof mgp_platform_fields / sizeof mgp_platform_fields[0];

const mgp_field mgp_device_fields[] = {
    {"name", "Name", CL_DEVICE_NAME, MGP_F_STR, NULL, NULL},
    {"vendor", "Vendor", CL_DEVICE_VENDOR, MGP_F_STR, NULL, NULL},
    {"version", "Device version", CL_DEVICE_VERSION, MGP_F_STR, NULL, NULL},
    {"driver_version", "Driver version", CL_DRIVER_VERSION, MGP_F_STR, NULL, NULL},
    {"opencl_c_version", "OpenCL C version", CL_DEVICE_OPENCL_C_VERSION, MGP_F_STR, NULL, NULL},
    {"type", "Type", CL_DEVICE_TYPE, MGP_F_TYPE, NULL, NULL},
    {"compute_units", "Compute units", CL_DEVICE_MAX_COMPUTE_UNITS, MGP_F_UINT, NULL, NULL},
    {"max_clock_mhz", "Max clock", CL_DEVICE_MAX_CLOCK_FREQUENCY, MGP_F_UINT, "MHz", NULL},
    {"max_work_group_size", "Max work-group size", CL_DEVICE_MAX_WORK_GROUP_SIZE, MGP_F_SIZE,
     NULL, NULL},
    {"max_work_item_sizes", "Max work-item sizes", CL_DEVICE_MAX_WORK_ITEM_SIZES, MGP_F_SIZES,
     NULL, NULL},
    {"preferred_vector_width_float", "Preferred vector width float",
     CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, MGP_F_UINT, NULL, NULL},
    {"native_vector_width_float", "Native vector width float",
     CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, MGP_F_UINT, NULL, NULL},
    {"preferred_vector_width_half", "Preferred vector width half",
     CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, MGP_F_UINT, NULL, NULL},
    {"native_vector_width_half", "Native vector width half", CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF,
     MGP_F_UINT, NULL, NULL},
    {"global_mem_size", "Global memory size", CL_DEVICE_GLOBAL_MEM_SIZE, MGP_F_BYTES, NULL,
     NULL},
    {"global_mem_cache_size", "Global cache size", CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, MGP_F_BYTES,
     NULL, NULL},
    {"global_mem_cacheline_size", "Global cacheline size", CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE,
     MGP_F_UINT, "bytes", NULL},
    {"global_mem_cache_type", "Global cache type", CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, MGP_F_CACHE,
     NULL, NULL},
    {"local_mem_size", "Local memory size", CL_DEVICE_LOCAL_MEM_SIZE, MGP_F_BYTES, NULL, NULL},
    {"local_mem_type", "Local memory type", CL_DEVICE_LOCAL_MEM_TYPE, MGP_F_LMEM, NULL, NULL},
    {"max_constant_buffer_size", "Max constant buffer size", CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE,
     MGP_F_BYTES, NULL, NULL},
    {"image_support", "Image support", CL_DEVICE_IMAGE_SUPPORT, MGP_F_BOOL, NULL, NULL},
    {"image2d_max_width", "Image2D max width", CL_DEVICE_IMAGE2D_MAX_WIDTH, MGP_F_SIZE, NULL,
     "image_support"},
    {"image2d_max_height", "Image2D max height", CL_DEVICE_IMAGE2D_MAX_HEIGHT, MGP_F_SIZE, NULL,
     "image_support"},
    {"max_mem_alloc_size", "Max mem alloc size", CL_DEVICE_MAX_MEM_ALLOC_SIZE, MGP_F_BYTES, NULL,
     NULL},
    {"cl_khr_fp16", "cl_khr_fp16", CL_DEVICE_EXTENSIONS, MGP_F_EXT, "cl_khr_fp16", NULL},
    {"cl_khr_fp64", "cl_khr_fp64", CL_DEVICE_EXTENSIONS, MGP_F_EXT, "cl_khr_fp64", NULL},
};
const size_t mgp_device_field_count = sizeof mgp_device_fields / sizeof mgp_device_fields[0];

/* The name of a cl_device_type: its kind bits joined by '|' ("CPU",
 * "GPU", "ACCELERATOR", "CUSTOM"; CL_DEVICE_TYPE_DEFAULT is not a kind and
 * is left out), "NONE" when no kind bit is set.  Writes into buf. */
static const char *type_name(cl_device_type t, char *buf, size_t len)
{
    static const struct { cl_device_type bit; const char *name; } kinds[] = {
        {CL_DEVICE_TYPE_CPU, "CPU"},
        {CL_DEVICE_TYPE_GPU, "GPU"},
        {CL_DEVICE_TYPE_ACCELERATOR, "ACCELERATOR"},
        {CL_DEVICE_TYPE_CUSTOM, "CUSTOM"},
    };
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (!(t & kinds[i].bit)) continue;
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", n ? "|" : "", kinds[i].name);
    }
    if (!buf[0]) snprintf(buf, len, "NONE");
    return buf;
}

/* The name of a cl_device_mem_cache_type value. */
static const char *cache_name(cl_uint v)
{
    switch (v) {
    case CL_NONE: return "NONE";
    case CL_READ_ONLY_CACHE: return "READ_ONLY";
    case CL_READ_WRITE_CACHE: return "READ_WRITE";
    }
    return "UNKNOWN";
}

/* The name of a cl_device_local_mem_type value. */
static const char *lmem_name(cl_uint v)
{
    switch (v) {
    case CL_NONE: return "NONE";
    case CL_LOCAL: return "LOCAL";
    case CL_GLOBAL: return "GLOBAL";
    }
    return "UNKNOWN";
}

/* Query a string field and wrap it; NULL with *err set on failure. */
static cJSON *query_string(cl_platform_id p, cl_device_id dev, cl_uint param, cl_int *err)
{
    char *s = NULL;
    *err = dev ? mgp_cl_device_str(dev, param, &s) : mgp_cl_platform_str(p, param, &s);
    if (*err != CL_SUCCESS) return NULL;
    cJSON *j = cJSON_CreateString(s);
    free(s);
    if (!j) *err = CL_OUT_OF_HOST_MEMORY;
    return j;
}

/* Query a size_t[] field and wrap it as an array of numbers; NULL with
 * *err set on failure. */
static cJSON *query_sizes(cl_device_id dev, cl_uint param, cl_int *err)
{
    size_t *v, n;
    *err = mgp_cl_device_sizes(dev, param, &v, &n);
    if (*err != CL_SUCCESS) return NULL;
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < n; i++) {
        cJSON *x = cJSON_CreateNumber((double)v[i]);
        if (!x || !cJSON_AddItemToArray(arr, x)) {
            cJSON_Delete(x);
            cJSON_Delete(arr);
            arr = NULL;
        }
    }
    free(v);
    if (!arr) *err = CL_OUT_OF_HOST_MEMORY;
    return arr;
}

/* Query whether the device's extension string has `ext`; NULL with *err
 * set on failure. */
static cJSON *query_ext(cl_device_id dev, const char *ext, cl_int *err)
{
    char *s = NULL;
    *err = mgp_cl_device_str(dev, CL_DEVICE_EXTENSIONS, &s);
    if (*err != CL_SUCCESS) return NULL;
    cJSON *j = cJSON_CreateBool(mgp_cl_has_extension(s, ext));
    free(s);
    if (!j) *err = CL_OUT_OF_HOST_MEMORY;
    return j;
}

/* Query one field of a device (or, with dev NULL, a string field of
 * platform p) as a cJSON value; NULL with *err set on failure. */
static cJSON *query_field(cl_platform_id p, cl_device_id dev, const mgp_field *f, cl_int *err)
{
    cl_uint u = 0;
    cl_ulong ul = 0;
    size_t sz = 0;
    char buf[64];
    cJSON *j = NULL;
    switch (f->kind) {
    case MGP_F_STR: return query_string(p, dev, f->param, err);
    case MGP_F_SIZES: return query_sizes(dev, f->param, err);
    case MGP_F_EXT: return query_ext(dev, f->unit, err);
    case MGP_F_UINT:
    case MGP_F_BOOL:
    case MGP_F_CACHE:
    case MGP_F_LMEM:
        *err = mgp_cl_device_uint(dev, f->param, &u);
        if (*err != CL_SUCCESS) return NULL;
        if (f->kind == MGP_F_UINT) j = cJSON_CreateNumber(u);
        else if (f->kind == MGP_F_BOOL) j = cJSON_CreateBool(u != CL_FALSE);
        else j = cJSON_CreateString(f->kind == MGP_F_CACHE ? cache_name(u) : lmem_name(u));
        break;
    case MGP_F_BYTES:
    case MGP_F_TYPE:
        *err = mgp_cl_device_ulong(dev, f->param, &ul);
        if (*err != CL_SUCCESS) return NULL;
        if (f->kind == MGP_F_BYTES) j = cJSON_CreateNumber((double)ul);
        else j = cJSON_CreateString(type_name(ul, buf, sizeof buf));
        break;
    case MGP_F_SIZE:
        *err = mgp_cl_device_size(dev, f->param, &sz);
        if (*err != CL_SUCCESS) return NULL;
        j = cJSON_CreateNumber((double)sz);
        break;
    }
    if (!j) *err = CL_OUT_OF_HOST_MEMORY;
    return j;
}

/* Add every field of `fields` to obj: the value, or null plus the error
 * name under "unavailable" (created on the first failure).  Fields whose
 * `requires` flag is not true in obj are left out.  An unknown error code
 * is named "CL_UNKNOWN_ERROR N".  Returns 0, or -1 when out of memory. */
static int add_fields(cJSON *obj, cl_platform_id p, cl_device_id dev, const mgp_field *fields,
                      size_t n)
{
    cJSON *unavail = NULL;
    for (size_t i = 0; i < n; i++) {
        const mgp_field *f = &fields[i];
        if (f->requires && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, f->requires)))
            continue;
        cl_int err = CL_SUCCESS;
        cJSON *v = query_field(p, dev, f, &err);
        if (!v) {
            if (!unavail && !(unavail = cJSON_CreateObject())) return -1;
            char name[64];
            snprintf(name, sizeof name, "%s", mgp_cl_errname(err));
            if (!strcmp(name, "CL_UNKNOWN_ERROR")) /* keep the code: it may be vendor's */
                snprintf(name, sizeof name, "CL_UNKNOWN_ERROR %d", (int)err);
            if (!cJSON_AddStringToObject(unavail, f->key, name)) {
                cJSON_Delete(unavail);
                return -1;
            }
            v = cJSON_CreateNull();
        }
        if (!v || !cJSON_AddItemToObject(obj, f->key, v)) {
            cJSON_Delete(v);
            cJSON_Delete(unavail);
            return -1;
        }
    }
    if (unavail && !cJSON_AddItemToObject(obj, "unavailable", unavail)) {
        cJSON_Delete(unavail);
        return -1;
    }
    return 0;
}

/* Build the object of device pi:di; NULL when out of memory. */
static cJSON *collect_device(cl_platform_id p, cl_device_id dev, cl_uint pi, cl_uint di)
{
    char id[32];
    snprintf(id, sizeof id, "%u:%u", pi, di);
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddStringToObject(o, "id", id) || !cJSON_AddNumberToObject(o, "index", di) ||
        add_fields(o, p, dev, mgp_device_fields, mgp_device_field_count)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

/* List the devices of platform pi into the array devs.  A listing failure
 * other than "no devices" is added to d and set as the platform's "error".
 * Returns 0, or -1 when out of memory. */
static int collect_devices(cJSON *plat, cJSON *devs, cl_platform_id p, cl_uint pi, mg_diag *d)
{
    char msg[160];
    cl_uint n = 0;
    cl_int err = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n);
    cl_device_id *ids = NULL;
    if (err == CL_SUCCESS && n > 0) {
        ids = calloc(n, sizeof *ids);
        err = ids ? clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, n, ids, &n) : CL_OUT_OF_HOST_MEMORY;
    }
    if (err == CL_DEVICE_NOT_FOUND) {   /* a platform without devices */
        err = CL_SUCCESS;
        n = 0;
    }
    if (err != CL_SUCCESS) {
        free(ids);
        mgp_cl_errfmt(msg, sizeof msg, "clGetDeviceIDs", err);
        mg_diag_error(d, "platform %u: %s", pi, msg);
        return cJSON_AddStringToObject(plat, "error", msg) ? 0 : -1;
    }
    for (cl_uint di = 0; di < n; di++) {
        cJSON *o = collect_device(p, ids[di], pi, di);
        if (!o || !cJSON_AddItemToArray(devs, o)) {
            cJSON_Delete(o);
            free(ids);
            return -1;
        }
    }
    free(ids);
    return 0;
}

/* Build the object of platform pi with its devices; NULL when out of
 * memory. */
static cJSON *collect_platform(cl_platform_id p, cl_uint pi, mg_diag *d)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddNumberToObject(o, "index", pi) ||
        add_fields(o, p, NULL, mgp_platform_fields, mgp_platform_field_count)) {
        cJSON_Delete(o);
        return NULL;
    }
    /* "unavailable" (if any) goes after "devices", like on a device. */
    cJSON *unavail = cJSON_DetachItemFromObjectCaseSensitive(o, "unavailable");
    cJSON *devs = cJSON_AddArrayToObject(o, "devices");
    if (unavail && !cJSON_AddItemToObject(o, "unavailable", unavail)) {
        cJSON_Delete(unavail);
        devs = NULL;
    }
    if (!devs || collect_devices(o, devs, p, pi, d)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

cJSON *mgp_devinfo_collect(mg_diag *d, int *none)
{
    *none = 0;
    cJSON *root = cJSON_CreateObject();
    cJSON *plats = root ? cJSON_AddArrayToObject(root, "platforms") : NULL;
    if (!plats) {
        cJSON_Delete(root);
        return NULL;
    }
    char msg[160];
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    cl_platform_id *ids = NULL;
    if (err == CL_SUCCESS && n > 0) {
        ids = calloc(n, sizeof *ids);
        err = ids ? clGetPlatformIDs(n, ids, &n) : CL_OUT_OF_HOST_MEMORY;
    }
    if (err != CL_SUCCESS) {
        mg_diag_error(d, "%s", mgp_cl_errfmt(msg, sizeof msg, "clGetPlatformIDs", err));
        n = 0;
    }
    if (n == 0 && (err == CL_SUCCESS || err == CL_PLATFORM_NOT_FOUND_KHR)) *none = 1;
    for (cl_uint pi = 0; pi < n; pi++) {
        cJSON *o = collect_platform(ids[pi], pi, d);
        if (!o || !cJSON_AddItemToArray(plats, o)) {
            cJSON_Delete(o);
            cJSON_Delete(root);
            free(ids);
            return NULL;
        }
    }
    free(ids);
    return root;
}
