/*
 * profile.h - the device profile written by `mgprobe run` and read by the
 * simulator (calibration, the virtual probe), and its sidecar curves: the
 * schemas, their validation and the readers.  No OpenCL here.
 * configs/PROFILE.md documents the schemas; in short:
 *
 * profile (mgsim-profile/1):
 *   { "schema": "mgsim-profile/1", "tool": "mgprobe X.Y.Z",
 *     "device": { "name", "driver_version" (required strings), "id",
 *                 "platform", "vendor", "version", "type", ... every value
 *                 as `mgprobe devices --json` reports it },
 *     "started": ISO-8601 UTC, "updated": ISO-8601 UTC,
 *     "settings": { "min_ms", "reps", "aspect_budget_s" },
 *     "aspects": { NAME: ASPECT, ... } }
 *   ASPECT: { "status": ok|undetermined|error|skipped|interrupted|timeout,
 *             "date", "seconds", "curve": "PROFILE.curves/NAME.json",
 *             "confidence": 0..1 or null,
 *             "conclusion": { KEY: { "value": number|string|boolean|null,
 *                                    "unit", "confidence": 0..1 or null,
 *                                    "method", "why" (required when null) } },
 *             "notes": [strings], "error": string (required unless ok or
 *             undetermined) }
 *   ok, undetermined and skipped are final: a resumed run skips them.
 *
 * curves (mgsim-curve/1), one file per aspect:
 *   { "schema": "mgsim-curve/1", "aspect": NAME, "device": name,
 *     "series": [ { "name", "x", "y" (axis names with units),
 *                   "points": [ { "x": number, "y": number|null, ... } ] } ] }
 *   Points may carry more keys (samples, min, max, iters, schedule,
 *   status, error, and aspect-specific raw data).
 */
#ifndef MG_PROFILE_H
#define MG_PROFILE_H

#include <cjson/cJSON.h>

#include "base/diag.h"

#define MG_PROFILE_SCHEMA "mgsim-profile/1"
#define MG_CURVE_SCHEMA   "mgsim-curve/1"

/* The aspects, in the order `mgprobe run` measures them (NULL-terminated). */
extern const char *const mg_profile_aspects[];

/* The statuses (NULL-terminated). */
extern const char *const mg_profile_statuses[];

/* Is `name` a known aspect? */
int mg_profile_is_aspect(const char *name);

/* Is `status` final (ok, undetermined, skipped: not measured again by a
 * resumed run)? */
int mg_profile_status_final(const char *status);

/* Check a profile document; every problem goes to d as
 * "WHERE: $.json.path: what was expected, got what".  Returns 0 or -1. */
int mg_profile_validate(const cJSON *p, const char *where, mg_diag *d);

/* Check a curves document (the same contract). */
int mg_curve_validate(const cJSON *c, const char *where, mg_diag *d);

/* Read and validate a profile file.  Returns the document (caller frees
 * with cJSON_Delete) or NULL with the problems in d. */
cJSON *mg_profile_load(const char *path, mg_diag *d);

/* The concluded number aspect.conclusion.key.value of a valid profile.
 * Returns 0 with *v (and *conf when not NULL: the confidence, or -1 when
 * null) when the aspect's status is ok or undetermined and the value is a
 * number; -1 otherwise. */
int mg_profile_number(const cJSON *p, const char *aspect, const char *key, double *v,
                      double *conf);

#endif
