/*
 * load_internal.h - declarations shared by the config loader's files.
 */
#ifndef MG_LOAD_INTERNAL_H
#define MG_LOAD_INTERNAL_H

#include "sim/config/device.h"
#include "base/diag.h"

/* Cross-field rules and derived defaults (rules.c).  Runs only on a device
 * whose every field passed its own check.  Adds one error per broken rule,
 * naming the JSON path of the key to change. */
void mg_device_check_rules(mg_device *dev, const char *name, mg_diag *d);

#endif
