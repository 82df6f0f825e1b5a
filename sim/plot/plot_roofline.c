/*
 * plot_roofline.c - `mgsim plot roofline`: the hierarchical roofline of one
 * device with kernels as points (plots/roofline.gp).
 *
 * Inputs: `mgsim run --json` reports (one object each), or sweep results
 * files (`mgsim sweep -o`, with --config: records give intensities only).  A report gives the
 * kernel's achieved GFLOPS, the compute peak and, for every memory level it
 * touched, the level's bandwidth (from the device config) and the kernel's
 * operation intensity there.  Each kernel is drawn once per level, at that
 * level's intensity and its achieved GFLOPS (Yang et al.'s hierarchical
 * roofline); each level's ceiling is bandwidth x intensity up to the peak.
 * --config CFG adds every level of the config and both precisions' peaks.
 *
 * Data written:
 *   ceil.dat    block per level (meta lvname_i, lvbw_i, lvcol_i, lvdt_i: 2,
 *               dashed, when a level before it is within 10%): the two
 *               ends of its ceiling, (xmin, bw*xmin) and (peak/bw, peak)
 *   peak.dat    block per compute roof (peak_i, peakname_i): a flat segment
 *   points.dat  block per named kernel (klabel_k, kgflops_k): "oi gflops col"
 *   all.dat     every kernel's points in one block (many = 1 when the
 *               kernels are too many to name; best = the fastest's index)
 */
#include "sim/config/device.h"
#include "sim/model/model.h"
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RF_LV     8    /* memory levels drawn at most */
#define RF_PEAKS  4
#define RF_NAMED  8    /* up to this many kernels get a mark and a key entry */

typedef struct rf_kernel {
    char   label[128];
    double gflops;
    double oi[RF_LV];          /* by level slot; 0: not touched */
} rf_kernel;

typedef struct rf_ctx {
    char       device[128];
    char       devsrc[256];      /* the input that named the device first */
    int        nlev;
    char       lvname[RF_LV][32];
    double     lvbw[RF_LV];      /* GB/s */
    int        npeak;
    double     peak[RF_PEAKS];   /* GFLOPS */
    char       peakname[RF_PEAKS][16];
    rf_kernel *k;
    size_t     nk, cap;
    int        have_config;  /* --config was read (first) */
} rf_ctx;

/* The colour slot of a level: the model's levels in their fixed order
 * (tex_l1 is always the same colour), others after them. */
static int level_colour(const char *name)
{
    for (int lv = 0; lv < MG_LV_COUNT; lv++)
        if (!strcmp(mg_level_name(lv), name)) return lv + 1;
    return MG_LV_COUNT + 1;
}

/* The slot of a level, added when new; -1 with a message when its
 * bandwidth contradicts an earlier input or there are too many. */
static int level_slot(rf_ctx *c, const char *name, double bw, const char *file, mg_diag *d)
{
    for (int i = 0; i < c->nlev; i++) {
        if (strcmp(c->lvname[i], name)) continue;
        if (fabs(c->lvbw[i] - bw) > 1e-9 * bw) {
            mg_diag_error(d, "%s: $.roofline.ceilings.%s.bandwidth_gbs: %g GB/s, but an "
                          "earlier input has %g GB/s (plot one device config at a time)",
                          file, name, bw, c->lvbw[i]);
            return -1;
        }
        return i;
    }
    if (c->nlev == RF_LV || strlen(name) >= sizeof c->lvname[0]) {
        mg_diag_error(d, "%s: $.roofline.ceilings.%s: too many levels or too long a name",
                      file, name);
        return -1;
    }
    snprintf(c->lvname[c->nlev], sizeof c->lvname[0], "%s", name);
    c->lvbw[c->nlev] = bw;
    return c->nlev++;
}

/* Add a compute roof; an equal one already there takes name as well
 * ("fp32/fp16" when both precisions peak alike). */
static void add_peak(rf_ctx *c, double peak, const char *name)
{
    for (int i = 0; i < c->npeak; i++)
        if (fabs(c->peak[i] - peak) <= 1e-9 * peak) {
            size_t l = strlen(c->peakname[i]);
            if (name[0] && l && !strstr(c->peakname[i], name))
                snprintf(c->peakname[i] + l, sizeof c->peakname[0] - l, "/%s", name);
            return;
        }
    if (c->npeak == RF_PEAKS) return;
    c->peak[c->npeak] = peak;
    snprintf(c->peakname[c->npeak], sizeof c->peakname[0], "%s", name);
    c->npeak++;
}

