/* tracer.c - see tracer.h. */
#include "traces/gen/tracer.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The comparison of one launch: the kernel's geometry, the log, and the
 * per-item state of the work group being compared. */
typedef struct cmp {
    const mg_kernel *k;
    const uint32_t  *log;
    uint64_t         stride;      /* log words per item */
    uint64_t         cap;         /* k->log_cap */
    int64_t          gsz[3], lsz[3];
    uint64_t         wg_items;    /* items per work group */
    uint32_t         wg_id[3];    /* the group being compared */
    uint64_t        *pos;         /* per local id: next access index */
    unsigned char   *bad;         /* per local id: already reported */
    mg_tracer_report *rep;
} cmp;

/* A size from the plan, with 0 (an unused dimension) read as 1. */
static int64_t dim(int64_t v)
{
    return v > 0 ? v : 1;
}

uint64_t mg_tracer_items(const mg_kernel *k)
{
    return (uint64_t)dim(k->global[0]) * (uint64_t)dim(k->global[1]) *
           (uint64_t)dim(k->global[2]);
}

size_t mg_tracer_log_words(const mg_kernel *k)
{
    if (k->log_cap < 0) return 0;
    uint64_t items = mg_tracer_items(k);
    uint64_t stride = MG_TRACER_STRIDE(k->log_cap);
    if (stride && items > (uint64_t)SIZE_MAX / stride) return 0;
    return (size_t)(items * stride);
}

/* Is t a memory record type (one the kernel logs)? */
static int is_memory(int t)
{
    return t == MG_REC_TEX_READ || t == MG_REC_BUF_LOAD || t == MG_REC_BUF_STORE ||
           t == MG_REC_LOCAL_LOAD || t == MG_REC_LOCAL_STORE || t == MG_REC_CONST_LOAD ||
           t == MG_REC_IMG_WRITE;
}

/* Does a record of type t address texels (x, y) rather than bytes? */
static int is_2d(int t)
{
    return t == MG_REC_TEX_READ || t == MG_REC_IMG_WRITE;
}

/* One access in comparable form. */
typedef struct access {
    uint32_t site;
    uint32_t type;
    uint32_t obj;
    int64_t  a, b;
} access;

/* Decode log entry words w[0..3] (b kept only for 2D types). */
static access from_log(const uint32_t *w)
{
    access x;
    x.site = w[0] >> 8;
    x.type = w[0] & 0xffu;
    x.obj = w[1];
    if (is_2d((int)x.type)) {
        x.a = (int32_t)w[2];
        x.b = (int32_t)w[3];
    } else {
        x.a = (int64_t)w[2];
        x.b = 0;
    }
    return x;
}

/* Lane l of record r in comparable form. */
static access from_rec(const mg_rec *r, unsigned l)
{
    access x;
    x.site = r->site;
    x.type = r->type;
    x.obj = r->obj;
    x.a = r->a[l];
    x.b = is_2d(r->type) ? r->b[l] : 0;
    return x;
}

/* Are two accesses the same (site, type, object, a, b)? */
static int same(const access *p, const access *q)
{
    return p->site == q->site && p->type == q->type && p->obj == q->obj && p->a == q->a &&
           p->b == q->b;
}

/* Describe an access in words into buf: "buf_load (site 3) of buffer 1 at
 * byte 1024", "tex_read (site 0) of image 0 at texel (4, 2)". */
static const char *describe(const access *x, char *buf, size_t len)
{
    char tname[32];
    if (x->type >= MG_REC_ALU && x->type < MG_REC_TYPE_COUNT)
        snprintf(tname, sizeof tname, "%s", mg_rec_type_name((int)x->type));
    else
        snprintf(tname, sizeof tname, "record type %" PRIu32, x->type);
    if (is_2d((int)x->type))
        snprintf(buf, len, "%s (site %" PRIu32 ") of image %" PRIu32 " at texel (%" PRId64
                 ", %" PRId64 ")", tname, x->site, x->obj, x->a, x->b);
    else if (x->type == MG_REC_LOCAL_LOAD || x->type == MG_REC_LOCAL_STORE)
        snprintf(buf, len, "%s (site %" PRIu32 ") at local byte %" PRId64, tname, x->site,
                 x->a);
    else
        snprintf(buf, len, "%s (site %" PRIu32 ") of buffer %" PRIu32 " at byte %" PRId64,
                 tname, x->site, x->obj, x->a);
    return buf;
}

/* Global id of local linear id lid in the current group. */
static void global_id(const cmp *c, uint64_t lid, int64_t gid[3])
{
    int64_t l[3];
    l[0] = (int64_t)(lid % (uint64_t)c->lsz[0]);
    l[1] = (int64_t)(lid / (uint64_t)c->lsz[0] % (uint64_t)c->lsz[1]);
    l[2] = (int64_t)(lid / ((uint64_t)c->lsz[0] * (uint64_t)c->lsz[1]));
    for (int i = 0; i < 3; i++) gid[i] = (int64_t)c->wg_id[i] * c->lsz[i] + l[i];
}

