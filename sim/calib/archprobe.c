/*
 * archprobe.c - an ArchProbe report folder as an mgsim profile
 * (archprobe.h).  The aspects and where each value comes from:
 *
 *   warp          WarpSizeMethodB (timing) is warp_size; WarpSizeMethodA
 *                 (atomic ticket order) is warp_size_by_ticket
 *   flops         Gflops.FloatGflops, HalfGflops, *VecComponentCount
 *   regs          RegCount.RegType (register_model), RegCount (the most
 *                 registers one item used before its time jumped:
 *                 max_regs_per_item); register_file_per_cu null (ArchProbe
 *                 counts single-item groups, not a core's file)
 *   cache_buffer  BufferCacheHierarchyPChase.CacheVectorCountLv1 (a
 *                 footprint in bytes, despite the name: the sweep's ranges
 *                 are bytes) as the one level buffers see; latencies the
 *                 medians of the range sweep inside and past it;
 *                 BufferCachelineSize.BufTopLevelCachelineSize
 *   cache_image   ImageCacheHierarchyPChase.CachePixelCountLv1, Lv2 (bytes
 *                 likewise); ImageCachelineSize (dim X: one row high)
 *   bw_*          the footprint sweeps (mg_pc_bw, as mgprobe concludes)
 *
 * A CSV's consecutive rows with the same key (ArchProbe's loop-count
 * calibration, ensure_min_niter, times a point at growing niter) make one
 * point: its x and y from the last row, every row kept ("rows", "lines").
 */
#include "sim/calib/archprobe.h"
#include "sim/calib/apcsv.h"
#include "sim/analysis/ares.h"
#include "sim/analysis/knee.h"
#include "sim/analysis/pconclude.h"
#include "sim/analysis/profile.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define REPORT "ArchProbeReport.json"

typedef struct ap {
    const char *dir;
    const char *cdir;
    cJSON      *rep;           /* ArchProbeReport.json */
    cJSON      *aspects;       /* the profile's "aspects" */
    cJSON      *curves;        /* NAME -> curves document */
    const char *devname;
    mg_diag    *d;
    int         err;
} ap;

/* One aspect being built. */
typedef struct ap_asp {
    const char *name;
    cJSON      *doc;
    mg_ares     r;
} ap_asp;

/* How a table becomes a series: points of the key columns' runs, x and y
 * from their last row (y = scale x ycol / divcol when divcol >= 0). */
typedef struct ap_series {
    const char *name, *xname, *yname;
    int         xcol, ycol, divcol;
    double      scale;
    int         nkey;
    int         key[3];
    int         first, last;   /* the rows [first, last) (last -1: to the end) */
    int         fcol;          /* >= 0: only rows whose fcol is (fne: is not) fval */
    int         fne;
    double      fval;
} ap_series;

/* ---- the report ------------------------------------------------------------------ */

/* Section sec of the report, or NULL when absent (its aspect is left out). */
static const cJSON *section(const ap *a, const char *sec)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(a->rep, sec);
    return cJSON_IsObject(s) ? s : NULL;
}

/* A finite number >= 0 at sec.key; an error when absent or not one. */
static double rnum(ap *a, const char *sec, const char *key)
{
    const cJSON *s = section(a, sec);
    const cJSON *v = s ? cJSON_GetObjectItemCaseSensitive(s, key) : NULL;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0) {
        if (!a->err)
            mg_diag_error(a->d, "%s/%s: $.%s.%s: expected a number >= 0, got %s", a->dir, REPORT,
                          sec, key, v ? mg_json_type_name(v) : "nothing");
        a->err = 1;
        return 0;
    }
    return v->valuedouble;
}

/* A string at sec.key; an error when absent. */
static const char *rstr(ap *a, const char *sec, const char *key)
{
    const cJSON *s = section(a, sec);
    const cJSON *v = s ? cJSON_GetObjectItemCaseSensitive(s, key) : NULL;
    if (!cJSON_IsString(v)) {
        if (!a->err)
            mg_diag_error(a->d, "%s/%s: $.%s.%s: expected a string, got %s", a->dir, REPORT, sec,
                          key, v ? mg_json_type_name(v) : "nothing");
        a->err = 1;
        return "";
    }
    return v->valuestring;
}

