/*
 * calibrate.h - a device config from a probe profile (public API).
 *
 * What Accel-Sim's tuner does for NVIDIA GPUs, for any device `mgprobe run`
 * (or `mgsim vprobe`) measured: each config key the profile can answer is
 * taken from it (source kind "measured", or "driver" for what
 * clGetDeviceInfo reported, or "inferred" for a value derived from
 * measured ones, with a ref naming the profile and its aspect.key);
 * every other key comes from the base config (with the base's source), or
 * is the schema default; a required key neither can answer is a
 * placeholder (source kind "inferred", ref "placeholder: ...") and is
 * reported as unknown.  The rules, key by key, are in cal_rules.c and
 * configs/PROFILE.md ("Calibration").
 *
 * Every value taken from the profile is first checked for plausibility
 * against the device's other figures (the rule table in cal_checks.c):
 * an impossible one is refused (the base's value, or the default or a
 * placeholder, is kept), a suspicious one is flagged and used; both with
 * the rule and its reason in the report and in the key's source ("check").
 *
 * The result is a complete config (defaults written out, as `mgsim config
 * show` prints it) that passes `mgsim config check --strict`, and a report
 * of where each value came from.
 */
#ifndef MG_CALIBRATE_H
#define MG_CALIBRATE_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "base/diag.h"

#define MG_CAL_SCHEMA "mgsim-calibration/1"

typedef enum { MG_CAL_PROFILE, MG_CAL_BASE, MG_CAL_DEFAULT, MG_CAL_UNKNOWN } mg_cal_origin;

/* A plausibility check's verdict on a value taken from the profile. */
typedef enum { MG_CAL_PASSED, MG_CAL_FLAGGED, MG_CAL_REFUSED } mg_cal_verdict;

typedef struct mg_cal_key {
    char key[64];               /* dotted config key */
    char value[96];             /* canonical text of the value */
    int  origin;                /* mg_cal_origin */
    char ref[MG_REF_MAX];       /* the source's ref */
    int  verdict;               /* mg_cal_verdict */
    char rule[32];              /* the rule that flagged or refused it ("" when passed) */
    char judged[96];            /* the profile's value the rule judged */
    char why[MG_REF_MAX];       /* the rule's reason, with the figures */
} mg_cal_key;

typedef struct mg_cal_opts {
    const char *profile_path;   /* named in refs */
    const char *base_path;      /* NULL: no base config */
    const char *name;           /* device.name of the result (NULL: derived) */
    double      min_conf;       /* conclusions below this confidence are not used (0.5) */
    int         strict;         /* refuse flagged values too */
} mg_cal_opts;

typedef struct mg_cal {
    cJSON      *config;         /* the resolved config document (owned) */
    mg_device   dev;            /* the same, loaded */
    mg_cal_key  keys[MG_MAX_FIELDS];
    int         n_keys;
    cJSON      *notes;          /* array of strings: values not used, conflicts (owned) */
    const char *profile_path, *base_path;
} mg_cal;

/* Calibrate from `profile` (a valid mgsim-profile/1 document) and the
 * optional base config (loaded).  Returns 0 with *out filled (free with
 * mg_cal_free), or -1 with the reasons in d (e.g. the result breaks a
 * cross-field rule the profile's values cannot satisfy). */
int mg_calibrate(const cJSON *profile, const mg_device *base, const mg_cal_opts *o,
                 mg_cal *out, mg_diag *d);
void mg_cal_free(mg_cal *c);

/* The report: one row per key (key, value, origin, ref), the counts by
 * origin, then the notes.  Text for people, JSON for tools. */
void   mg_cal_report_text(FILE *f, const mg_cal *c);
cJSON *mg_cal_report_json(const mg_cal *c);

/* The plausibility rules: their names by action (full 0, for --help), or
 * each with its action, the keys it judges, what it reads and its reason
 * (full 1, `mgsim calibrate --rules`). */
void mg_cal_rules_print(FILE *f, int full);

/* "passed", "flagged", "refused". */
const char *mg_cal_verdict_name(int verdict);

/* "profile", "base", "default", "unknown". */
const char *mg_cal_origin_name(int origin);

#endif