static int check_device(rf_ctx *c, const char *dev, const char *file, mg_diag *d)
{
    if (!c->device[0]) {
        snprintf(c->device, sizeof c->device, "%s", dev);
        snprintf(c->devsrc, sizeof c->devsrc, "%s", file);
        return 0;
    }
    if (strcmp(c->device, dev)) {
        mg_diag_error(d, "%s: $.device: '%s', but %s is for '%s' (plot one device at a "
                      "time)", file, dev, c->devsrc, c->device);
        return -1;
    }
    return 0;
}

/* A zeroed kernel at the end of c->k (counted by the caller), or NULL. */
static rf_kernel *new_kernel(rf_ctx *c, const char *file, mg_diag *d)
{
    if (c->nk == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 16;
        rf_kernel *k = realloc(c->k, cap * sizeof *k);
        if (!k) {
            mg_diag_error(d, "%s: out of memory", file);
            return NULL;
        }
        c->k = k;
        c->cap = cap;
    }
    memset(&c->k[c->nk], 0, sizeof c->k[0]);
    return &c->k[c->nk];
}

/* Add one `mgsim run --json` report (the object r at JSON path `path`). */
static int add_report(rf_ctx *c, const cJSON *r, const char *label, const char *file,
                      const char *path, mg_diag *d)
{
    const char *dev;
    double gflops, peak;
    if (mg_plot_get_str(r, "device", file, path, &dev, d)) return -1;
    if (mg_plot_get_pos(r, "gflops", file, path, &gflops, d)) return -1;
    char rpath[256];
    snprintf(rpath, sizeof rpath, "%s.roofline", path);
    const cJSON *rf = mg_plot_get_obj(r, "roofline", file, path, d);
    if (!rf || mg_plot_get_pos(rf, "peak_gflops", file, rpath, &peak, d)) return -1;
    const cJSON *ce = mg_plot_get_obj(rf, "ceilings", file, rpath, d);
    if (!ce || check_device(c, dev, file, d)) return -1;
    rf_kernel *k = new_kernel(c, file, d);
    if (!k) return -1;
    snprintf(k->label, sizeof k->label, "%s", label);
    k->gflops = gflops;
    char cpath[300];
    snprintf(cpath, sizeof cpath, "%s.ceilings", rpath);
    const cJSON *lv;
    cJSON_ArrayForEach(lv, ce) {
        double bw, oi;
        char lpath[400];
        snprintf(lpath, sizeof lpath, "%s.%s", cpath, lv->string);
        if (mg_plot_get_pos(lv, "bandwidth_gbs", file, lpath, &bw, d) ||
            mg_plot_get_pos(lv, "intensity", file, lpath, &oi, d))
            return -1;
        int s = level_slot(c, lv->string, bw, file, d);
        if (s < 0) return -1;
        k->oi[s] = oi;
    }
    add_peak(c, peak, "");
    c->nk++;
    return 0;
}

/* --config: every level the device has and both precisions' peaks. */
static int add_config(rf_ctx *c, const char *path, mg_diag *d)
{
    mg_device *dev = malloc(sizeof *dev);
    if (!dev || mg_device_load(path, 0, dev, d)) {
        free(dev);
        return -1;
    }
    int rc = check_device(c, dev->name, path, d);
    mg_sim_stats st;
    mg_roofline r;
    memset(&st, 0, sizeof st);
    mg_roofline_compute(dev, &st, &r);
    for (int lv = 0; !rc && lv < MG_LV_COUNT; lv++)
        if (r.bw[lv] > 0 && level_slot(c, mg_level_name(lv), r.bw[lv] / 1e9, path, d) < 0)
            rc = -1;
    add_peak(c, mg_device_peak_flops(dev, 0) / 1e9, "fp32");
    add_peak(c, mg_device_peak_flops(dev, 1) / 1e9, "fp16");
    c->have_config = 1;
    free(dev);
    return rc;
}

