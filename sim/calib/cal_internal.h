/*
 * cal_internal.h - calibration internals: the config document being built
 * (cal_doc.c) and the rules that fill it from a profile (cal_rules.c).
 */
#ifndef MG_CAL_INTERNAL_H
#define MG_CAL_INTERNAL_H

#include "sim/calib/calibrate.h"
#include "sim/config/schema.h"

typedef struct cal_ctx {
    const cJSON       *prof;
    const mg_cal_opts *o;
    const mg_device   *base;
    cJSON             *cfg;                   /* config document (unresolved) */
    int                origin[MG_MAX_FIELDS]; /* per schema row: -1 untouched, else mg_cal_origin */
    cJSON             *notes;
} cal_ctx;

/* ---- the document (cal_doc.c) ------------------------------------------- */

/* The value at dotted key in the document, or NULL. */
cJSON *cal_get(const cal_ctx *c, const char *key);

/* Set key to v (owned) with its source {kind, ref}; origin recorded. */
void cal_put(cal_ctx *c, const char *key, cJSON *v, const char *kind, const char *ref,
             int origin);

/* The same for a number, an integer quantity with a unit, or a string. */
void cal_put_num(cal_ctx *c, const char *key, double v, const char *kind, const char *ref);
void cal_put_unit(cal_ctx *c, const char *key, double v, const char *kind, const char *ref);
void cal_put_str(cal_ctx *c, const char *key, const char *v, const char *kind, const char *ref);

/* Remove key and its source. */
void cal_drop(cal_ctx *c, const char *key);

/* The current value of key as a number in base units (the document's, else
 * the schema default's when it is a literal); 0 when neither. */
double cal_value(const cal_ctx *c, const char *key);

/* The current value of an enum or string key ("" when absent). */
const char *cal_text(const cal_ctx *c, const char *key);

/* A note for the report (printf format). */
void cal_note(cal_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The base's set values with their sources, as a document (NULL base: an
 * empty document). */
cJSON *cal_base_doc(const mg_device *base);

/* Drop the keys whose `when` condition no longer holds. */
void cal_drop_inapplicable(cal_ctx *c);

/* ---- the profile (cal_rules.c) ------------------------------------------ */

/* Apply every rule.  Returns 0. */
int cal_apply_profile(cal_ctx *c);

/* Fill required keys still missing with placeholders (origin unknown). */
void cal_placeholders(cal_ctx *c);

#endif
