/* cl_util.c - see cl_util.h. */
#include "probe/cl_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct errname {
    cl_int      code;
    const char *name;
} errname;

/* The codes of cl.h for OpenCL 1.2, named by their own macros so a value
 * can never drift from its name. */
#define E(x) {x, #x}
static const errname cl12_errors[] = {
    E(CL_SUCCESS),
    E(CL_DEVICE_NOT_FOUND),
    E(CL_DEVICE_NOT_AVAILABLE),
    E(CL_COMPILER_NOT_AVAILABLE),
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE),
    E(CL_OUT_OF_RESOURCES),
    E(CL_OUT_OF_HOST_MEMORY),
    E(CL_PROFILING_INFO_NOT_AVAILABLE),
    E(CL_MEM_COPY_OVERLAP),
    E(CL_IMAGE_FORMAT_MISMATCH),
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED),
    E(CL_BUILD_PROGRAM_FAILURE),
    E(CL_MAP_FAILURE),
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET),
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
    E(CL_COMPILE_PROGRAM_FAILURE),
    E(CL_LINKER_NOT_AVAILABLE),
    E(CL_LINK_PROGRAM_FAILURE),
    E(CL_DEVICE_PARTITION_FAILED),
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
    E(CL_INVALID_VALUE),
    E(CL_INVALID_DEVICE_TYPE),
    E(CL_INVALID_PLATFORM),
    E(CL_INVALID_DEVICE),
    E(CL_INVALID_CONTEXT),
    E(CL_INVALID_QUEUE_PROPERTIES),
    E(CL_INVALID_COMMAND_QUEUE),
    E(CL_INVALID_HOST_PTR),
    E(CL_INVALID_MEM_OBJECT),
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
    E(CL_INVALID_IMAGE_SIZE),
    E(CL_INVALID_SAMPLER),
    E(CL_INVALID_BINARY),
    E(CL_INVALID_BUILD_OPTIONS),
    E(CL_INVALID_PROGRAM),
    E(CL_INVALID_PROGRAM_EXECUTABLE),
    E(CL_INVALID_KERNEL_NAME),
    E(CL_INVALID_KERNEL_DEFINITION),
    E(CL_INVALID_KERNEL),
    E(CL_INVALID_ARG_INDEX),
    E(CL_INVALID_ARG_VALUE),
    E(CL_INVALID_ARG_SIZE),
    E(CL_INVALID_KERNEL_ARGS),
    E(CL_INVALID_WORK_DIMENSION),
    E(CL_INVALID_WORK_GROUP_SIZE),
    E(CL_INVALID_WORK_ITEM_SIZE),
    E(CL_INVALID_GLOBAL_OFFSET),
    E(CL_INVALID_EVENT_WAIT_LIST),
    E(CL_INVALID_EVENT),
    E(CL_INVALID_OPERATION),
    E(CL_INVALID_GL_OBJECT),
    E(CL_INVALID_BUFFER_SIZE),
    E(CL_INVALID_MIP_LEVEL),
    E(CL_INVALID_GLOBAL_WORK_SIZE),
    E(CL_INVALID_PROPERTY),
    E(CL_INVALID_IMAGE_DESCRIPTOR),
    E(CL_INVALID_COMPILER_OPTIONS),
    E(CL_INVALID_LINKER_OPTIONS),
    E(CL_INVALID_DEVICE_PARTITION_COUNT),
};
#undef E

/* Codes that a 1.2 target's headers hide (later core versions) or keep in
 * extension headers; an ICD loader or a newer driver can still return them. */