/* One record of a sweep results file: a kernel at its intensities; the
 * levels' bandwidths come from --config (read first). */
static int add_sweep_rec(void *vc, const cJSON *hdr, const cJSON *r, const char *where,
                         mg_diag *d)
{
    rf_ctx *c = vc;
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(hdr, "config");
    if (c->nk == 0 && cJSON_IsString(cf) && check_device(c, cf->valuestring, where, d))
        return -1;
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(r, "status");
    if (!cJSON_IsString(st) || strcmp(st->valuestring, "ok")) return 0;
    double idx, gflops;
    if (mg_plot_get_num(r, "index", where, "$", &idx, d) ||
        mg_plot_get_pos(r, "gflops", where, "$", &gflops, d))
        return -1;
    const cJSON *oi = mg_plot_get_obj(r, "oi", where, "$", d), *lv;
    if (!oi) return -1;
    rf_kernel *k = new_kernel(c, where, d);
    if (!k) return -1;
    snprintf(k->label, sizeof k->label, "#%.0f", idx);
    k->gflops = gflops;
    cJSON_ArrayForEach(lv, oi) {
        if (!cJSON_IsNumber(lv) || !(lv->valuedouble > 0)) {
            mg_diag_error(d, "%s: $.oi.%s: expected a positive number", where, lv->string);
            return -1;
        }
        int s = -1;
        for (int i = 0; i < c->nlev; i++)
            if (!strcmp(c->lvname[i], lv->string)) s = i;
        if (s < 0) {
            mg_diag_error(d, "%s: $.oi.%s: the config has no such level with a bandwidth",
                          where, lv->string);
            return -1;
        }
        k->oi[s] = lv->valuedouble;
    }
    c->nk++;
    return 0;
}

/* The label of input file: its name without folders and ".json". */
static void file_label(const char *file, char *buf, size_t len)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    snprintf(buf, len, "%s", b);
    size_t n = strlen(buf);
    if (n > 5 && !strcmp(buf + n - 5, ".json")) buf[n - 5] = 0;
}

static int add_input(mg_plot_job *job, rf_ctx *c, const char *file, mg_diag *d)
{
    if (mg_plot_is_sweep(file)) {
        if (!c->have_config) {
            mg_diag_error(d, "%s: a sweep's records carry intensities, not bandwidths: give "
                          "the sweep's device config with --config CFG", file);
            return -1;
        }
        return mg_plot_sweep_read(file, add_sweep_rec, c, NULL, d);
    }
    cJSON *j = mg_plot_load(job, file, d);
    if (!j) return -1;
    int rc;
    if (!cJSON_IsObject(j)) {
        mg_diag_error(d, "%s: $: expected an `mgsim run --json` report (an object), got %s",
                      file, mg_json_type_name(j));
        rc = -1;
    } else if (!cJSON_GetObjectItemCaseSensitive(j, "roofline")) {
        const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "schema");
        mg_diag_error(d, "%s: $.roofline: missing: not an `mgsim run --json` report%s%s%s",
                      file, cJSON_IsString(sc) ? " (schema \"" : "",
                      cJSON_IsString(sc) ? sc->valuestring : "", cJSON_IsString(sc) ? "\")" : "");
        rc = -1;
    } else {
        char label[128];
        file_label(file, label, sizeof label);
        rc = add_report(c, j, label, file, "$", d);
    }
    mg_plot_unload(job, j);
    return rc;
}

/* Sort levels in colour order, so the key lists them as the model does. */
static void sort_levels(rf_ctx *c)
{
    for (int i = 1; i < c->nlev; i++)
        for (int j = i; j > 0 && level_colour(c->lvname[j]) < level_colour(c->lvname[j - 1]);
             j--) {
            char n[32];
            memcpy(n, c->lvname[j], sizeof n);
            memcpy(c->lvname[j], c->lvname[j - 1], sizeof n);
            memcpy(c->lvname[j - 1], n, sizeof n);
            double t = c->lvbw[j];
            c->lvbw[j] = c->lvbw[j - 1];
            c->lvbw[j - 1] = t;
            for (size_t k = 0; k < c->nk; k++) {
                t = c->k[k].oi[j];
                c->k[k].oi[j] = c->k[k].oi[j - 1];
                c->k[k].oi[j - 1] = t;
            }
        }
}

