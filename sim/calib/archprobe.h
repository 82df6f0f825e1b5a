/*
 * archprobe.h - ArchProbe reports in: an ArchProbe report folder
 * (microsoft/ArchProbe: ArchProbeReport.json and the CSV sweeps beside it)
 * turned into an mgsim profile (mgsim-profile/1 with mgsim-curve/1 files,
 * configs/PROFILE.md), so `mgsim calibrate` and `mgsim compare` read a
 * phone's ArchProbe run like an `mgprobe run`.
 *
 * Every conclusion's method names the report key or the CSV it comes
 * from; every curve series names its file and columns ("source"), and
 * every point the CSV lines it holds ("lines") with the raw cells.
 */
#ifndef MG_ARCHPROBE_H
#define MG_ARCHPROBE_H

#include <cjson/cJSON.h>

#include "base/diag.h"

/* Import DIR.  name: the profile's device name (NULL: DIR's last
 * component).  curves_dir: the curves folder's name relative to the
 * profile (e.g. "profile.curves").  *profile and *curves (NAME -> curves
 * document) are validated against their schemas.  Returns 0, or -1 with
 * one message in d ("DIR/FILE:LINE: why"); nothing is allocated then. */
int mg_archprobe_import(const char *dir, const char *name, const char *curves_dir,
                        cJSON **profile, cJSON **curves, mg_diag *d);

#endif
