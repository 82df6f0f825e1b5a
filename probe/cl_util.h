/*
 * cl_util.h - small, safe wrappers around the OpenCL C API for mgprobe.
 *
 * Every query returns the OpenCL status (CL_SUCCESS or an error code) and
 * never crashes on a misbehaving implementation: buffers are sized from the
 * implementation's answer, strings are always NUL-terminated, and a scalar
 * whose reported size differs from the expected one is refused.
 */
#ifndef MGP_CL_UTIL_H
#define MGP_CL_UTIL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <CL/cl_ext.h>   /* CL_PLATFORM_NOT_FOUND_KHR */

#include <stddef.h>

/* Largest string or array accepted from a clGet*Info query (bytes). */
#define MGP_CL_INFO_MAX (16u << 20)

/* The symbolic name of an OpenCL error code: -5 -> "CL_OUT_OF_RESOURCES".
 * Covers every OpenCL 1.2 code, the later core codes and the common
 * extension codes (e.g. -1001 CL_PLATFORM_NOT_FOUND_KHR); any other value
 * gives "CL_UNKNOWN_ERROR".  The result is a static string. */
const char *mgp_cl_errname(cl_int err);

/* Format "FN: NAME (CODE)" into buf (e.g. "clGetPlatformIDs:
 * CL_PLATFORM_NOT_FOUND_KHR (-1001)") and return buf. */
char *mgp_cl_errfmt(char *buf, size_t len, const char *fn, cl_int err);

/* Query a string of platform info `what`.  On CL_SUCCESS *out is a
 * malloc'd, NUL-terminated string the caller frees; otherwise *out is NULL. */
cl_int mgp_cl_platform_str(cl_platform_id p, cl_platform_info what, char **out);

/* Query a string of device info `what`; contract as mgp_cl_platform_str. */
cl_int mgp_cl_device_str(cl_device_id d, cl_device_info what, char **out);

/* Query a cl_uint (also cl_bool and the cl_uint-based enums) of device
 * info `what` into *out.  On failure *out is 0; a reported size other than
 * sizeof(cl_uint) gives CL_INVALID_VALUE. */
cl_int mgp_cl_device_uint(cl_device_id d, cl_device_info what, cl_uint *out);

/* Query a cl_ulong (also cl_bitfield types) of device info; contract as
 * mgp_cl_device_uint. */
cl_int mgp_cl_device_ulong(cl_device_id d, cl_device_info what, cl_ulong *out);

/* Query a size_t of device info; contract as mgp_cl_device_uint. */
cl_int mgp_cl_device_size(cl_device_id d, cl_device_info what, size_t *out);

/* Query an array of size_t (e.g. CL_DEVICE_MAX_WORK_ITEM_SIZES).  On
 * CL_SUCCESS *out is a malloc'd array of *n elements (NULL when *n is 0)
 * that the caller frees; otherwise *out is NULL and *n is 0.  A reported
 * size that is not a multiple of sizeof(size_t) gives CL_INVALID_VALUE. */
cl_int mgp_cl_device_sizes(cl_device_id d, cl_device_info what, size_t **out, size_t *n);

/* Nonzero when `name` is one of the space-separated tokens of the
 * extension string `exts` (a whole-token match, not a substring). */
int mgp_cl_has_extension(const char *exts, const char *name);

#endif