/* Global linear id (x fastest) of local linear id lid. */
static uint64_t global_linear(const cmp *c, uint64_t lid)
{
    int64_t g[3];
    global_id(c, lid, g);
    return (uint64_t)g[0] + (uint64_t)c->gsz[0] * ((uint64_t)g[1] + (uint64_t)c->gsz[1] *
                                                   (uint64_t)g[2]);
}

/* The log words of item lid of the current group. */
static const uint32_t *item_log(const cmp *c, uint64_t lid)
{
    return c->log + global_linear(c, lid) * c->stride;
}

/* Record that item lid differs: count it once, and describe it when fewer
 * than MG_TRACER_MAX_MISMATCHES are described. */
static void mismatch(cmp *c, uint64_t lid, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void mismatch(cmp *c, uint64_t lid, const char *fmt, ...)
{
    if (lid < c->wg_items) {
        if (c->bad[lid]) return;
        c->bad[lid] = 1;
    }
    mg_tracer_report *r = c->rep;
    r->bad_items++;
    if (r->n_msgs >= MG_TRACER_MAX_MISMATCHES) return;
    int64_t g[3];
    global_id(c, lid, g);
    char *m = r->msg[r->n_msgs++];
    int n = snprintf(m, MG_TRACER_MSG_MAX, "work item (%" PRId64 ",%" PRId64 ",%" PRId64 "): ",
                     g[0], g[1], g[2]);
    if (n < 0 || n >= MG_TRACER_MSG_MAX) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m + n, MG_TRACER_MSG_MAX - (size_t)n, fmt, ap);
    va_end(ap);
}

/* Compare lane l of memory record r (warp w) with the item's log. */
static void check_lane(cmp *c, const mg_rec *r, uint32_t w, unsigned l)
{
    uint64_t lid = (uint64_t)w * c->k->warp + l;
    if (lid >= c->wg_items) {
        /* Lanes past the group's last item cannot access anything. */
        mismatch(c, lid, "trace gives lane %u of warp %" PRIu32 " an access, but the work "
                 "group has only %" PRIu64 " items", l, w, c->wg_items);
        return;
    }
    uint64_t i = c->pos[lid]++;
    if (c->bad[lid]) return;
    const uint32_t *lg = item_log(c, lid);
    uint64_t made = lg[0];
    access want = from_rec(r, l);
    char e[160], got[160];
    if (i >= made) {
        mismatch(c, lid, "access %" PRIu64 ": expected %s, got none (the item made only %"
                 PRIu64 " access%s)", i, describe(&want, e, sizeof e), made,
                 made == 1 ? "" : "es");
        return;
    }
    if (i >= c->cap) return;        /* not logged: reported at the end of the group */
    c->rep->accesses++;
    access have = from_log(lg + MG_TRACER_HDR_WORDS + MG_TRACER_ACCESS_WORDS * i);
    if (!same(&want, &have))
        mismatch(c, lid, "access %" PRIu64 ": expected %s, got %s", i,
                 describe(&want, e, sizeof e), describe(&have, got, sizeof got));
}

/* After the last record of a group: items whose counts differ, and items
 * that made more accesses than the log holds. */
static void check_counts(cmp *c)
{
    for (uint64_t lid = 0; lid < c->wg_items; lid++) {
        const uint32_t *lg = item_log(c, lid);
        uint64_t made = lg[0];
        c->rep->expected += c->pos[lid];
        if (c->bad[lid]) continue;
        if (made > c->cap) {
            mismatch(c, lid, "made %" PRIu64 " accesses (the trace says %" PRIu64 "), more "
                     "than log_cap %" PRIu64 ": log_cap too small, the log is incomplete",
                     made, c->pos[lid], c->cap);
        } else if (made > c->pos[lid]) {
            char got[160];
            access have = from_log(lg + MG_TRACER_HDR_WORDS +
                                   MG_TRACER_ACCESS_WORDS * c->pos[lid]);
            mismatch(c, lid, "access %" PRIu64 ": expected none (the trace ends after %"
                     PRIu64 " accesses), got %s (the item made %" PRIu64 ")", c->pos[lid],
                     c->pos[lid], describe(&have, got, sizeof got), made);
        }
    }
}

/* Compare work group `idx` (trace in *wg).  Returns 0, or -1 after adding
 * a decoding error to d. */