/* Load a CSV of the folder, or record the error. */
static int table(ap *a, mg_apcsv *t, const char *file, const char *const *cols, int ncol)
{
    if (a->err) return -1;
    if (mg_apcsv_load(t, a->dir, file, cols, ncol, a->d)) {
        a->err = 1;
        return -1;
    }
    return 0;
}

/* ---- aspects and series ---------------------------------------------------------- */

static void asp_begin(ap *a, ap_asp *s, const char *name)
{
    s->name = name;
    s->doc = cJSON_CreateObject();
    cJSON_AddStringToObject(s->doc, "schema", MG_CURVE_SCHEMA);
    cJSON_AddStringToObject(s->doc, "aspect", name);
    cJSON_AddStringToObject(s->doc, "device", a->devname);
    cJSON_AddStringToObject(s->doc, "date", "unknown: ArchProbe reports none");
    s->r.series = cJSON_AddArrayToObject(s->doc, "series");
    s->r.conclusion = cJSON_CreateObject();
    s->r.notes = cJSON_CreateArray();
}

/* The aspect's profile entry and curves document (or nothing on error). */
static void asp_end(ap *a, ap_asp *s)
{
    if (a->err) {
        cJSON_Delete(s->doc);
        cJSON_Delete(s->r.conclusion);
        cJSON_Delete(s->r.notes);
        return;
    }
    int any_ok;
    double conf = mg_ares_confidence(&s->r, &any_ok);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "status", any_ok ? "ok" : "undetermined");
    cJSON_AddStringToObject(e, "date", "unknown: ArchProbe reports none");
    char rel[600];
    snprintf(rel, sizeof rel, "%s/%s.json", a->cdir, s->name);
    cJSON_AddStringToObject(e, "curve", rel);
    if (conf >= 0) cJSON_AddNumberToObject(e, "confidence", conf);
    else cJSON_AddNullToObject(e, "confidence");
    cJSON_AddItemToObject(e, "conclusion", s->r.conclusion);
    cJSON_AddItemToObject(e, "notes", s->r.notes);
    cJSON_AddItemToObject(a->aspects, s->name, e);
    cJSON_AddItemToObject(a->curves, s->name, s->doc);
}

/* Rows r and q have the same key. */
static int same_key(const mg_apcsv *t, const ap_series *sp, int r, int q)
{
    for (int k = 0; k < sp->nkey; k++)
        if (mg_apcsv_at(t, r, sp->key[k]) != mg_apcsv_at(t, q, sp->key[k])) return 0;
    return 1;
}

/* Row r passes the series' filter. */
static int kept(const mg_apcsv *t, const ap_series *sp, int r)
{
    if (sp->fcol < 0) return 1;
    return (mg_apcsv_at(t, r, sp->fcol) == sp->fval) != sp->fne;
}

/* One point of rows [r0, r1): x, y of the last; every row raw. */
static double add_point(cJSON *pts, const mg_apcsv *t, const ap_series *sp, int r0, int r1,
                        double *x)
{
    int l = r1 - 1;
    double y = mg_apcsv_at(t, l, sp->ycol) * sp->scale;
    if (sp->divcol >= 0) {
        double dv = mg_apcsv_at(t, l, sp->divcol);
        y = dv > 0 ? y / dv : NAN;
    }
    *x = mg_apcsv_at(t, l, sp->xcol);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "x", *x);
    if (isfinite(y)) cJSON_AddNumberToObject(p, "y", y);
    else cJSON_AddNullToObject(p, "y");
    cJSON_AddStringToObject(p, "status", isfinite(y) ? "ok" : "error");
    if (!isfinite(y)) cJSON_AddStringToObject(p, "error", "niter is 0");
    cJSON *lines = cJSON_AddArrayToObject(p, "lines");
    for (int r = r0; r < r1; r++) cJSON_AddItemToArray(lines, cJSON_CreateNumber(t->line[r]));
    cJSON *row = cJSON_AddArrayToObject(p, "row");
    for (int c = 0; c < t->ncol; c++)
        cJSON_AddItemToArray(row, cJSON_CreateNumber(mg_apcsv_at(t, l, c)));
    cJSON_AddItemToArray(pts, p);
    return y;
}

