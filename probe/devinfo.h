/*
 * devinfo.h - the data model of `mgprobe devices`: every OpenCL platform
 * and device with its key clGet*Info values, collected once into a cJSON
 * tree that the JSON and text printers both render.
 *
 * Tree shape:
 *   {"platforms": [{"index", "name", "vendor", "version",
 *                   "devices": [{"id": "P:D", "index", <field keys>...,
 *                                "unavailable": {KEY: "CL_ERROR_NAME"}}],
 *                   "error": "clGetDeviceIDs: NAME (CODE)"}]}
 * A query that failed leaves its key null and names the error under
 * "unavailable" (present only when something failed); "error" is present
 * only when the platform's devices could not be listed.  A field with a
 * `requires` key is left out when that boolean field is not true.
 */
#ifndef MGP_DEVINFO_H
#define MGP_DEVINFO_H

#include "probe/cl_util.h"
#include "base/diag.h"

#include <cjson/cJSON.h>
#include <stddef.h>

typedef enum mgp_fkind {
    MGP_F_STR,      /* string */
    MGP_F_UINT,     /* cl_uint -> number */
    MGP_F_SIZE,     /* size_t -> number */
    MGP_F_BYTES,    /* cl_ulong byte count -> number */
    MGP_F_SIZES,    /* size_t[] -> array of numbers */
    MGP_F_BOOL,     /* cl_bool -> true/false */
    MGP_F_TYPE,     /* cl_device_type -> "CPU", "GPU", "ACCELERATOR", ... */
    MGP_F_CACHE,    /* cl_device_mem_cache_type -> "NONE", "READ_ONLY", ... */
    MGP_F_LMEM,     /* cl_device_local_mem_type -> "LOCAL", "GLOBAL", ... */
    MGP_F_EXT       /* CL_DEVICE_EXTENSIONS has token `unit` -> true/false */
} mgp_fkind;

typedef struct mgp_field {
    const char    *key;       /* JSON key */
    const char    *label;     /* text label */
    cl_uint        param;     /* cl_platform_info or cl_device_info */
    mgp_fkind      kind;
    const char    *unit;      /* text suffix ("MHz") or NULL; MGP_F_EXT: the extension */
    const char    *requires;  /* key of a boolean field that must be true, or NULL */
} mgp_field;

/* The platform fields (all MGP_F_STR) and the device fields, in print order. */
extern const mgp_field mgp_platform_fields[];
extern const size_t    mgp_platform_field_count;
extern const mgp_field mgp_device_fields[];
extern const size_t    mgp_device_field_count;

/* Collect every platform and device.  Returns the tree (the caller frees
 * it with cJSON_Delete), or NULL when out of memory.  OpenCL failures that
 * stop a listing (clGetPlatformIDs, clGetDeviceIDs) are added to d as
 * "FN: NAME (CODE)"; per-field failures are recorded in the tree only.
 * *none is set to 1 when the ICD loader found no platform at all (zero, or
 * CL_PLATFORM_NOT_FOUND_KHR), else 0; "platforms" is then empty, as it is
 * when clGetPlatformIDs failed otherwise. */
cJSON *mgp_devinfo_collect(mg_diag *d, int *none);

#endif