static int compare_wg(cmp *c, uint64_t idx, const mg_trace_wg *wg, mg_diag *d)
{
    uint64_t ngx = (uint64_t)(c->gsz[0] / c->lsz[0]), ngy = (uint64_t)(c->gsz[1] / c->lsz[1]);
    c->wg_id[0] = (uint32_t)(idx % ngx);
    c->wg_id[1] = (uint32_t)(idx / ngx % ngy);
    c->wg_id[2] = (uint32_t)(idx / (ngx * ngy));
    memset(c->pos, 0, c->wg_items * sizeof *c->pos);
    memset(c->bad, 0, c->wg_items);
    if (memcmp(wg->id, c->wg_id, sizeof c->wg_id)) {
        mismatch(c, 0, "work group %" PRIu64 " is (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in "
                 "the launch but (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in the trace", idx,
                 c->wg_id[0], c->wg_id[1], c->wg_id[2], wg->id[0], wg->id[1], wg->id[2]);
    }
    mg_rec *r = malloc(sizeof *r);
    if (!r) {
        mg_diag_error(d, "tracer: out of memory");
        return -1;
    }
    int rc = 0;
    for (uint32_t w = 0; w < wg->n_warps && rc == 0; w++) {
        mg_trace_cursor cur;
        mg_trace_cursor_init(&cur, wg, w);
        int got;
        while ((got = mg_trace_cursor_next(&cur, r, d)) == 1) {
            if (!is_memory(r->type)) continue;
            unsigned lanes = r->lanes < MG_TRACE_MAX_LANES ? r->lanes : MG_TRACE_MAX_LANES;
            for (unsigned l = 0; l < lanes; l++)
                if (mg_rec_active(r, l)) check_lane(c, r, w, l);
        }
        if (got < 0) {
            mg_diag_error(d, "tracer: work group %" PRIu64 " warp %" PRIu32 ": the generated "
                          "trace does not decode", idx, w);
            rc = -1;
        }
    }
    free(r);
    if (rc == 0) check_counts(c);
    return rc;
}

/* Check the launch geometry the comparison relies on; fill c's sizes.
 * Returns 0, or -1 with a message in d. */
static int setup(cmp *c, const mg_gen *g, size_t log_words, mg_diag *d)
{
    const mg_kernel *k = &g->k;
    for (int i = 0; i < 3; i++) {
        c->gsz[i] = dim(k->global[i]);
        c->lsz[i] = dim(k->local[i]);
        if (c->gsz[i] % c->lsz[i]) {
            mg_diag_error(d, "tracer: global size %" PRId64 " is not a multiple of the "
                          "work-group size %" PRId64 " in dimension %d", c->gsz[i],
                          c->lsz[i], i);
            return -1;
        }
    }
    if (k->warp == 0 || k->log_cap < 0) {
        mg_diag_error(d, "tracer: the plan has warp %" PRIu32 " and log_cap %" PRId64,
                      k->warp, k->log_cap);
        return -1;
    }
    size_t need = mg_tracer_log_words(k);
    if (need == 0 || log_words < need) {
        mg_diag_error(d, "tracer: the log has %zu words, %" PRIu64 " items x %" PRIu64
                      " words are needed", log_words, mg_tracer_items(k),
                      MG_TRACER_STRIDE(k->log_cap));
        return -1;
    }
    c->k = k;
    c->cap = (uint64_t)k->log_cap;
    c->stride = MG_TRACER_STRIDE(k->log_cap);
    c->wg_items = (uint64_t)c->lsz[0] * (uint64_t)c->lsz[1] * (uint64_t)c->lsz[2];
    return 0;
}

int mg_tracer_compare(const mg_gen *g, const uint32_t *log, size_t log_words,
                      mg_tracer_report *rep, mg_diag *d)
{
    memset(rep, 0, sizeof *rep);
    cmp c;
    memset(&c, 0, sizeof c);
    c.log = log;
    c.rep = rep;
    if (setup(&c, g, log_words, d)) return -1;
    rep->items = mg_tracer_items(&g->k);
    c.pos = calloc(c.wg_items, sizeof *c.pos);
    c.bad = calloc(c.wg_items, 1);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int rc = 0;
    if (!c.pos || !c.bad) {
        mg_diag_error(d, "tracer: out of memory");
        rc = -1;
    }
    uint64_t n = mg_gen_num_wgs(g);
    uint64_t groups = rep->items / c.wg_items;
    if (rc == 0 && n != groups) {
        mg_diag_error(d, "tracer: the generator has %" PRIu64 " work groups, the launch %"
                      PRIu64, n, groups);
        rc = -1;
    }
    for (uint64_t idx = 0; idx < n && rc == 0; idx++) {
        if (mg_gen_trace_wg(g, idx, &wg)) {
            mg_diag_error(d, "tracer: cannot produce the trace of work group %" PRIu64, idx);
            rc = -1;
            break;
        }
        rc = compare_wg(&c, idx, &wg, d);
    }
    mg_trace_wg_free(&wg);
    free(c.pos);
    free(c.bad);
    if (rc) return -1;
    return rep->bad_items ? 1 : 0;
}
