/*
 * bound.c - a lower bound of a launch's cycles from its trace alone
 * (bound.h; sim/MODEL.md, "The trace's lower bound").
 */
#include "sim/model/bound.h"

#include <string.h>

void mg_bound_init(mg_bound *b, const mg_device *dev)
{
    memset(b, 0, sizeof *b);
    b->dev = dev;
    for (int t = 0; t < MG_REC_TYPE_COUNT; t++) {
        int p[2];
        int n = t == MG_REC_ALU || t == MG_REC_BARRIER ? 0 : mg_mem_pipes(dev, t, p);
        for (int i = 0; i < 2; i++) b->pipes[t][i] = (int8_t)(i < n ? p[i] : -1);
    }
    for (int c = 0; c < MG_ALU_CLASS_COUNT; c++) b->alu_rate[c] = mg_alu_rate(dev, c);
    for (int p = MG_BP_TEX; p < MG_BP_COUNT; p++) b->pipe_rate[p] = mg_mem_pipe_rate(dev, p);
}

void mg_bound_add(mg_bound *b, const mg_rec *r)
{
    if (r->type == MG_REC_ALU) {
        int scalar;
        uint64_t u = mg_alu_units(b->dev, r, &scalar);
        b->alu[r->cls < MG_ALU_CLASS_COUNT ? r->cls : 0][scalar] += u;
        return;
    }
    if (r->type >= MG_REC_TYPE_COUNT || b->pipes[r->type][0] < 0) return;
    uint64_t bytes = (uint64_t)mg_rec_popcount(r) * r->width;
    b->bytes[b->pipes[r->type][0]] += bytes;
    if (b->pipes[r->type][1] >= 0) b->bytes[b->pipes[r->type][1]] += bytes;
}

int mg_bound_add_wg(mg_bound *b, const mg_trace_wg *wg, mg_diag *d)
{
    static _Thread_local mg_rec r;
    static _Thread_local mg_trace_cursor c;
    for (uint32_t w = 0; w < wg->n_warps; w++) {
        mg_trace_cursor_init(&c, wg, w);
        c.distinct_only = 1;                 /* no address is read */
        int rc;
        while ((rc = mg_trace_cursor_next(&c, &r, d)) == 1) mg_bound_add(b, &r);
        if (rc < 0) return -1;
    }
    return 0;
}

double mg_bound_cycles(const mg_bound *b, int *pipe)
{
    double busy[MG_BP_COUNT] = {0};
    for (int c = 0; c < MG_ALU_CLASS_COUNT; c++) {
        if (b->alu_rate[c] <= 0) continue;
        busy[MG_BP_ALU] += (double)b->alu[c][0] / b->alu_rate[c];
        busy[MG_BP_SALU] += (double)b->alu[c][1] / b->alu_rate[c];
    }
    for (int p = MG_BP_TEX; p < MG_BP_COUNT; p++)
        busy[p] = b->pipe_rate[p] > 0 ? (double)b->bytes[p] / b->pipe_rate[p] : 0;
    double best = 0, nsp = b->dev->sp_count > 0 ? (double)b->dev->sp_count : 1;
    int at = MG_BP_ALU;
    for (int i = 0; i < MG_BP_COUNT; i++) {
        double c = i < MG_BP_PER_SP ? busy[i] / nsp : busy[i];
        if (c > best) {
            best = c;
            at = i;
        }
    }
    if (pipe) *pipe = at;
    return best;
}

static void sink(void *ctx, const mg_rec *r) { mg_bound_add(ctx, r); }

/* Make wg an empty group whose records go to b through the shape sink. */
static void sink_wg(mg_trace_wg *wg, mg_bound *b)
{
    mg_trace_wg_init(wg);
    wg->want_recs = 1;
    wg->sink = sink;
    wg->sink_ctx = b;
}

/* Add work group i of src, made in wg (see sink_wg).  A source that keeps
 * records anyway (it need not honour the sink) has them summed from wg. */
static int add_at(mg_bound *b, mg_trace_source *src, uint64_t i, mg_trace_wg *wg, mg_diag *d)
{
    if (src->wg_at(src->self, i, wg, d)) return -1;
    return wg->nrecs || wg->len ? mg_bound_add_wg(b, wg, d) : 0;
}

int mg_bound_launch(mg_bound *b, mg_trace_source *src, mg_diag *d)
{
    mg_trace_wg wg;
    sink_wg(&wg, b);
    uint64_t n = mg_trace_num_wgs(src->hdr);
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++) rc = add_at(b, src, i, &wg, d);
    mg_trace_wg_free(&wg);
    return rc;
}

/* Give up on the pre-pass once the projected bound of the whole launch is
 * below this fraction of the limit: the pre-pass could still pass it only
 * if the rest of the launch had far more work per group than its start. */
#define GIVE_UP 0.75

/* The replay adds each record's busy time as a double, in its own order:
 * the bound (exact integer sums, converted once) must pass the limit by
 * more than that rounding. */
#define ROUNDING 1e-9

int mg_bound_over(mg_sim *s, double limit)
{
    mg_trace_source *src = s->src;
    if (!src->wg_at || limit <= 0) return 0;
    uint64_t n = mg_trace_num_wgs(s->hdr);
    mg_bound b;
    mg_bound_init(&b, s->dev);
    mg_trace_wg wg;
    sink_wg(&wg, &b);
    int over = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (add_at(&b, src, i, &wg, s->d)) {
            s->failed = 1;
            over = -1;
            break;
        }
        double c = mg_bound_cycles(&b, NULL);
        if (c > limit * (1 + ROUNDING)) {
            over = 1;
            break;
        }
        if (c * (double)n / (double)(i + 1) < GIVE_UP * limit) break;
    }
    mg_trace_wg_free(&wg);
    return over;
}
