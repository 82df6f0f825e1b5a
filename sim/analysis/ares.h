/*
 * ares.h - what one aspect of a probe run produces, in the schema of
 * configs/PROFILE.md: its curve series, its conclusions (value, unit,
 * confidence, method; or null with why), its notes, and the status that
 * follows.  Shared by `mgprobe run` (real devices, probe/aspect.c) and
 * `mgsim vprobe` (the model, sim/vprobe/), so both write the same JSON.
 * No OpenCL here.
 *
 * The three members are cJSON values the caller owns (an array of series,
 * an object of conclusions, an array of note strings); the helpers only
 * add to them.
 */
#ifndef MG_ARES_H
#define MG_ARES_H

#include <cjson/cJSON.h>

typedef struct mg_ares {
    cJSON *series;       /* the curves document's "series" array */
    cJSON *conclusion;   /* object */
    cJSON *notes;        /* array of strings */
} mg_ares;

/* A new series {name, x, y, points: []} appended to r->series; returns
 * its "points" array. */
cJSON *mg_ares_series(mg_ares *r, const char *name, const char *x, const char *y);

/* Conclude key = value (rounded to 6 significant digits, so whole counts
 * stay exact), with its unit (may be NULL), confidence (clamped to [0, 1],
 * two decimals) and method.  A key concluded again is replaced. */
void mg_ares_conclude(mg_ares *r, const char *key, double value, const char *unit, double conf,
                      const char *method);

/* The same with a string value (and no unit). */
void mg_ares_conclude_str(mg_ares *r, const char *key, const char *value, double conf,
                          const char *method);

/* key = null, confidence null, with the reason (printf format). */
void mg_ares_conclude_none(mg_ares *r, const char *key, const char *unit, const char *method,
                           const char *why, ...) __attribute__((format(printf, 5, 6)));

/* Append a note (printf format; at most 1023 characters). */
void mg_ares_note(mg_ares *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The number concluded under key, or 0 when it is absent, null or not a
 * number. */
double mg_ares_value(const mg_ares *r, const char *key);

/* The smallest confidence among the non-null conclusions (-1 when none),
 * and whether one of them reaches 0.5 (the aspect is then "ok"). */
double mg_ares_confidence(const mg_ares *r, int *any_ok);

#endif
