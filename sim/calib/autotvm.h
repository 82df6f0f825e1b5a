/*
 * autotvm.h - AutoTVM tuning logs in (`mgsim import autotvm`): each JSON
 * line of an AutoTVM log (tophub style: "input": [target, task, workload,
 * {}], "config": {"index", "entity": [[knob, kind, value], ...]},
 * "result": [[costs in s], error code, total time, timestamp]) becomes,
 * where the generator can reproduce TVM's kernel, a generator schedule and
 * a kernel of an mgsim-timings/1 document (its measured costs); every
 * other record is listed with the reason.  doc/validation.md says per
 * schedule family what the generator's kernel keeps of TVM's and what
 * differs.
 *
 * Fidelity of a reproduced record:
 *   matched      the same work per item (the item's output tile) and per
 *                work group, the same vector width of the arithmetic;
 *                differing in data layout and loop details (the doc);
 *   approximate  TVM's item computes VH > 1 output rows; the generator's
 *                items compute one row, so each TVM item becomes VH items
 *                (the work group's z grows VH times).
 */
#ifndef MG_AUTOTVM_H
#define MG_AUTOTVM_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

#define MG_AUTOTVM_SCHEMA    "mgsim-autotvm-import/1"
#define MG_AUTOTVM_MAX_LINES 100000

enum { MG_ATVM_MATCHED, MG_ATVM_APPROX, MG_ATVM_NONE };   /* fidelity */

/* What the mapping of one record gives (autotvm_map.c). */
typedef struct mg_atvm_map {
    int  fidelity;             /* MG_ATVM_*; NONE: not reproduced */
    char family[32];           /* "spatial_pack", "depthwise", "winograd", "dense", "?" */
    char schedule[512];        /* the generator's words (canonical), unless NONE */
    char reason[256];          /* NONE: why; APPROX: what is approximated */
} mg_atvm_map;

/* Map one record's task name, workload (the "input" array's third item)
 * and config entity onto a generator schedule.  A record whose parts are
 * malformed for its task (a split that is not 3 integers, a tensor that is
 * not ["TENSOR", shape, dtype]) is an error: "why" to d, return -1; a
 * well-formed record the generator cannot reproduce returns 0 with
 * fidelity NONE and the reason. */
int mg_autotvm_map(const char *task, const cJSON *workload, const cJSON *entity,
                   mg_atvm_map *out, mg_diag *d);

/* The timings documents of an import: every reproduced record, the
 * matched ones, the approximate ones; their file names under `-o DIR`. */
enum { MG_ATVM_T_ALL, MG_ATVM_T_MATCHED, MG_ATVM_T_APPROX, MG_ATVM_T_COUNT };
extern const char *const mg_autotvm_files[MG_ATVM_T_COUNT];

/* Import the log at `path`.  On success (0): timings[MG_ATVM_T_*] are the
 * timings documents (NULL where no record belongs), *report the import
 * report (MG_AUTOTVM_SCHEMA: every record, its schedule or reason).  A bad
 * line is -1 with one error "PATH:LINE: why" in d and nothing allocated. */
int mg_autotvm_import(const char *path, cJSON *timings[MG_ATVM_T_COUNT], cJSON **report,
                      mg_diag *d);

/* The report as text for people: counts per task and fidelity, then one
 * line per record not reproduced or approximated. */
void mg_autotvm_print(FILE *f, const cJSON *report);

#endif