static const errname later_errors[] = {
    {-69, "CL_INVALID_PIPE_SIZE"},
    {-70, "CL_INVALID_DEVICE_QUEUE"},
    {-71, "CL_INVALID_SPEC_ID"},
    {-72, "CL_MAX_SIZE_RESTRICTION_EXCEEDED"},
    {-1000, "CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR"},
    {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
    {-1057, "CL_DEVICE_PARTITION_FAILED_EXT"},
    {-1058, "CL_INVALID_PARTITION_COUNT_EXT"},
    {-1059, "CL_INVALID_PARTITION_NAME_EXT"},
    {-1121, "CL_CONTEXT_TERMINATED_KHR"},
};

const char *mgp_cl_errname(cl_int err)
{
    for (size_t i = 0; i < sizeof cl12_errors / sizeof cl12_errors[0]; i++)
        if (cl12_errors[i].code == err) return cl12_errors[i].name;
    for (size_t i = 0; i < sizeof later_errors / sizeof later_errors[0]; i++)
        if (later_errors[i].code == err) return later_errors[i].name;
    return "CL_UNKNOWN_ERROR";
}

char *mgp_cl_errfmt(char *buf, size_t len, const char *fn, cl_int err)
{
    snprintf(buf, len, "%s: %s (%d)", fn, mgp_cl_errname(err), (int)err);
    return buf;
}

/* clGetPlatformInfo or clGetDeviceInfo behind one signature, so the blob
 * query below serves both. */
typedef cl_int (*info_fn)(void *obj, cl_uint what, size_t size, void *val, size_t *ret);

/* clGetPlatformInfo on obj, a cl_platform_id. */
static cl_int get_platform(void *obj, cl_uint what, size_t size, void *val, size_t *ret)
{
    return clGetPlatformInfo((cl_platform_id)obj, what, size, val, ret);
}

/* clGetDeviceInfo on obj, a cl_device_id. */
static cl_int get_device(void *obj, cl_uint what, size_t size, void *val, size_t *ret)
{
    return clGetDeviceInfo((cl_device_id)obj, what, size, val, ret);
}

/* Query a byte blob of unknown length: ask the size, allocate it (plus one
 * NUL byte, so strings are always terminated), fetch.  On success *out is
 * malloc'd and *len is the reported size; on failure *out is NULL. */
static cl_int query_blob(info_fn get, void *obj, cl_uint what, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    size_t size = 0;
    cl_int err = get(obj, what, 0, NULL, &size);
    if (err != CL_SUCCESS) return err;
    if (size > MGP_CL_INFO_MAX) return CL_OUT_OF_HOST_MEMORY;
    char *buf = calloc(size + 1, 1);
    if (!buf) return CL_OUT_OF_HOST_MEMORY;
    size_t got = 0;
    err = get(obj, what, size, buf, &got);
    if (err != CL_SUCCESS) {
        free(buf);
        return err;
    }
    *out = buf;
    *len = got < size ? got : size;
    return CL_SUCCESS;
}

cl_int mgp_cl_platform_str(cl_platform_id p, cl_platform_info what, char **out)
{
    size_t len;
    return query_blob(get_platform, p, what, out, &len);
}

cl_int mgp_cl_device_str(cl_device_id d, cl_device_info what, char **out)
{
    size_t len;
    return query_blob(get_device, d, what, out, &len);
}

/* Query a fixed-size scalar of `size` bytes; the reported size must match. */
static cl_int device_scalar(cl_device_id d, cl_device_info what, void *out, size_t size)
{
    memset(out, 0, size);
    size_t got = 0;
    cl_int err = clGetDeviceInfo(d, what, size, out, &got);
    if (err == CL_SUCCESS && got != size) err = CL_INVALID_VALUE;
    if (err != CL_SUCCESS) memset(out, 0, size);
    return err;
}

cl_int mgp_cl_device_uint(cl_device_id d, cl_device_info what, cl_uint *out)
{
    return device_scalar(d, what, out, sizeof *out);
}

cl_int mgp_cl_device_ulong(cl_device_id d, cl_device_info what, cl_ulong *out)
{
    return device_scalar(d, what, out, sizeof *out);
}

cl_int mgp_cl_device_size(cl_device_id d, cl_device_info what, size_t *out)
{
    return device_scalar(d, what, out, sizeof *out);
}

cl_int mgp_cl_device_sizes(cl_device_id d, cl_device_info what, size_t **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    char *buf;
    size_t len;
    cl_int err = query_blob(get_device, d, what, &buf, &len);
    if (err != CL_SUCCESS) return err;
    if (len % sizeof(size_t)) {
        free(buf);
        return CL_INVALID_VALUE;
    }
    *n = len / sizeof(size_t);
    if (*n == 0) {
        free(buf);
        return CL_SUCCESS;
    }
    /* calloc'd memory is suitably aligned for any type. */
    *out = (size_t *)(void *)buf;
    return CL_SUCCESS;
}

int mgp_cl_has_extension(const char *exts, const char *name)
{
    size_t n = strlen(name);
    if (!exts || n == 0) return 0;
    for (const char *p = exts; *p;) {
        while (*p && strchr(" \t\n", *p)) p++;
        const char *end = p;
        while (*end && !strchr(" \t\n", *end)) end++;
        if ((size_t)(end - p) == n && !strncmp(p, name, n)) return 1;
        p = end;
    }
    return 0;
}