/* The series sp of table t (cols: its column names); xs/ys (up to cap)
 * get the points; returns their count. */
static int add_series(ap_asp *s, const mg_apcsv *t, const char *const *cols, const ap_series *sp,
                      double *xs, double *ys, int cap)
{
    cJSON *pts = mg_ares_series(&s->r, sp->name, sp->xname, sp->yname);
    cJSON *ser = cJSON_GetArrayItem(s->r.series, cJSON_GetArraySize(s->r.series) - 1);
    cJSON *src = cJSON_AddObjectToObject(ser, "source");
    cJSON_AddStringToObject(src, "file", t->file);
    cJSON_AddStringToObject(src, "x", cols[sp->xcol]);
    char y[200];
    if (sp->divcol >= 0)
        snprintf(y, sizeof y, "%g x %s / %s", sp->scale, cols[sp->ycol], cols[sp->divcol]);
    else
        snprintf(y, sizeof y, "%s", cols[sp->ycol]);
    cJSON_AddStringToObject(src, "y", y);
    cJSON *cj = cJSON_AddArrayToObject(src, "row");
    for (int c = 0; c < t->ncol; c++) cJSON_AddItemToArray(cj, cJSON_CreateString(cols[c]));
    cJSON_AddStringToObject(src, "point", "x and y from the last of consecutive rows with the "
                            "same key (\"row\": its cells; \"lines\": every row's line, the "
                            "earlier ones ArchProbe's loop-count calibration)");
    int n = 0, last = sp->last < 0 ? t->nrow : sp->last;
    for (int r = sp->first; r < last;) {
        if (!kept(t, sp, r)) {
            r++;
            continue;
        }
        int q = r + 1;
        while (q < last && kept(t, sp, q) && same_key(t, sp, r, q)) q++;
        double x, yv = add_point(pts, t, sp, r, q, &x);
        if (n < cap && isfinite(yv)) xs[n] = x, ys[n++] = yv;
        r = q;
    }
    return n;
}

/* Median of ys over points with lo < x <= hi (NAN when none). */
static double median_in(const double *xs, const double *ys, int n, double lo, double hi)
{
    double *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (xs[i] > lo && xs[i] <= hi) v[k++] = ys[i];
    double m = k ? mg_knee_median(v, k) : NAN;
    free(v);
    return m;
}

/* ---- the aspects ------------------------------------------------------------------ */

#define MAXPTS 20000
static double X[MAXPTS], Y[MAXPTS];

/* ArchProbe prints numbers to 6 significant digits: a footprint within
 * 1e-5 of a power of two is that power of two (its sweeps double from 16). */
static void snap_pow2(mg_apcsv *t, int col)
{
    for (int r = 0; r < t->nrow; r++) {
        double *x = &t->v[(size_t)r * (size_t)t->ncol + (size_t)col];
        double p = exp2(round(log2(*x > 1 ? *x : 1)));
        if (fabs(*x - p) <= 1e-5 * p) *x = p;
    }
}

static void asp_bw(ap *a, const char *aspect, const char *sec, const char *file)
{
    if (!section(a, sec) || a->err) return;
    static const char *const cols[] = {"range (byte)", "t (us)", "bandwidth (gbps)"};
    mg_apcsv t;
    if (table(a, &t, file, cols, 3)) return;
    ap_asp s;
    asp_begin(a, &s, aspect);
    ap_series sp = {"footprint_sweep", "footprint_bytes", "gbytes_per_s", 0, 2, -1, 1, 1, {0},
                    0, -1, -1, 0, 0};
    snap_pow2(&t, 0);
    int n = add_series(&s, &t, cols, &sp, X, Y, MAXPTS);
    mg_pc_bw(&s.r, X, Y, NULL, n);
    mg_ares_note(&s.r, "footprints ArchProbe printed to 6 digits (1.04858e+06) restored to "
                 "its 16 B x 2^k");
    mg_ares_note(&s.r, "ArchProbe: %s.MaxBandwidth %g, MinBandwidth %g GB/s (%s)", sec,
                 rnum(a, sec, "MaxBandwidth"), rnum(a, sec, "MinBandwidth"), REPORT);
    mg_apcsv_free(&t);
    asp_end(a, &s);
}

