/*
 * variant.h - device-config variants for what-if studies: set schema keys
 * of a config document to new values and load the result (public API).
 *
 * A value is written as the key takes it in a config file (an integer, a
 * number, a quantity with its unit: "512B", "1KiB", "700MHz"; an enum name)
 * or as a multiplier of the base config's resolved value: "x0.5", "x2"
 * (integers and sizes are rounded to the nearest integer).  The variant is
 * checked by the ordinary loader, field by field and across fields.
 *
 * One rule keeps cache what-ifs meaningful: when KEY is a cache's size and
 * that cache is fully associative in the base config (assoc x line = size),
 * the variant stays fully associative (its assoc is set to size / line)
 * unless the same variant also sets the assoc.
 */
#ifndef MG_VARIANT_H
#define MG_VARIANT_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "base/diag.h"

#define MG_VARY_VALUES 32

/* One --vary KEY=v1,v2,...: a schema key and its values as written. */
typedef struct mg_vary {
    char key[64];
    int  nvals;
    char val[MG_VARY_VALUES][32];
} mg_vary;

/* Parse "KEY=v1,v2,...".  KEY must be a config key of a numeric, quantity
 * or enum type (`mgsim config keys`; a typo gets "did you mean"); values
 * must be non-empty and a multiplier "xF" needs F > 0.  Returns 0, or -1
 * with the problem in d. */
int mg_vary_parse(const char *arg, mg_vary *v, mg_diag *d);

/* The variant of config document doc (its file name `name`, base its
 * loaded form) with v[i].key = v[i].val[choice[i]] for i < n.  Fills *out;
 * resolved[i] gets each value as the config now holds it ("35136",
 * "512B").  Returns 0, or -1 with the problem in d (naming the key and the
 * value, or the loader's message for a variant that breaks a rule). */
int mg_device_variant(const cJSON *doc, const char *name, const mg_device *base, int n,
                      const mg_vary *v, const int *choice, mg_device *out,
                      char (*resolved)[48], mg_diag *d);

#endif