static void write_kernel(FILE *f, const rf_ctx *c, const rf_kernel *k)
{
    for (int i = 0; i < c->nlev; i++) {
        if (k->oi[i] <= 0) continue;
        double row[3] = {k->oi[i], k->gflops, level_colour(c->lvname[i])};
        mg_plot_row(f, 3, row);
    }
}

/* The plot's extent: the highest peak, the x range (whole decades, at
 * least three) and the fastest kernel. */
typedef struct rf_axes {
    double pmax, xmin, xmax;
    size_t best;
} rf_axes;

/* The axes around every ceiling's ridge and every kernel's point, into ax
 * and meta.gp (xmin, xmax, ymin, ymax, with the device and the counts). */
static void write_axes(mg_plot_job *job, const rf_ctx *c, rf_axes *ax)
{
    double pmax = 0, xlo = INFINITY, xhi = 0, ylo = INFINITY;
    for (int i = 0; i < c->npeak; i++) pmax = fmax(pmax, c->peak[i]);
    for (int i = 0; i < c->nlev; i++) {
        xlo = fmin(xlo, pmax / c->lvbw[i]);
        xhi = fmax(xhi, pmax / c->lvbw[i]);
    }
    size_t best = 0;
    for (size_t k = 0; k < c->nk; k++) {
        if (c->k[k].gflops > c->k[best].gflops) best = k;
        ylo = fmin(ylo, c->k[k].gflops);
        for (int i = 0; i < c->nlev; i++)
            if (c->k[k].oi[i] > 0) {
                xlo = fmin(xlo, c->k[k].oi[i]);
                xhi = fmax(xhi, c->k[k].oi[i]);
            }
    }
    double xmin = mg_plot_decade_floor(xlo / 2), xmax = mg_plot_decade_ceil(xhi * 2);
    if (xmax / xmin < 1e3) xmax = xmin * 1e3;
    double ymax = mg_plot_decade_ceil(pmax * 1.5);
    double ymin = mg_plot_decade_floor(fmin(ylo / 3, ymax / 1e3));
    mg_plot_var_num(job, "xmin", xmin);
    mg_plot_var_num(job, "xmax", xmax);
    mg_plot_var_num(job, "ymin", ymin);
    mg_plot_var_num(job, "ymax", ymax);
    mg_plot_var_str(job, "device", c->device);
    mg_plot_var_num(job, "nlev", c->nlev);
    mg_plot_var_num(job, "npeak", c->npeak);
    mg_plot_var_num(job, "nk", (double)c->nk);
    mg_plot_var_num(job, "many", c->nk > RF_NAMED);
    mg_plot_var_num(job, "best", (double)best + 1);
    *ax = (rf_axes){.pmax = pmax, .xmin = xmin, .xmax = xmax, .best = best};
}

/* ceil.dat: a bandwidth ceiling per level, up to its ridge; the levels'
 * names, bandwidths and colours in meta.gp.  0, or -1 with a message. */
static int write_ceilings(mg_plot_job *job, const rf_ctx *c, const rf_axes *ax, mg_diag *d)
{
    FILE *ce = mg_plot_data_open(job, "ceil.dat", d);
    if (!ce) return -1;
    for (int i = 0; i < c->nlev; i++) {
        char v[32];
        snprintf(v, sizeof v, "lvname%d", i + 1);
        mg_plot_var_str(job, v, c->lvname[i]);
        snprintf(v, sizeof v, "lvbw%d", i + 1);
        mg_plot_var_num(job, v, c->lvbw[i]);
        snprintf(v, sizeof v, "lvcol%d", i + 1);
        mg_plot_var_num(job, v, level_colour(c->lvname[i]));
        int near = 0;                 /* a ceiling drawn before, within 10%: dashed */
        for (int j = 0; j < i; j++) near |= fabs(c->lvbw[j] - c->lvbw[i]) <= 0.1 * c->lvbw[i];
        snprintf(v, sizeof v, "lvdt%d", i + 1);
        mg_plot_var_num(job, v, near ? 2 : 1);
        double a[2] = {ax->xmin, c->lvbw[i] * ax->xmin}, b[2] = {ax->pmax / c->lvbw[i], ax->pmax};
        fprintf(ce, "%s", i ? "\n\n" : "");
        mg_plot_row(ce, 2, a);
        mg_plot_row(ce, 2, b);
    }
    return mg_plot_data_close(job, ce, "ceil.dat", d);
}

