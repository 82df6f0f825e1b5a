/*
 * curvecmp.h - a measured profile's curves against a model's, point by
 * point (`mgsim compare`): per curve the points both have (the same x),
 * the mean and largest relative error |model - measured| / measured, and
 * the knees both concluded (first_drop_bytes) with their ratio.  Points
 * may be excluded, each with its reason, by an exclusion file:
 *   { "schema": "mgsim-exclude/1",
 *     "exclude": [ { "aspect": NAME, "from": X, "to": X, "reason": "..." } ] }
 */
#ifndef MG_CURVECMP_H
#define MG_CURVECMP_H

#include <cjson/cJSON.h>

#include "base/diag.h"

/* Compare every aspect of the list both profiles have (each loaded with
 * its curves: the first series of each aspect's curves file, the same
 * name in both).  excl may be NULL.  Returns the report document
 * (mgsim-compare/1) or NULL with a message in d. */
cJSON *mg_curvecmp(const char *measured, const char *model, const cJSON *excl, mg_diag *d);

/* The report as text. */
void mg_curvecmp_print(FILE *f, const cJSON *rep);

#endif
