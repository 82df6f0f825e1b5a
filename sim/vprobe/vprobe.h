/*
 * vprobe.h - the virtual probe (public API): mgprobe's microbenchmark
 * aspects run through the timing model of a device config instead of on
 * a device.  The same generator schedules (sim/analysis/pplan.h), the same
 * knee detection (knee.h) and the same profile and curve schemas
 * (profile.h, configs/PROFILE.md), so `mgprobe check` accepts the result
 * and `mgsim calibrate` reads it like a measured profile.
 *
 * Time is simulated: a point runs its schedule at two loop counts a < b
 * and takes (time(b) - time(a)) / (b - a) per iteration, which removes
 * launch ramp-up and cold caches (for a chase, a = one whole cycle, the
 * warm-up).  The model has no noise, so every point is measured once.
 * What differs from a real run (sweep points, thresholds, what the model
 * cannot show) is stated in sim/vprobe/README.md and in each aspect's notes.
 */
#ifndef MG_VPROBE_H
#define MG_VPROBE_H

#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "base/diag.h"

typedef struct mg_vprobe_opts {
    const char *aspects;      /* comma-separated aspect names; NULL: all */
    int         progress;     /* one line per aspect on stderr */
    const char *config_name;  /* shown as the device's "config" (may be NULL) */
    int         archprobe;    /* bw_* in ArchProbe's footprints and pattern (vp_apbw.c) */
} mg_vprobe_opts;

/* The aspects the virtual probe runs, in mgprobe's order (NULL-terminated). */
extern const char *const mg_vprobe_aspects[];

/* Check an aspect list ("warp,flops"); returns 0, or -1 with the first
 * unknown name (with a suggestion) in d. */
int mg_vprobe_check_aspects(const char *list, mg_diag *d);

/* Run the virtual probe on dev.  *profile gets a profile document
 * (mgsim-profile/1) whose aspects name their curves "CURVES/NAME.json"
 * (curves_dir: the curves folder's base name, e.g. "vprofile.curves"), and
 * *curves an object NAME -> curves document (mgsim-curve/1).  Both are
 * validated before this returns.  Returns 0, or -1 with a message (an
 * aspect that fails is recorded in the profile, not an error). */
int mg_vprobe_run(const mg_device *dev, const mg_vprobe_opts *o, const char *curves_dir,
                  cJSON **profile, cJSON **curves, mg_diag *d);

/* Write the profile to path and each curves document to
 * DIR/NAME.json, DIR = path less ".json" plus ".curves" (created); each
 * file atomically.  Returns 0, or -1 with the reason in d. */
int mg_vprobe_save(const char *path, const cJSON *profile, const cJSON *curves, mg_diag *d);

/* The curves folder of a profile path: "X.json" -> "X.curves". */
void mg_vprobe_curves_dir(const char *path, char *buf, size_t len);

#endif
