/*
 * suite.h - kernel suites (`mgprobe time --suite`, the simulator's
 * cross-checks) and the timings they produce.  No OpenCL here;
 * configs/PROFILE.md documents both formats.
 *
 * A suite file is either a JSON array of schedule objects
 *     [ {"op": "conv2d", "H": 56, ...}, ... ]
 * or an object
 *     { "schema": "mgsim-suite/1", "name": "...", "description": "...",
 *       "schedules": [ {...}, ... ] }
 * Every schedule object is what `mgsim gen` takes as JSON ("op" plus the
 * op's keys; pairs as "4x4", work groups as "16,4,1" or [16, 4, 1]).
 *
 * Timings (mgsim-timings/1), written by `mgprobe time`:
 *   { "schema": "mgsim-timings/1", "tool", "suite" (the file), "date",
 *     "device": { "name", "driver_version", ... as in a profile },
 *     "settings": { "warmup", "reps", "min_ms" },
 *     "kernels": [ { "index", "schedule" (canonical text), "status":
 *                    ok|wrong|skip|error, "reason" (unless ok),
 *                    "ns": { "median", "min", "max", "spread" } (ok),
 *                    "samples": [ns...], "regs_estimate", "regs_compiler"
 *                    (number or null), ... } ] }
 */
#ifndef MG_SUITE_H
#define MG_SUITE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "traces/gen/schedule.h"
#include "base/diag.h"

#define MG_SUITE_SCHEMA   "mgsim-suite/1"
#define MG_TIMINGS_SCHEMA "mgsim-timings/1"
#define MG_SUITE_MAX      100000

typedef struct mg_suite {
    char         name[128];     /* the "name", or the file's base name */
    mg_schedule *s;
    size_t       n;
} mg_suite;

/* Read and parse a suite file: every schedule is checked (all problems
 * reported as "FILE: $[i]: ..." or "FILE: $.schedules[i]: ...").  Returns
 * 0, or -1 with the problems in d (su is then empty). */
int mg_suite_load(const char *path, mg_suite *su, mg_diag *d);

/* Parse a suite document already read (`where` names it). */
int mg_suite_parse(const cJSON *doc, const char *where, mg_suite *su, mg_diag *d);

void mg_suite_free(mg_suite *su);

/* Check a timings document (the one check of `mgprobe check` and `mgsim
 * validate`: 1..MG_SUITE_MAX kernels, each well formed); every problem to
 * d.  Returns 0 or -1. */
int mg_timings_validate(const cJSON *t, const char *where, mg_diag *d);

#endif
