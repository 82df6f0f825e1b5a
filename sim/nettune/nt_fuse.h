/*
 * nt_fuse.h - fusions over a timed network (`mgsim net --config --fuse`,
 * README.md "Networks"): which layers to run as one kernel, what each
 * fused kernel costs against its layers run apart, and the network's
 * latency with the fusions that win.
 *
 * Sequential fusion (THOMAS, 4.3): a conv2d whose only consumer is a
 * pooling layer becomes one `convpool` kernel (the conv's bias as the
 * normalization's per-channel shift after pooling, its activation after
 * pooling: both commute with max pooling, the bias with average pooling
 * too).  Parallel fusion (ParallelFusion, EMDL'21, 4.2): 2 or 3
 * independent units (layers whose kernel `fuse` can take, or adopted
 * sequential groups) at one level of the graph (the longest path from the
 * network's inputs) become one `fuse` launch, round=wave; units at one
 * level never depend on each other, and the picker checks it besides.
 * A group is adopted only when its fused kernel + one dispatch gap beats
 * its units' times (each launches x (kernel + gap)); every group tried is
 * reported, won or lost.
 */
#ifndef MG_NT_FUSE_H
#define MG_NT_FUSE_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/nettune/nettune.h"

/* --fuse: which kinds the picker tries (bits). */
enum { MG_NT_FUSE_SEQ = 1, MG_NT_FUSE_PAR = 2, MG_NT_FUSE_BOTH = 3 };
extern const char *const mg_nt_fuse_names[];      /* by mode: "", sequential, ... */

#define MG_NT_GROUP_MAX 6         /* layers of one group: 3 units of 2 */

/* One fused group tried. */
typedef struct mg_nt_group {
    int      parallel;            /* 0: sequential (conv + pool), 1: parallel */
    int      n;                   /* layers */
    int      rows[MG_NT_GROUP_MAX];   /* indices into mg_nt_result.rows */
    int      unit_of[MG_NT_GROUP_MAX];/* parallel: each row's sub-kernel, 0..units-1 */
    int      units;               /* parallel: sub-kernels (2 or 3) */
    mg_nt_kernel k;               /* the fused kernel (k.schedule its words) */
    int      cached;              /* 1: from the cache */
    double   unfused_s;           /* the units' times, each launches x (kernel + gap) */
    double   fused_s;             /* k.seconds + gap (k.ok), else 0 */
    int      adopted;
} mg_nt_group;

typedef struct mg_nt_fusion {
    int          mode;
    int          ngroups;
    mg_nt_group *groups;
    double       latency_s;       /* the network's with the adopted groups */
    uint64_t     simulated;       /* fused kernels simulated by this run */
} mg_nt_fusion;

/* Try the fusions `mode` allows over r (timed by mg_nt_run with cfg) into
 * *f.  Returns 0, or -1 with the problem in d (interrupted, out of memory,
 * a cache that cannot be written); free f either way. */
int  mg_nt_fuse(const mg_nt_cfg *cfg, const mg_nt_result *r, int mode, mg_nt_fusion *f,
                mg_diag *d);
void mg_nt_fusion_free(mg_nt_fusion *f);

/* 1 when layer b (an index into net->layers) depends on layer a (a path
 * of inputs leads from a to b, or a == b), else 0; 1 also when out of
 * memory (the picker then fuses nothing across the pair). */
int mg_nt_depends(const mg_net *net, int a, int b);

/* The report's fusion part: text after mg_nt_print's, and the "fusion"
 * object of the JSON report. */
void   mg_nt_fusion_print(const mg_nt_fusion *f, const mg_nt_result *r, FILE *out);
cJSON *mg_nt_fusion_json(const mg_nt_fusion *f, const mg_nt_result *r);

#endif
