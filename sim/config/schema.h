/*
 * schema.h - the device-config schema table (internal to sim/config).
 *
 * One row per key: JSON path, type, where the value lives in mg_device,
 * accepted range (in base units), default, the condition under which the
 * key applies, and a help line.  The loader (load.c), the printer (print.c),
 * `mgsim config keys` and configs/README.md all follow this table.
 */
#ifndef MG_SCHEMA_H
#define MG_SCHEMA_H

#include <stddef.h>

#include "sim/config/device.h"

typedef enum mg_ftype {
    MG_T_STR,     /* char[MG_NAME_MAX] (or MG_REF_MAX for notes) */
    MG_T_INT,     /* int64_t, integral JSON number */
    MG_T_NUM,     /* double, JSON number */
    MG_T_ENUM,    /* int, one of names[] */
    MG_T_SIZE,    /* int64_t bytes, from "1KiB" */
    MG_T_FREQ,    /* double Hz, from "585MHz" */
    MG_T_BW,      /* double bytes/s, from "194.5GB/s" */
    MG_T_TIME,    /* double seconds, from "120ns" */
    MG_T_STEPS    /* occupancy steps array */
} mg_ftype;

typedef struct mg_field {
    const char *key;          /* "tex_l1.size" */
    mg_ftype    type;
    size_t      off;          /* offset in mg_device */
    size_t      cap;          /* string capacity, MG_T_STR only */
    double      min, max;     /* inclusive, in base units (not for STR/ENUM) */
    const char *def;          /* default: literal value; "=other.key" copies
                                 another key; NULL: required */
    const char *const *names; /* MG_T_ENUM: NULL-terminated value names */
    const char *when;         /* "registers.model=shared_pool": the key applies
                                 (and, without default, is required) only then */
    const char *unit;         /* unit word for help: "cycles", "count", ... */
    const char *help;
} mg_field;

extern const mg_field mg_schema[];
extern const size_t   mg_schema_count;

/* Find a key; returns its row and sets *index, or NULL. */
const mg_field *mg_schema_find(const char *key, size_t *index);

/* Section names ("device", "core", ...), NULL-terminated, in table order. */
extern const char *const mg_schema_sections[];

/* Does the row's `when` condition hold for dev?  (1 when no condition.) */
int mg_schema_applies(const mg_field *f, const mg_device *dev);

/* Enum name lists, for code that prints values. */
extern const char *const mg_family_names[];
extern const char *const mg_issue_names[];
extern const char *const mg_scheduler_names[];
extern const char *const mg_load_deps_names[];
extern const char *const mg_reg_model_names[];
extern const char *const mg_buffer_path_names[];
extern const char *const mg_vload_names[];
extern const char *const mg_local_kind_names[];
extern const char *const mg_const_path_names[];
extern const char *const mg_replacement_names[];
extern const char *const mg_source_kind_names[];

#endif