static void asp_warp(ap *a)
{
    if (!section(a, "WarpSizeMethodA") || !section(a, "WarpSizeMethodB") || a->err) return;
    static const char *const ca[] = {"nthread", "nascend"};
    static const char *const cb[] = {"nthread", "time (us)"};
    mg_apcsv ta, tb;
    if (table(a, &ta, "WarpSizeMethodA.csv", ca, 2)) return;
    if (table(a, &tb, "WarpSizeMethodB.csv", cb, 2)) {
        mg_apcsv_free(&ta);
        return;
    }
    ap_asp s;
    asp_begin(a, &s, "warp");
    ap_series sa = {"method_a_ticket", "items", "ascending_tickets", 0, 1, -1, 1, 1, {0},
                    0, -1, -1, 0, 0};
    ap_series sb = {"method_b_timing", "items", "us", 0, 1, -1, 1, 1, {0}, 0, -1, -1, 0, 0};
    add_series(&s, &ta, ca, &sa, X, Y, MAXPTS);
    add_series(&s, &tb, cb, &sb, X, Y, MAXPTS);
    double wa = rnum(a, "WarpSizeMethodA", "WarpThreadCount");
    double wb = rnum(a, "WarpSizeMethodB", "WarpThreadCount");
    mg_ares_conclude(&s.r, "warp_size_by_ticket", wa, "items", 0.8,
                     REPORT " WarpSizeMethodA.WarpThreadCount: the longest run of ascending "
                     "atomic tickets");
    mg_ares_conclude(&s.r, "warp_size_by_timing", wb, "items", 0.8,
                     REPORT " WarpSizeMethodB.WarpThreadCount: the last item count before the "
                     "division loop's time steps");
    mg_ares_conclude(&s.r, "warp_size", wb, "items", 0.8,
                     "the timing estimate (" REPORT " WarpSizeMethodB): the width the hardware "
                     "times; a longer ticket run is a driver packing waves (Adreno's 2-wave "
                     "mode)");
    mg_apcsv_free(&ta);
    mg_apcsv_free(&tb);
    asp_end(a, &s);
}

static void asp_flops(ap *a)
{
    if (!section(a, "Gflops") || a->err) return;
    static const char *const cols[] = {"float width (bit)", "ncomp", "niter", "t (us)"};
    mg_apcsv t;
    if (table(a, &t, "Gflops.csv", cols, 4)) return;
    ap_asp s;
    asp_begin(a, &s, "flops");
    ap_series sp = {"vector_width", "components", "us", 1, 3, -1, 1, 2, {0, 1}, 0, -1, -1, 0, 0};
    add_series(&s, &t, cols, &sp, X, Y, MAXPTS);
    mg_ares_conclude(&s.r, "fp32_peak_gflops", rnum(a, "Gflops", "FloatGflops"), "GFLOPS", 0.9,
                     REPORT " Gflops.FloatGflops");
    mg_ares_conclude(&s.r, "fp16_peak_gflops", rnum(a, "Gflops", "HalfGflops"), "GFLOPS", 0.9,
                     REPORT " Gflops.HalfGflops");
    mg_ares_conclude(&s.r, "preferred_vector_width_float",
                     rnum(a, "Gflops", "FloatVecComponentCount"), "elements", 0.9,
                     REPORT " Gflops.FloatVecComponentCount");
    mg_ares_conclude(&s.r, "preferred_vector_width_half",
                     rnum(a, "Gflops", "HalfVecComponentCount"), "elements", 0.9,
                     REPORT " Gflops.HalfVecComponentCount");
    mg_apcsv_free(&t);
    asp_end(a, &s);
}

/* The row where the register sweep's x column (nreg, then ngrp) restarts. */
static int regs_split(const mg_apcsv *t)
{
    for (int r = 1; r < t->nrow; r++)
        if (mg_apcsv_at(t, r, 1) > 1) return r - 1 > 0 ? r - 1 : r;
    return t->nrow;
}

