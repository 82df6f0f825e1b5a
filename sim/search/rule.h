/*
 * rule.h - hardware pruning rules as data (schema "mgsim-rules/1",
 * documented in configs/README.md; romou Table 1 in configs/rules/romou.json).
 *
 * A rule reads only the generator's static features (mg_gen_plan: launch
 * geometry, regs_per_item, bytes_per_iter, wg_bytes_per_iter, local_bytes,
 * access_width, tensor layouts) and the device config: no simulation, no
 * trace.  Let WG = the work-group size (items).  A rule "fires" (prunes):
 *   l1            bytes loaded per loop iteration by the work group
 *                 (footprint "group": the op's distinct wg_bytes_per_iter;
 *                 "items": WG x bytes_per_iter, romou's literal reading)
 *                 > fraction x the L1 the loads go through (the texture L1
 *                 when an input is an image, else the buffer L1 when buffers
 *                 go through one; never when they bypass it);
 *   registers     shared pool: regs x WG > fraction x pool (regs rounded up to
 *                 the granule) or regs > the per-item cap; dedicated: regs >
 *                 the cap, or WG > the items the occupancy step for regs allows;
 *   buffer        an input tensor is a buffer while the device's L1 serves
 *                 textures only (buffer.path l2);
 *   local_memory  the kernel uses local memory and WG > alpha x ALUs (alus
 *                 "core": per shader core, "device": all cores);
 *   warp          WG < min_warps x the warp width;
 *   access_width  the main loads are not `best` elements wide.
 */
#ifndef MG_RULE_H
#define MG_RULE_H

#include <cjson/cJSON.h>

#include "sim/config/device.h"
#include "traces/gen/kernel.h"
#include "traces/gen/schedule.h"
#include "base/diag.h"

#define MG_RULES_SCHEMA "mgsim-rules/1"

enum { MG_RULE_L1, MG_RULE_REGS, MG_RULE_BUFFER, MG_RULE_LOCAL, MG_RULE_WARP, MG_RULE_WIDTH,
       MG_RULE_COUNT };

typedef struct mg_rules {
    char   name[64];
    int    enabled[MG_RULE_COUNT];
    int    l1_items;            /* footprint: 0 "group", 1 "items" */
    double l1_fraction;
    double regs_fraction;
    double local_alpha;
    int    local_device;        /* alus: 0 "core", 1 "device" */
    double warp_min_warps;
    int64_t width_best;         /* elements */
} mg_rules;

/* Rule names in bit order ("l1", "registers", ...). */
extern const char *const mg_rule_names[MG_RULE_COUNT];

/* Load a rules file.  Returns 0, or -1 with every problem in d, each naming
 * the file and JSON path (unknown rules and parameters get "did you mean"). */
int mg_rules_load(const char *path, mg_rules *r, mg_diag *d);
int mg_rules_from_json(const cJSON *root, const char *name, mg_rules *r, mg_diag *d);

/* The rules that fire for kernel k (planned from s) on dev, as a bit mask
 * (bit i = mg_rule_names[i]); 0 keeps the candidate. */
unsigned mg_rules_eval(const mg_rules *r, const mg_device *dev, const mg_schedule *s,
                       const mg_kernel *k);

/* "l1,warp" (or "" when none) into buf; returns buf. */
char *mg_rules_mask_str(unsigned mask, char *buf, size_t len);

#endif
