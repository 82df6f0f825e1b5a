/*
 * sample_class.c - classes of work groups for sampled simulation
 * (sample.h; sim/MODEL.md, "Sampled simulation").
 *
 * A work group's position along each grid dimension is first, middle or
 * last: groups at the edges are where partial tiles, masked lanes and
 * padding live.  One representative of each of the (at most 27) position
 * classes is generated out of order (the source's wg_at) and summarised;
 * equal summaries make one kind.  Members of the most common class at the
 * second and next-to-last positions of each dimension are summarised too:
 * when they differ from the representative, edges reach deeper than one
 * work group (or the work depends on the position otherwise) and the
 * launch is not uniform enough to sample.
 */
#include "sim/model/sample.h"

#include <string.h>

int mg_sample_sig(const mg_trace_wg *wg, mg_wg_sig *sig, mg_diag *d)
{
    static _Thread_local mg_rec r;
    memset(sig, 0, sizeof *sig);
    sig->warps = wg->n_warps;
    for (uint32_t w = 0; w < wg->n_warps; w++) {
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, wg, w);
        int rc;
        while ((rc = mg_trace_cursor_next(&c, &r, d)) == 1) {
            unsigned act = mg_rec_popcount(&r);
            sig->warp_instrs++;
            sig->records[r.type]++;
            sig->lanes += act;
            if (r.type == MG_REC_ALU) {
                /* as sim.c's issue_alu counts them */
                sig->flops += (double)act * r.n * r.vec * r.flops;
                sig->alu_lane_ops[r.cls] += (double)act * r.n * r.vec;
            } else if (r.type != MG_REC_BARRIER) {
                sig->lane_accesses += act;       /* as mem.c counts them */
            }
        }
        if (rc < 0) return -1;
    }
    return 0;
}

static int sig_equal(const mg_wg_sig *a, const mg_wg_sig *b)
{
    if (a->warps != b->warps || a->warp_instrs != b->warp_instrs ||
        a->lane_accesses != b->lane_accesses || a->lanes != b->lanes || a->flops != b->flops)
        return 0;
    for (int i = 0; i < MG_REC_TYPE_COUNT; i++)
        if (a->records[i] != b->records[i]) return 0;
    for (int i = 0; i < MG_ALU_CLASS_COUNT; i++)
        if (a->alu_lane_ops[i] != b->alu_lane_ops[i]) return 0;
    return 1;
}

/* Position (0 first, 1 middle, 2 last) of coordinate i among n. */
static int pos_of(uint64_t i, uint64_t n)
{
    return i == 0 ? 0 : i + 1 == n ? 2 : 1;
}

/* Coordinates along a dimension of n at position p. */
static uint64_t pos_count(uint64_t n, int p)
{
    if (p == 0) return n >= 1;
    if (p == 2) return n >= 2;
    return n >= 3 ? n - 2 : 0;
}

/* The representative coordinate of position p along n. */
static uint64_t pos_rep(uint64_t n, int p)
{
    return p == 0 ? 0 : p == 2 ? n - 1 : n / 2;
}

int mg_sample_pos(const mg_sample_classes *c, const uint32_t id[3])
{
    return pos_of(id[0], c->n[0]) + 3 * pos_of(id[1], c->n[1]) + 9 * pos_of(id[2], c->n[2]);
}

uint64_t mg_sample_index(const mg_sample_classes *c, const uint32_t id[3])
{
    return id[0] + c->n[0] * (id[1] + c->n[1] * (uint64_t)id[2]);
}

/* Summarise the work group at coordinates x. */
static int sig_at(mg_sample_classes *c, mg_trace_source *src, const uint64_t x[3],
                  mg_wg_sig *sig, mg_diag *d)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    wg.want_recs = 1;
    uint64_t idx = x[0] + c->n[0] * (x[1] + c->n[1] * x[2]);
    int rc = src->wg_at(src->self, idx, &wg, d);
    if (rc == 0) rc = mg_sample_sig(&wg, sig, d);
    mg_trace_wg_free(&wg);
    c->generated++;
    return rc;
}

/* Do the classes with dimension dim at an edge have other kinds than
 * their counterparts in the middle? */
static int edges_differ(const mg_sample_classes *c, int dim)
{
    static const int stride[3] = {1, 3, 9};
    for (int p = 0; p < MG_SAMPLE_POS; p++) {
        int pd = p / stride[dim] % 3;
        if (pd == 1 || c->kind[p] < 0) continue;
        int mid = p + (1 - pd) * stride[dim];
        if (c->kind[mid] >= 0 && c->kind[mid] != c->kind[p]) return 1;
    }
    return 0;
}

int mg_sample_classify(mg_sample_classes *c, mg_trace_source *src, mg_diag *d)
{
    const mg_trace_header *h = src->hdr;
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++) c->n[i] = h->local[i] ? h->global[i] / h->local[i] : 1;
    uint64_t best = 0;
    int best_pos = 0;
    for (int p = 0; p < MG_SAMPLE_POS; p++) {
        int px = p % 3, py = p / 3 % 3, pz = p / 9;
        c->pos_count[p] = pos_count(c->n[0], px) * pos_count(c->n[1], py) *
                          pos_count(c->n[2], pz);
        c->kind[p] = -1;
        if (!c->pos_count[p]) continue;
        c->positions++;
        uint64_t x[3] = {pos_rep(c->n[0], px), pos_rep(c->n[1], py), pos_rep(c->n[2], pz)};
        mg_wg_sig sig;
        if (sig_at(c, src, x, &sig, d)) return -1;
        int k = 0;
        while (k < c->n_kinds && !sig_equal(&c->sig[k], &sig)) k++;
        if (k == c->n_kinds) c->sig[c->n_kinds++] = sig;
        c->kind[p] = k;
        if (c->pos_count[p] > best) { best = c->pos_count[p]; best_pos = p; }
    }
    /* the most common class must be uniform away from its representative */
    c->uniform = 1;
    for (int dim = 0; dim < 3 && c->uniform; dim++) {
        int pd = best_pos / (dim == 0 ? 1 : dim == 1 ? 3 : 9) % 3;
        if (pd != 1 || c->n[dim] < 4) continue;
        uint64_t x[3] = {pos_rep(c->n[0], best_pos % 3), pos_rep(c->n[1], best_pos / 3 % 3),
                         pos_rep(c->n[2], best_pos / 9)};
        const uint64_t at[2] = {1, c->n[dim] - 2};
        for (int j = 0; j < 2 && c->uniform; j++) {
            if (at[j] == x[dim]) continue;
            uint64_t y[3] = {x[0], x[1], x[2]};
            y[dim] = at[j];
            mg_wg_sig sig;
            if (sig_at(c, src, y, &sig, d)) return -1;
            c->uniform = sig_equal(&sig, &c->sig[c->kind[best_pos]]);
        }
    }
    /* work of each kind relative to the most common one */
    const mg_wg_sig *ref = &c->sig[c->kind[best_pos]];
    for (int k = 0; k < c->n_kinds; k++) {
        c->w_rec[k] = ref->warp_instrs ? (double)c->sig[k].warp_instrs / (double)ref->warp_instrs
                                       : 1.0;
        c->w_lane[k] = ref->lanes ? (double)c->sig[k].lanes / (double)ref->lanes : 1.0;
    }
    int outer = c->n[2] > 1 ? 2 : c->n[1] > 1 ? 1 : 0;
    c->outer_differs = edges_differ(c, outer);
    for (int dim = 0; dim < outer; dim++) c->inner_differs |= edges_differ(c, dim);
    return 0;
}