static void asp_regs(ap *a)
{
    if (!section(a, "RegCount") || a->err) return;
    static const char *const cols[] = {"nthread", "ngrp", "nreg", "niter", "t (us)"};
    mg_apcsv t;
    if (table(a, &t, "RegCount.csv", cols, 5)) return;
    ap_asp s;
    asp_begin(a, &s, "regs");
    int sp1 = regs_split(&t);
    ap_series s1 = {"one_item_by_regs", "regs", "ns_per_iteration", 2, 4, 3, 1000, 3, {0, 1, 2},
                    0, sp1, -1, 0, 0};
    ap_series s2 = {"one_item_groups_by_groups", "groups", "ns_per_iteration", 1, 4, 3, 1000, 3,
                    {0, 1, 2}, sp1, -1, -1, 0, 0};
    add_series(&s, &t, cols, &s1, X, Y, MAXPTS);
    add_series(&s, &t, cols, &s2, X, Y, MAXPTS);
    const char *ty = rstr(a, "RegCount", "RegType");
    mg_ares_conclude_str(&s.r, "register_model", !strcmp(ty, "Pooled") ? "pooled" : "dedicated",
                         0.8, REPORT " RegCount.RegType (FullRegConcurWorkgroupCount x 1.5 < "
                         "HalfRegConcurWorkgroupCount: pooled)");
    mg_ares_conclude(&s.r, "max_regs_per_item", rnum(a, "RegCount", "RegCount"), "registers", 0.8,
                     REPORT " RegCount.RegCount: the most registers one item used before its "
                     "time jumped");
    mg_ares_conclude_none(&s.r, "register_file_per_cu", "registers", "none",
                          "ArchProbe times single-item groups (FullRegConcurWorkgroupCount %g, "
                          "HalfRegConcurWorkgroupCount %g): groups, not a core's register file",
                          rnum(a, "RegCount", "FullRegConcurWorkgroupCount"),
                          rnum(a, "RegCount", "HalfRegConcurWorkgroupCount"));
    mg_apcsv_free(&t);
    asp_end(a, &s);
}

/* The chase's range sweep (smallest stride) and its stride rows into s;
 * returns the range sweep's point count (X, Y). */
static int chase_series(ap_asp *s, const mg_apcsv *t, const char *const *cols)
{
    double smin = mg_apcsv_at(t, 0, 1);
    for (int r = 1; r < t->nrow; r++) smin = fmin(smin, mg_apcsv_at(t, r, 1));
    ap_series rs = {"range_sweep", "footprint_bytes", "ns_per_access", 0, 3, 2, 1000, 2, {0, 1},
                    0, -1, 1, 0, smin};
    int n = add_series(s, t, cols, &rs, X, Y, MAXPTS);
    static double xs[MAXPTS], ys[MAXPTS];
    ap_series ss = {"stride_rows", "step_bytes", "ns_per_access", 1, 3, 2, 1000, 2, {0, 1},
                    0, -1, 1, 1, smin};
    if (add_series(s, t, cols, &ss, xs, ys, MAXPTS) == 0)
        cJSON_DeleteItemFromArray(s->r.series, cJSON_GetArraySize(s->r.series) - 1);
    return n;
}

static void conclude_lat(ap_asp *s, const char *key, double ns, const char *how)
{
    if (isfinite(ns)) mg_ares_conclude(&s->r, key, ns, "ns", 0.8, how);
    else mg_ares_conclude_none(&s->r, key, "ns", "none", "no range sweep point there");
}

