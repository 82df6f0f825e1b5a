/*
 * space.h - kernel search spaces (schema "mgsim-space/1", documented in
 * configs/README.md): an operator, fixed keys (its shape and held knobs),
 * knobs with value generators, and constraints.
 *
 * Variables are schedule keys ("vec", "unroll") or parts of a pair/triple
 * key ("tile.0", "wg.2"); a candidate gives every knob variable a value and
 * is assembled into key=value words with the fixed ones.
 *
 * Enumeration order (deterministic, independent of the platform): knobs in
 * file order, the LAST knob varying fastest (an odometer); each knob's
 * options in generator order:
 *   "values"   as listed;
 *   "divisors" ascending;
 *   "range"    from "from" up to "to", adding "step" (or multiplying by "times");
 *   "split"    the ordered tuples (a1..an), one per key, whose product divides
 *              "of" (TVM's define_split: the outermost factor "of"/prod is
 *              the number of groups), lexicographic with a1 slowest;
 *              "policy": "factors" (every divisor) or "power2".
 * A fixed value "=NAME" makes a variable equal to variable NAME (e.g.
 * "wg.2": "=split": the split items of a tile share a work group).
 * A raw combination that fails a space constraint is excluded (not part of
 * the space, counted as "excluded"); one whose words the generator rejects
 * (mg_schedule_parse: range or the op's check()) is "invalid", counted by
 * reason; the others are the space, numbered 0.. in enumeration order.
 */
#ifndef MG_SPACE_H
#define MG_SPACE_H

#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "traces/gen/schedule.h"
#include "base/diag.h"

#define MG_SPACE_SCHEMA    "mgsim-space/1"
#define MG_SPACE_MAX_VARS  32
#define MG_SPACE_MAX_KNOBS 24
#define MG_SPACE_MAX_CONS  16
#define MG_SPACE_TOK       24
#define MG_SPACE_REASONS   64

typedef struct mg_space_val {
    int64_t i;                    /* numeric value (when is_int) */
    int     is_int;
    char    s[MG_SPACE_TOK];      /* the text written after '=' */
} mg_space_val;

typedef struct mg_space_knob {
    char    name[32];
    int     shape;                /* 1: a problem-size axis, not a tuning knob */
    int     nvars;
    int     var[4];               /* indices into mg_space.vars */
    int64_t nopts;
    mg_space_val *opts;           /* nopts x nvars */
} mg_space_knob;

enum { MG_CONS_PRODUCT, MG_CONS_EQUAL };

typedef struct mg_space_cons {
    int     kind;
    int     nvars;
    int     var[4];
    int64_t min, max, multiple_of, divides;     /* 0: not given (min/max: -1) */
} mg_space_cons;

typedef struct mg_space_var {
    char name[32];                /* "vec", "tile.0" */
    char key[24];                 /* "vec", "tile" */
    int  part;                    /* -1 for a whole key */
    int  knob;                    /* owning knob, -1 when fixed */
    int  alias;                   /* fixed "=NAME": the value of variable NAME, else -1 */
    mg_space_val fixed;
} mg_space_var;

typedef struct mg_space {
    char path[512];
    char name[64];
    char op[32];
    int  nvars;
    mg_space_var vars[MG_SPACE_MAX_VARS];
    int  nknobs;
    mg_space_knob knobs[MG_SPACE_MAX_KNOBS];
    int  ncons;
    mg_space_cons cons[MG_SPACE_MAX_CONS];
    /* words: schedule keys in the op's key order, each from its variables */
    int  nkeys;
    char keyname[MG_SPACE_MAX_VARS][24];
    int  keyvars[MG_SPACE_MAX_VARS][3];       /* var index per part, -1 = 1 */
    int  keyparts[MG_SPACE_MAX_VARS];          /* 0: whole key, else 2 or 3 */
} mg_space;

/* Load and check a space file (or a parsed document named `name`).
 * Returns 0, or -1 with every problem found in d ("FILE: $.knobs[2].split.of:
 * expected ...") and nothing left to free. */
int  mg_space_load(const char *path, mg_space *sp, mg_diag *d);
int  mg_space_from_json(const cJSON *root, const char *name, mg_space *sp, mg_diag *d);
void mg_space_free(mg_space *sp);

/* Raw combinations (the product of every knob's option count). */
uint64_t mg_space_raw(const mg_space *sp);

/* Counts of one enumeration. */
typedef struct mg_space_stats {
    uint64_t raw, excluded, invalid, size;
    int      nreasons;
    char     reason[MG_SPACE_REASONS][200];   /* first error, numbers as N */
    uint64_t reason_n[MG_SPACE_REASONS];
    uint64_t reason_other;                    /* past MG_SPACE_REASONS kinds */
} mg_space_stats;

/* One member of the space: its number, raw index, parsed schedule and the
 * words it was parsed from (space separated, op first). */
typedef struct mg_space_cand {
    uint64_t index, raw;
    mg_schedule s;
    char words[1024];
} mg_space_cand;

/* Called for each member in order; a nonzero return stops the walk (and is
 * returned by mg_space_enumerate). */
typedef int (*mg_space_visit)(void *ctx, const mg_space_cand *c);

/* Enumerate; fn may be NULL (count only).  Fills *st (reasons sorted by
 * count, then text).  Returns 0, or fn's nonzero return. */
int mg_space_enumerate(const mg_space *sp, mg_space_visit fn, void *ctx, mg_space_stats *st);

/* Whether the member numbered index is to be visited. */
typedef int (*mg_space_want)(void *ctx, uint64_t index);

/* Visit again, in order, the members a first enumeration met: raw[i] is
 * member i's raw combination number (its mg_space_cand.raw), n the
 * members.  Only members want() accepts (every one when want is NULL) are
 * assembled and parsed, so a pass over a few members costs only theirs,
 * and excluded or invalid combinations cost nothing.  Returns 0, fn's
 * nonzero return, or -1 when raw[i] is not a member of sp. */
int mg_space_visit_members(const mg_space *sp, const uint64_t *raw, uint64_t n,
                           mg_space_want want, mg_space_visit fn, void *ctx);

/* The counts as JSON / text. */
cJSON *mg_space_stats_json(const mg_space *sp, const mg_space_stats *st);
void   mg_space_stats_print(const mg_space *sp, const mg_space_stats *st, FILE *f);

/* A normalized reason: "schedule: " and the leading "op: " dropped, every
 * run of digits replaced by N.  Returns buf. */
char *mg_space_reason(const char *msg, char *buf, size_t len);

#endif