/* peak.dat: a compute roof per precision, from the fastest level's ridge;
 * the peaks and their names in meta.gp.  0, or -1 with a message. */
static int write_peaks(mg_plot_job *job, const rf_ctx *c, const rf_axes *ax, mg_diag *d)
{
    double bwmax = 0;
    for (int i = 0; i < c->nlev; i++) bwmax = fmax(bwmax, c->lvbw[i]);
    FILE *pk = mg_plot_data_open(job, "peak.dat", d);
    if (!pk) return -1;
    for (int i = 0; i < c->npeak; i++) {
        char v[32];
        snprintf(v, sizeof v, "peak%d", i + 1);
        mg_plot_var_num(job, v, c->peak[i]);
        snprintf(v, sizeof v, "peakname%d", i + 1);
        mg_plot_var_str(job, v, c->peakname[i]);
        double a[2] = {bwmax > 0 ? c->peak[i] / bwmax : ax->xmin, c->peak[i]};
        double b[2] = {ax->xmax, c->peak[i]};
        fprintf(pk, "%s", i ? "\n\n" : "");
        mg_plot_row(pk, 2, a);
        mg_plot_row(pk, 2, b);
    }
    return mg_plot_data_close(job, pk, "peak.dat", d);
}

/* points.dat: the named kernels (every one, or only the fastest when
 * there are more than RF_NAMED), their labels in meta.gp; all.dat: every
 * kernel.  0, or -1 with a message. */
static int write_points(mg_plot_job *job, const rf_ctx *c, const rf_axes *ax, mg_diag *d)
{
    FILE *pt = mg_plot_data_open(job, "points.dat", d);
    if (!pt) return -1;
    size_t named = c->nk > RF_NAMED ? 1 : c->nk;
    for (size_t n = 0; n < named; n++) {
        size_t k = c->nk > RF_NAMED ? ax->best : n;
        char v[32];
        snprintf(v, sizeof v, "klabel%zu", n + 1);
        mg_plot_var_str(job, v, c->k[k].label);
        snprintf(v, sizeof v, "kgflops%zu", n + 1);
        mg_plot_var_num(job, v, c->k[k].gflops);
        fprintf(pt, "%s", n ? "\n\n" : "");
        write_kernel(pt, c, &c->k[k]);
    }
    mg_plot_var_num(job, "nnamed", (double)named);
    if (mg_plot_data_close(job, pt, "points.dat", d)) return -1;
    FILE *al = mg_plot_data_open(job, "all.dat", d);
    if (!al) return -1;
    for (size_t k = 0; k < c->nk; k++) write_kernel(al, c, &c->k[k]);
    return mg_plot_data_close(job, al, "all.dat", d);
}

/* Every data file and meta.gp variable of the roofline.  0, or -1 with a
 * message in d. */
static int write_data(mg_plot_job *job, rf_ctx *c, mg_diag *d)
{
    rf_axes ax;
    write_axes(job, c, &ax);
    if (write_ceilings(job, c, &ax, d) || write_peaks(job, c, &ax, d)) return -1;
    return write_points(job, c, &ax, d);
}

int mg_plot_prepare_roofline(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    rf_ctx *c = calloc(1, sizeof *c);
    if (!c) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    int rc = job->config ? add_config(c, job->config, d) : 0;
    for (int i = 0; i < n && !rc; i++) rc = add_input(job, c, inputs[i], d);
    if (!rc && !c->nlev) {
        mg_diag_error(d, "%s: no memory level with traffic: nothing to draw", inputs[0]);
        rc = -1;
    }
    if (!rc) {
        sort_levels(c);
        rc = write_data(job, c, d);
        snprintf(job->summary, sizeof job->summary, "roofline of %zu kernel%s on %s, %d level%s",
                 c->nk, c->nk == 1 ? "" : "s", c->device, c->nlev, c->nlev == 1 ? "" : "s");
    }
    free(c->k);
    free(c);
    return rc;
}