static void asp_cache_buffer(ap *a)
{
    const char *sec = "BufferCacheHierarchyPChase";
    if (!section(a, sec) || a->err) return;
    static const char *const cols[] = {"range (byte)", "stride (byte)", "niter", "t (us)"};
    mg_apcsv t;
    if (table(a, &t, "BufferCacheHierarchyPChase.csv", cols, 4)) return;
    ap_asp s;
    asp_begin(a, &s, "cache_buffer");
    int n = chase_series(&s, &t, cols);
    double l1 = rnum(a, sec, "CacheVectorCountLv1"), last = l1;
    static const char *const lv[] = {"CacheVectorCountLv2", "CacheVectorCountLv3",
                                     "CacheVectorCountLv4"};
    for (int i = 0; i < 3; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(section(a, sec), lv[i]);
        if (v) last = fmax(last, rnum(a, sec, lv[i]));
    }
    mg_ares_conclude(&s.r, "levels", 1, NULL, 0.8, "one cache level: ArchProbe's steps "
                     "(CacheVectorCountLv1-4) all lie on one rise, the L2's");
    mg_ares_conclude(&s.r, "l1_size", l1, "bytes", 0.8, REPORT " " "BufferCacheHierarchyPChase."
                     "CacheVectorCountLv1 (a footprint in bytes: the sweep's ranges are bytes)");
    conclude_lat(&s, "l1_latency_ns", median_in(X, Y, n, 0, l1),
                 "median of the range sweep (BufferCacheHierarchyPChase.csv) at footprints up "
                 "to l1_size");
    conclude_lat(&s, "memory_latency_ns", median_in(X, Y, n, last, INFINITY),
                 "median of the range sweep past ArchProbe's last step (CacheVectorCountLv4)");
    if (section(a, "BufferCachelineSize"))
        mg_ares_conclude(&s.r, "line_size", rnum(a, "BufferCachelineSize",
                         "BufTopLevelCachelineSize"), "bytes", 0.8,
                         REPORT " BufferCachelineSize.BufTopLevelCachelineSize");
    mg_apcsv_free(&t);
    asp_end(a, &s);
}

static void asp_cache_image(ap *a)
{
    const char *sec = "ImageCacheHierarchyPChase";
    if (!section(a, sec) || a->err) return;
    static const char *const cols[] = {"range (byte)", "stride (byte)", "niter", "t (us)"};
    mg_apcsv t;
    if (table(a, &t, "ImageCacheHierarchyPChase.csv", cols, 4)) return;
    ap_asp s;
    asp_begin(a, &s, "cache_image");
    int n = chase_series(&s, &t, cols);
    double l1 = rnum(a, sec, "CachePixelCountLv1"), l2 = rnum(a, sec, "CachePixelCountLv2");
    mg_ares_conclude(&s.r, "levels", 2, NULL, 0.8, REPORT " ImageCacheHierarchyPChase: two "
                     "steps (CachePixelCountLv1, Lv2)");
    mg_ares_conclude(&s.r, "l1_size", l1, "bytes", 0.8, REPORT " ImageCacheHierarchyPChase."
                     "CachePixelCountLv1 (a footprint in bytes: the sweep's ranges are bytes)");
    mg_ares_conclude(&s.r, "l2_size", l2, "bytes", 0.8, REPORT " ImageCacheHierarchyPChase."
                     "CachePixelCountLv2 (bytes)");
    conclude_lat(&s, "l1_latency_ns", median_in(X, Y, n, 0, l1),
                 "median of the range sweep (ImageCacheHierarchyPChase.csv) up to l1_size");
    conclude_lat(&s, "l2_latency_ns", median_in(X, Y, n, l1, l2),
                 "median of the range sweep between l1_size and l2_size");
    conclude_lat(&s, "memory_latency_ns", median_in(X, Y, n, l2, INFINITY),
                 "median of the range sweep past l2_size");
    if (section(a, "ImageCachelineSize")) {
        const char *dim = rstr(a, "ImageCachelineSize", "ImgCachelineDim");
        double sz = rnum(a, "ImageCachelineSize", "ImgCachelineSize");
        int x = !strcmp(dim, "X");
        mg_ares_conclude(&s.r, "line_width_bytes", x ? sz : 16, "bytes", 0.8,
                         REPORT " ImageCachelineSize.ImgCachelineSize along ImgCachelineDim");
        mg_ares_conclude(&s.r, "line_height_rows", x ? 1 : sz / 16, "rows", 0.8,
                         REPORT " ImageCachelineSize.ImgCachelineDim (X: one row; Y: the size "
                         "in 16-byte texels)");
    }
    mg_apcsv_free(&t);
    asp_end(a, &s);
}

