/*
 * am_walk.c - the analytical model's thread level: one warp's reads, lane
 * by sampled lane, into each input tensor's cross-block stride histogram
 * H and reuse distance s, and the distinct lanes w of its accesses
 * (sim/MODEL.md, "The analytical model").
 *
 * A lane's access moves to another block of a shape when the block it
 * falls in differs from its previous access's to the same tensor: the
 * shapes are the texture L1 line (a tile of tile_w x tile_h texels) and
 * the L2 line (texlayout.h), or for buffers the path's line and the L2
 * line.  The reuse distance of an access to a line the lane used before is
 * the number of distinct lines it touched in between, plus 1 (TMModel's
 * section 3.2.1: 0 for a pattern that never returns to a line, 1 row by
 * row, 2 and 4 for the 2- and 4-row block patterns); s is their mean.
 */
#include "sim/analytic/am_internal.h"
#include "sim/model/texlayout.h"

#include <stdlib.h>
#include <string.h>

/* One sampled lane's history with one tensor. */
typedef struct lane_state {
    int      seen;
    uint64_t line, block;
    uint64_t stack[MG_AM_STACK];        /* lines, most recent first */
    int      n;
} lane_state;

typedef struct tensor_acc {
    double     hist[MG_AM_BINS];         /* summed over the sampled lanes */
    double     reuse_sum, reuse_n;
    double     lanes_sum, recs;
    int        active_lanes;             /* sampled lanes that read it */
    lane_state ls[MG_AM_LANES];
} tensor_acc;

typedef struct walk {
    const mg_device *dev;
    const mg_am_params *p;
    const mg_trace_header *h;
    mg_am_est *e;
    tensor_acc acc[MG_AM_TENSORS];
    mg_texlayout tex[MG_TRACE_MAX_OBJS];
    int tex_ready[MG_TRACE_MAX_OBJS];
    uint32_t sample[MG_AM_LANES];
    int nsample;
    mg_am_share *sh;                  /* L1 shares by path, the L2's at MG_AM_PATHS */
    int sh_failed;
} walk;

/* The path of a record type; constant loads take the buffer path where
 * the device reads them as buffers (constant.path buffer, as mem.c). */
static int path_of(const mg_device *dev, int type)
{
    switch (type) {
    case MG_REC_TEX_READ: return MG_AM_TEX;
    case MG_REC_BUF_LOAD: return MG_AM_BUF;
    case MG_REC_LOCAL_LOAD: return MG_AM_LOCAL;
    case MG_REC_CONST_LOAD: return dev->const_path == MG_CONST_BUFFER ? MG_AM_BUF : MG_AM_CONST;
    default: return -1;
    }
}

/* The tensor of (path, obj), added when new; the last slot takes every
 * tensor past MG_AM_TENSORS. */
static int tensor_of(walk *w, int path, unsigned obj)
{
    mg_am_est *e = w->e;
    for (int i = 0; i < e->ntensors; i++)
        if (e->t[i].path == path && e->t[i].obj == obj) return i;
    if (e->ntensors == MG_AM_TENSORS) return MG_AM_TENSORS - 1;
    mg_am_tensor *t = &e->t[e->ntensors];
    t->path = path;
    t->obj = obj;
    const char *nm = path == MG_AM_TEX ? w->h->images[obj].name
                   : path == MG_AM_LOCAL ? "local" : w->h->buffers[obj].name;
    snprintf(t->name, sizeof t->name, "%s", nm);
    return e->ntensors++;
}

/* Push line onto a lane's stack; returns its reuse distance (distinct
 * lines since its last use, + 1), or 0 when not among the last
 * MG_AM_STACK lines. */
static int stack_touch(lane_state *s, uint64_t line)
{
    int at = -1;
    for (int i = 0; i < s->n; i++)
        if (s->stack[i] == line) { at = i; break; }
    int from = at >= 0 ? at : (s->n < MG_AM_STACK ? s->n++ : MG_AM_STACK - 1);
    memmove(&s->stack[1], &s->stack[0], (size_t)from * sizeof s->stack[0]);
    s->stack[0] = line;
    return at + 1;
}

/* Lane state s of tensor a reads (line, block). */
static void lane_access(tensor_acc *a, lane_state *s, uint64_t line, uint64_t block)
{
    a->hist[MG_AM_H_ACCESS] += 1;
    if (s->seen) {
        a->hist[MG_AM_H_LINE] += line != s->line;
        a->hist[MG_AM_H_BLOCK] += block != s->block;
    } else {
        a->hist[MG_AM_H_LINE] += 1;          /* a lane's first line is fetched too */
        a->hist[MG_AM_H_BLOCK] += 1;
        a->active_lanes++;
    }
    s->seen = 1;
    s->line = line;
    s->block = block;
    int dist = stack_touch(s, line);
    if (dist > 0) {
        a->reuse_sum += dist;
        a->reuse_n += 1;
    }
}

