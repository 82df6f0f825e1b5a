/*
 * cal_internal.h - calibration internals: the config document being built
 * (cal_doc.c), the rules that fill it from a profile (cal_rules.c) and the
 * plausibility checks that judge what they took (cal_checks.c).
 */
#ifndef MG_CAL_INTERNAL_H
#define MG_CAL_INTERNAL_H

#include "sim/calib/calibrate.h"
#include "sim/config/schema.h"

/* A check's verdict on one key (per schema row). */
typedef struct cal_verdict {
    int  verdict;               /* mg_cal_verdict */
    char rule[32];
    char judged[96];            /* the profile's value judged */
    char why[MG_REF_MAX];       /* the reason with its figures */
} cal_verdict;

typedef struct cal_ctx {
    const cJSON       *prof;
    const mg_cal_opts *o;
    const mg_device   *base;
    cJSON             *cfg;                   /* config document (unresolved) */
    int                origin[MG_MAX_FIELDS]; /* per schema row: -1 untouched, else mg_cal_origin */
    cJSON             *notes;
    cal_verdict       *verdict;               /* per schema row; refusals hold over passes */
} cal_ctx;

/* ---- the document (cal_doc.c) ------------------------------------------- */

/* The value at dotted key in the document, or NULL. */
cJSON *cal_get(const cal_ctx *c, const char *key);

/* Set key to v (owned) with its source {kind, ref}; origin recorded.
 * Returns 1, or 0 (v freed, the document unchanged) when a check refused
 * the profile's value for key in an earlier pass. */
int cal_put(cal_ctx *c, const char *key, cJSON *v, const char *kind, const char *ref,
            int origin);

/* The same for a number, an integer quantity with a unit, or a string. */
int cal_put_num(cal_ctx *c, const char *key, double v, const char *kind, const char *ref);
int cal_put_unit(cal_ctx *c, const char *key, double v, const char *kind, const char *ref);
int cal_put_str(cal_ctx *c, const char *key, const char *v, const char *kind, const char *ref);

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

/* Row i of dev as a number (base units), or NAN for strings, enums and
 * steps (calibrate.c). */
double cal_field_num(const mg_device *dev, size_t i);

/* ---- the plausibility checks (cal_checks.c) ------------------------------ */

/* Judge every value the profile gave (origin MG_CAL_PROFILE) by the rule
 * table: flags of an earlier pass are cleared, refusals kept; a failed
 * refusing rule (any failed rule when o->strict) refuses the key, a failed
 * flagging rule flags it.  Returns the number of new refusals: the caller
 * calibrates again, and the refused keys keep their base values. */
int cal_check_all(cal_ctx *c);

#endif