/* ---- the document ----------------------------------------------------------------- */

static void dev_num(ap *a, cJSON *o, const char *key, const char *rkey)
{
    if (cJSON_GetObjectItemCaseSensitive(section(a, "Device"), rkey))
        cJSON_AddNumberToObject(o, key, rnum(a, "Device", rkey));
}

static cJSON *device_json(ap *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", a->devname);
    cJSON_AddStringToObject(o, "driver_version", "unknown: ArchProbe reports none");
    cJSON_AddStringToObject(o, "type", "GPU");
    cJSON_AddStringToObject(o, "platform", "ArchProbe report (" REPORT ")");
    if (!section(a, "Device")) return o;
    dev_num(a, o, "compute_units", "SmCount");
    dev_num(a, o, "max_work_group_size", "LogicThreadCount");
    dev_num(a, o, "global_mem_cache_size", "CacheSize");
    dev_num(a, o, "global_mem_cacheline_size", "CachelineSize");
    dev_num(a, o, "local_mem_size", "MaxLocalMemSize");
    dev_num(a, o, "max_constant_buffer_size", "MaxConstMemSize");
    dev_num(a, o, "image2d_max_width", "MaxImageWidth");
    dev_num(a, o, "image2d_max_height", "MaxImageHeight");
    dev_num(a, o, "max_mem_alloc_size", "MaxBufferSize");
    return o;
}

static void base_name(const char *dir, char *buf, size_t len)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    size_t b = n;
    while (b > 0 && dir[b - 1] != '/') b--;
    snprintf(buf, len, "%.*s", (int)(n - b), dir + b);
}

int mg_archprobe_import(const char *dir, const char *name, const char *curves_dir,
                        cJSON **profile, cJSON **curves, mg_diag *d)
{
    char path[4200], bn[256];
    snprintf(path, sizeof path, "%s/%s", dir, REPORT);
    base_name(dir, bn, sizeof bn);
    ap a = {.dir = dir, .cdir = curves_dir, .devname = name ? name : bn, .d = d};
    a.rep = mg_json_load(path, d);
    if (!a.rep) return -1;
    if (!cJSON_IsObject(a.rep)) {
        mg_diag_error(d, "%s: expected an object of ArchProbe aspects", path);
        cJSON_Delete(a.rep);
        return -1;
    }
    cJSON *prof = cJSON_CreateObject();
    a.curves = cJSON_CreateObject();
    cJSON_AddStringToObject(prof, "schema", MG_PROFILE_SCHEMA);
    cJSON_AddStringToObject(prof, "tool", "ArchProbe (mgsim import archprobe)");
    cJSON_AddItemToObject(prof, "device", device_json(&a));
    cJSON_AddStringToObject(prof, "started", "unknown: ArchProbe reports none");
    cJSON_AddObjectToObject(prof, "settings");
    a.aspects = cJSON_AddObjectToObject(prof, "aspects");
    asp_warp(&a);
    asp_flops(&a);
    asp_regs(&a);
    asp_cache_buffer(&a);
    asp_cache_image(&a);
    asp_bw(&a, "bw_buffer", "BufferBandwidth", "BufferBandwidth.csv");
    asp_bw(&a, "bw_image", "ImageBandwidth", "ImageBandwidth.csv");
    asp_bw(&a, "bw_local", "LocalMemBandwidth", "LocalMemBandwidth.csv");
    asp_bw(&a, "bw_constant", "ConstMemBandwidth", "ConstMemBandwidth.csv");
    if (!a.err && !a.aspects->child) {
        mg_diag_error(d, "%s: no ArchProbe aspect this importer reads", path);
        a.err = 1;
    }
    int bad = a.err || mg_profile_validate(prof, path, d) != 0;
    for (const cJSON *c = a.curves->child; c && !bad; c = c->next)
        bad = mg_curve_validate(c, c->string, d) != 0;
    cJSON_Delete(a.rep);
    if (bad) {
        cJSON_Delete(prof);
        cJSON_Delete(a.curves);
        return -1;
    }
    *profile = prof;
    *curves = a.curves;
    return 0;
}