/* The line and block of lane l's address in r. */
static void ids_of(walk *w, int path, const mg_rec *r, unsigned l, uint64_t *line,
                   uint64_t *block)
{
    if (path == MG_AM_TEX) {
        unsigned o = r->obj;
        if (!w->tex_ready[o]) {
            mg_texlayout_init(&w->tex[o], w->dev, w->h->images[o].texel_bytes, o);
            mg_texlayout_set_width(&w->tex[o], w->h->images[o].width);
            w->tex_ready[o] = 1;
        }
        mg_texlayout_ids(&w->tex[o], r->a[l], r->b[l], line, block);
        return;
    }
    int64_t lb = w->p->line_bytes[MG_AM_BUF], bb = w->p->block_bytes[MG_AM_BUF];
    uint64_t a = (uint64_t)r->a[l];
    *line = lb > 0 ? a / (uint64_t)lb : a;
    *block = bb > 0 ? a / (uint64_t)bb : a;
}

/* Every distinct line the active lanes of r read, once, through the
 * path's L1 share; each miss's L2 line through the L2 share (tensor ti). */
static void share_rec(walk *w, int path, int ti, const mg_rec *r)
{
    uint64_t seen[MG_TRACE_MAX_LANES];
    int n = 0;
    for (unsigned l = 0; l < r->lanes; l++) {
        if (!mg_rec_active(r, l)) continue;
        uint64_t line = 0, block = 0;
        ids_of(w, path, r, l, &line, &block);
        int k = n - 1;
        while (k >= 0 && seen[k] != line) k--;       /* neighbours first */
        if (k >= 0) continue;
        seen[n++] = line;
        int miss = mg_am_share_touch(&w->sh[path], ti, line);
        if (miss > 0) miss = mg_am_share_touch(&w->sh[MG_AM_PATHS], ti, block);
        if (miss < 0) w->sh_failed = 1;
    }
}

static void read_rec(walk *w, const mg_rec *r)
{
    int path = path_of(w->dev, r->type);
    if (path < 0) return;
    int ti = tensor_of(w, path, path == MG_AM_LOCAL ? 0 : r->obj);
    tensor_acc *a = &w->acc[ti];
    uint8_t ln[MG_TRACE_MAX_LANES];
    if (w->sh && (path == MG_AM_TEX || path == MG_AM_BUF)) share_rec(w, path, ti, r);
    a->lanes_sum += mg_rec_distinct_lanes(r, ln);
    a->recs += 1;
    for (int k = 0; k < w->nsample; k++) {
        unsigned l = w->sample[k];
        if (l >= r->lanes || !mg_rec_active(r, l)) continue;
        uint64_t line = 0, block = 0;
        if (path == MG_AM_TEX || path == MG_AM_BUF) ids_of(w, path, r, l, &line, &block);
        lane_access(a, &a->ls[k], line, block);
    }
}

/* The tensors' per-thread figures from the sums. */
static void finish(walk *w)
{
    for (int i = 0; i < w->e->ntensors; i++) {
        mg_am_tensor *t = &w->e->t[i];
        const tensor_acc *a = &w->acc[i];
        double n = a->active_lanes ? (double)a->active_lanes : 1;
        for (int b = 0; b < MG_AM_BINS; b++) t->hist[b] = a->hist[b] / n;
        t->reuse = a->reuse_n > 0 ? a->reuse_sum / a->reuse_n : 0;
        t->lanes = a->recs > 0 ? a->lanes_sum / a->recs : 0;
    }
}

int mg_am_walk(const mg_device *dev, const mg_am_params *p, const mg_trace_header *h,
               const mg_trace_wg *wg, uint32_t warp, mg_am_est *e, mg_am_share *sh,
               int *barrier, mg_diag *d)
{
    walk *w = calloc(1, sizeof *w);
    mg_rec *r = malloc(sizeof *r);
    mg_trace_cursor *c = malloc(sizeof *c);
    int rc = -1;
    if (!w || !r || !c) {
        mg_diag_error(d, "out of memory");
        goto out;
    }
    w->dev = dev;
    w->p = p;
    w->h = h;
    w->e = e;
    w->sh = sh;
    uint32_t lanes = wg->warps[warp].lanes;
    w->nsample = lanes < MG_AM_LANES ? (int)lanes : MG_AM_LANES;
    for (int k = 0; k < w->nsample; k++) w->sample[k] = (uint32_t)k * lanes / (uint32_t)w->nsample;
    *barrier = 0;
    mg_trace_cursor_init(c, wg, warp);
    int got;
    while ((got = mg_trace_cursor_next(c, r, d)) == 1) {
        if (r->type == MG_REC_BARRIER) *barrier = 1;
        else read_rec(w, r);
    }
    if (got == 0 && w->sh_failed) {
        mg_diag_error(d, "out of memory");
    } else if (got == 0) {
        finish(w);
        rc = 0;
    }
out:
    free(c);
    free(r);
    free(w);
    return rc;
}
