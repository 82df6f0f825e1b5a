/*
 * cal_rules.c - which config key comes from which profile conclusion, and
 * how (configs/PROFILE.md, "Calibration").  A conclusion is used when its
 * confidence is at least min_conf; latencies are split per the model's
 * latency composition (configs/README.md): a chase step is the level's
 * latency plus its dependent address arithmetic (buffers one ALU latency,
 * images two: the texel's x and y).  What is taken here is judged by the
 * plausibility checks (cal_checks.c) before the config is used.
 */
#include "sim/calib/cal_internal.h"
#include "sim/analysis/profile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A profile conclusion usable for calibration: 0 with *v. */
static int pnum(cal_ctx *c, const char *aspect, const char *key, double *v)
{
    double conf;
    if (mg_profile_number(c->prof, aspect, key, v, &conf)) return -1;
    if (conf >= 0 && conf < c->o->min_conf) {
        cal_note(c, "%s.%s = %g: confidence %.2f is below %.2f: not used", aspect, key, *v,
                 conf, c->o->min_conf);
        return -1;
    }
    return 0;
}

/* A string conclusion with its confidence checked, or NULL. */
static const char *pstr(cal_ctx *c, const char *aspect, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c->prof, "aspects"), aspect);
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(a, "status");
    if (!cJSON_IsString(st) || (strcmp(st->valuestring, "ok") &&
                                strcmp(st->valuestring, "undetermined")))
        return NULL;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(a, "conclusion"), key);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(k, "value");
    const cJSON *cf = cJSON_GetObjectItemCaseSensitive(k, "confidence");
    if (!cJSON_IsString(v)) return NULL;
    if (cJSON_IsNumber(cf) && cf->valuedouble < c->o->min_conf) {
        cal_note(c, "%s.%s = %s: confidence %.2f is below %.2f: not used", aspect, key,
                 v->valuestring, cf->valuedouble, c->o->min_conf);
        return NULL;
    }
    return v->valuestring;
}

/* A number the device reported (profile $.device.key): 0 with *v. */
static int pdev(const cal_ctx *c, const char *key, double *v)
{
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c->prof, "device"), key);
    if (!cJSON_IsNumber(x) || !(x->valuedouble > 0)) return -1;
    *v = x->valuedouble;
    return 0;
}

/* "PROFILE: what" into buf. */
static const char *ref(const cal_ctx *c, char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static const char *ref(const cal_ctx *c, char *buf, size_t len, const char *fmt, ...)
{
    int n = snprintf(buf, len, "%s: ", c->o->profile_path);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < len) vsnprintf(buf + n, len - (size_t)n, fmt, ap);
    va_end(ap);
    return buf;
}

/* A size rounded to a whole number of sets of `line` x `assoc` bytes (0
 * for under half a set: the size check refuses it). */
static double whole_sets(double size, double line, double assoc)
{
    double set = (line > 0 ? line : 64) * (assoc > 0 ? assoc : 1);
    return fmax(0, round(size / set)) * set;
}

static double clock_ghz(const cal_ctx *c) { return cal_value(c, "core.clock") / 1e9; }

/* Cycles `bytes` take through a pipe of `bw` bytes/s (whole device; per
 * core when per_core), the model's transfer term (sim/MODEL.md, Memory);
 * 0 when the bandwidth is unknown. */
static double xfer(const cal_ctx *c, double bytes, const char *bw_key, int per_core)
{
    double bw = cal_value(c, bw_key), clk = cal_value(c, "core.clock");
    double n = per_core ? cal_value(c, "core.sp_count") : 1;
    return bw > 0 && clk > 0 && n > 0 ? bytes / (bw / clk / n) : 0;
}
static double alu_lat(const cal_ctx *c) { return cal_value(c, "core.alu_latency_cycles"); }

/* v to 4 significant digits (a rate derived from a 6-digit peak). */
static double sig4(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.4g", v);
    return atof(buf);
}

/* ---- identity and cores ---------------------------------------------------------- */

static void identity(cal_ctx *c)
{
    char r[MG_REF_MAX], name[MG_NAME_MAX];
    const cJSON *dev = cJSON_GetObjectItemCaseSensitive(c->prof, "device");
    const cJSON *dn = cJSON_GetObjectItemCaseSensitive(dev, "name");
    const cJSON *dv = cJSON_GetObjectItemCaseSensitive(dev, "vendor");
    if (c->o->name) snprintf(name, sizeof name, "%s", c->o->name);
    else if (c->base) snprintf(name, sizeof name, "%.50s-calibrated", c->base->name);
    else snprintf(name, sizeof name, "calibrated");
    cal_put_str(c, "device.name", name, "inferred",
                ref(c, r, sizeof r, "calibrated by mgsim calibrate"));
    if (cJSON_IsString(dv) && dv->valuestring[0]) {
        char v[MG_NAME_MAX];
        snprintf(v, sizeof v, "%.63s", dv->valuestring);
        cal_put_str(c, "device.vendor", v, "driver", ref(c, r, sizeof r, "device.vendor"));
    }
    char notes[MG_REF_MAX];
    snprintf(notes, sizeof notes, "calibrated from a probe profile of %.80s%s%.60s",
             cJSON_IsString(dn) ? dn->valuestring : "a device",
             c->base ? " on base " : "", c->base ? c->base->name : "");
    cal_put_str(c, "device.notes", notes, "inferred", ref(c, r, sizeof r, "device.name"));
}

static void cores(cal_ctx *c)
{
    char r[MG_REF_MAX];
    double v, t;
    if (!pdev(c, "max_clock_mhz", &v))
        cal_put_unit(c, "core.clock", v * 1e6, "driver", ref(c, r, sizeof r, "device.max_clock_mhz"));
    if (!pdev(c, "compute_units", &v)) {
        cal_put_num(c, "core.sp_count", v, "driver", ref(c, r, sizeof r, "device.compute_units"));
        if (!pnum(c, "regs", "compute_units_by_timing", &t) && t != v)
            cal_note(c, "regs.compute_units_by_timing = %g differs from the reported %g compute "
                     "units (the reported count is taken)", t, v);
    }
    if (!pdev(c, "max_work_group_size", &v))
        cal_put_num(c, "core.max_workgroup_size", v, "driver",
                    ref(c, r, sizeof r, "device.max_work_group_size"));
    if (!pnum(c, "warp", "warp_size", &v)) {
        cal_put_num(c, "core.warp_width", v, "measured", ref(c, r, sizeof r, "warp.warp_size"));
        double wmax = cal_value(c, "core.warp_width_max");
        if (cal_get(c, "core.warp_width_max") && fmod(wmax, v) != 0) {
            cal_note(c, "the base's core.warp_width_max %g is not a multiple of the measured "
                     "warp %g: left to its default (the warp)", wmax, v);
            cal_drop(c, "core.warp_width_max");
        }
    }
    /* vector issue: the preferred width of the fp32 peak */
    if (!pnum(c, "flops", "preferred_vector_width_float", &v) && (v == 1 || v == 4))
        cal_put_str(c, "core.issue", v == 4 ? "vec4" : "scalar", "inferred",
                    ref(c, r, sizeof r, "flops.preferred_vector_width_float = %g (%s)", v,
                        v == 4 ? "scalar code reaches a quarter of the peak" : "no width is faster"));
    /* lanes and rates: the fp32 peak per core and cycle (alus_per_sp counts
     * scalar lanes, also on vec4-issue devices: their peak needs vec4 code) */
    double vf = 1;
    double peak, lanes;
    double per = cal_value(c, "core.sp_count") * cal_value(c, "core.clock") * vf;
    if (!pnum(c, "flops", "fp32_peak_gflops", &peak) && per > 0) {
        if (!pnum(c, "alu", "alu_lanes_per_cu_by_flops", &lanes)) lanes = round(lanes / vf);
        else lanes = round(peak * 1e9 / (2 * per));
        if (lanes < 1) lanes = 1;
        cal_put_num(c, "core.alus_per_sp", lanes, "measured",
                    ref(c, r, sizeof r, "alu.alu_lanes_per_cu_by_flops%s", vf > 1 ? " / 4 (vec4 issue)" : ""));
        lanes = cal_value(c, "core.alus_per_sp");    /* the base's, when refused */
        if (!(lanes >= 1)) return;
        cal_put_num(c, "core.fp32_flops_per_alu_cycle", sig4(peak * 1e9 / (per * lanes)), "inferred",
                    ref(c, r, sizeof r, "flops.fp32_peak_gflops / (sp_count x alus_per_sp x "
                        "clock%s)", vf > 1 ? " x 4" : ""));
        if (!pnum(c, "flops", "fp16_peak_gflops", &peak))
            cal_put_num(c, "core.fp16_flops_per_alu_cycle", sig4(peak * 1e9 / (per * lanes)),
                        "inferred", ref(c, r, sizeof r, "flops.fp16_peak_gflops / (sp_count x "
                                        "alus_per_sp x clock%s)", vf > 1 ? " x 4" : ""));
    }
}

/* ---- registers ------------------------------------------------------------------- */

static void registers(cal_ctx *c)
{
    char r[MG_REF_MAX];
    double v;
    const char *model = pstr(c, "regs", "register_model");
    if (model && (!strcmp(model, "pooled") || !strcmp(model, "dedicated")))
        cal_put_str(c, "registers.model", !strcmp(model, "pooled") ? "shared_pool" : "dedicated",
                    "measured", ref(c, r, sizeof r, "regs.register_model = %s", model));
    int pool = !strcmp(cal_text(c, "registers.model"), "shared_pool");
    if (pool && !pnum(c, "regs", "register_file_per_cu", &v))
        cal_put_num(c, "registers.pool_regs_per_sp", v, "measured",
                    ref(c, r, sizeof r, "regs.register_file_per_cu"));
    if (!pnum(c, "regs", "max_regs_per_item", &v))
        cal_put_num(c, "registers.max_regs_per_item", v, "measured",
                    ref(c, r, sizeof r, "regs.max_regs_per_item"));
}

/* ---- caches ------------------------------------------------------------------------- */

/* The texture L1 from the image chase; *l2inc gets the L2 latency it adds
 * (cycles, unclamped: the latency check refuses one that is not positive;
 * NAN when not measured). */
static void texture(cal_ctx *c, double *l2inc)
{
    char r[MG_REF_MAX];
    double wb, hr, size, lat, lat2, bw;
    *l2inc = NAN;
    if (!pnum(c, "bw_image", "peak_gbps", &bw))
        cal_put_unit(c, "tex_l1.bandwidth", bw * 1e9, "measured",
                     ref(c, r, sizeof r, "bw_image.peak_gbps"));
    int shape = !pnum(c, "cache_image", "line_width_bytes", &wb) &&
                !pnum(c, "cache_image", "line_height_rows", &hr) && wb >= 4;
    /* the tile shape goes with the line: a refused line keeps the base's shape */
    if (shape && cal_put_unit(c, "tex_l1.line", wb * hr, "measured",
                              ref(c, r, sizeof r, "cache_image.line_width_bytes x line_height_rows"))) {
        cal_put_num(c, "tex_l1.tile_w_texels", wb / 4, "measured",
                    ref(c, r, sizeof r, "cache_image.line_width_bytes / 4-byte texel"));
        cal_put_num(c, "tex_l1.tile_h_texels", hr, "measured",
                    ref(c, r, sizeof r, "cache_image.line_height_rows"));
        cal_put_num(c, "tex_l1.tile_texel_bytes", 4, "inferred",
                    ref(c, r, sizeof r, "the image chase's 1-channel int32 texels"));
    }
    if (!pnum(c, "cache_image", "l1_size", &size))
        cal_put_unit(c, "tex_l1.size", whole_sets(size, cal_value(c, "tex_l1.line"),
                                                  cal_value(c, "tex_l1.assoc")), "measured",
                     ref(c, r, sizeof r, "cache_image.l1_size, to whole sets"));
    if (!pnum(c, "cache_image", "l1_latency_ns", &lat) && clock_ghz(c) > 0) {
        cal_put_num(c, "tex_l1.latency_cycles",
                    fmax(1, round(lat * clock_ghz(c) - 2 * alu_lat(c) -
                                  xfer(c, 4, "tex_l1.bandwidth", 1))), "measured",
                    ref(c, r, sizeof r, "cache_image.l1_latency_ns x clock - 2 x "
                        "core.alu_latency_cycles (the chase's address) - a texel's transfer"));
        if (!pnum(c, "cache_image", "l2_latency_ns", &lat2))
            *l2inc = round((lat2 - lat) * clock_ghz(c) -
                           xfer(c, cal_value(c, "tex_l1.line"), "l2.bandwidth", 0));
    }
}

/* The buffer path, the L2 and DRAM from the buffer chase. */
static void buffers(cal_ctx *c, double l2inc_img)
{
    char r[MG_REF_MAX], k1[32], k2[32];
    double levels, size1, lat1, line, bw, v;
    if (pnum(c, "cache_buffer", "levels", &levels) || levels < 1 ||
        pnum(c, "cache_buffer", "l1_size", &size1) ||
        pnum(c, "cache_buffer", "l1_latency_ns", &lat1)) {
        cal_note(c, "cache_buffer: no usable levels: the buffer path, L2 and DRAM latency come "
                 "from the base");
        return;
    }
    int last = (int)levels;
    double size_last = size1, lat_last = lat1, mem = 0, clk = clock_ghz(c);
    snprintf(k1, sizeof k1, "l%d_size", last);
    snprintf(k2, sizeof k2, "l%d_latency_ns", last);
    if (last > 1 && (pnum(c, "cache_buffer", k1, &size_last) ||
                     pnum(c, "cache_buffer", k2, &lat_last)))
        last = 1, size_last = size1, lat_last = lat1;
    int has_line = !pnum(c, "cache_buffer", "line_size", &line);
    int have_bw = !pnum(c, "bw_buffer", "peak_gbps", &bw);
    const char *path = last >= 2 ? "l1" : "l2";
    cal_put_str(c, "buffer.path", path, "measured",
                ref(c, r, sizeof r, "cache_buffer.levels = %d (%s)", last, last >= 2 ?
                    "a cache below the L2: the load/store L1" : "one level: buffers go to the L2"));
    cal_drop_inapplicable(c);
    if (last >= 2) {
        if (has_line)
            cal_put_unit(c, "buffer_l1.line", line, "measured", ref(c, r, sizeof r,
                                                                    "cache_buffer.line_size"));
        double bl = cal_get(c, "buffer_l1.line") ? cal_value(c, "buffer_l1.line") : 64;
        cal_put_unit(c, "buffer_l1.size", whole_sets(size1, bl, cal_value(c, "buffer_l1.assoc")),
                     "measured", ref(c, r, sizeof r, "cache_buffer.l1_size, to whole sets"));
        if (have_bw)
            cal_put_unit(c, "buffer_l1.bandwidth", bw * 1e9, "measured",
                         ref(c, r, sizeof r, "bw_buffer.peak_gbps"));
        cal_put_num(c, "buffer_l1.latency_cycles",
                    fmax(1, round(lat1 * clk - alu_lat(c) - xfer(c, 4, "buffer_l1.bandwidth", 1))),
                    "measured", ref(c, r, sizeof r, "cache_buffer.l1_latency_ns x clock - "
                                    "core.alu_latency_cycles (the chase's address) - 4 bytes' "
                                    "transfer"));
        cal_put_num(c, "l2.latency_cycles",
                    round((lat_last - lat1) * clk -
                          xfer(c, cal_value(c, "buffer_l1.line"), "l2.bandwidth", 0)),
                    "measured", ref(c, r, sizeof r, "cache_buffer.%s - l1_latency_ns, x clock, "
                                    "- an L1 line's transfer", k2));
        if (!cal_get(c, "l2.line") && !pdev(c, "global_mem_cacheline_size", &v))
            cal_put_unit(c, "l2.line", v, "driver",
                         ref(c, r, sizeof r, "device.global_mem_cacheline_size"));
    } else {
        if (has_line)
            cal_put_unit(c, "l2.line", line, "measured", ref(c, r, sizeof r,
                                                             "cache_buffer.line_size"));
        if (have_bw)
            cal_put_unit(c, "l2.bandwidth", bw * 1e9, "measured",
                         ref(c, r, sizeof r, "bw_buffer.peak_gbps (buffers read the L2)"));
        if (!isnan(l2inc_img))
            cal_put_num(c, "l2.latency_cycles", l2inc_img, "measured",
                        ref(c, r, sizeof r, "cache_image.l2_latency_ns - l1_latency_ns, x clock"));
        cal_put_num(c, "buffer.latency_cycles",
                    round(lat1 * clk - cal_value(c, "l2.latency_cycles") - alu_lat(c) -
                          xfer(c, 4, "l2.bandwidth", 0)),
                    "measured", ref(c, r, sizeof r, "cache_buffer.l1_latency_ns x clock - "
                                    "l2.latency_cycles - core.alu_latency_cycles"));
    }
    cal_put_unit(c, "l2.size", whole_sets(size_last, cal_value(c, "l2.line"),
                                          cal_value(c, "l2.assoc")), "measured",
                 ref(c, r, sizeof r, "cache_buffer.%s, to whole sets", k1));
    if (!pnum(c, "cache_buffer", "memory_latency_ns", &mem)) {
        /* an L2 miss also moves one L2 line through the DRAM pipe; a
         * difference that is not positive is left to the latency check */
        double dbw = cal_value(c, "dram.bandwidth");
        double move = dbw > 0 ? cal_value(c, "l2.line") / dbw * 1e9 : 0;
        cal_put_unit(c, "dram.latency", (mem - lat_last - move) * 1e-9, "measured",
                     ref(c, r, sizeof r, "cache_buffer.memory_latency_ns - %s - one L2 line "
                         "over dram.bandwidth", k2));
    }
}

/* local.bandwidth from the local curve: its peak, or, where the base
 * config broadcasts small reads (local.broadcast_bytes > 0), its largest
 * footprint's rate (every lane on its own data), the peak going to
 * local.broadcast_bandwidth. */
static void local_bandwidths(cal_ctx *c)
{
    char r[MG_REF_MAX];
    double v, big;
    if (pnum(c, "bw_local", "peak_gbps", &v)) return;
    if (!strcmp(cal_text(c, "local.kind"), "system")) {
        cal_note(c, "bw_local.peak_gbps = %g: not used (local.kind is system: local memory "
                 "takes the buffer path)", v);
        return;
    }
    if (cal_value(c, "local.broadcast_bytes") > 0 &&
        !pnum(c, "bw_local", "largest_footprint_gbps", &big)) {
        cal_put_unit(c, "local.broadcast_bandwidth", v * 1e9, "measured",
                     ref(c, r, sizeof r, "bw_local.peak_gbps (reads of few distinct "
                         "addresses, broadcast)"));
        cal_put_unit(c, "local.bandwidth", big * 1e9, "measured",
                     ref(c, r, sizeof r, "bw_local.largest_footprint_gbps (local.broadcast_bytes "
                         "> 0: the peak is the broadcast path's)"));
        return;
    }
    cal_put_unit(c, "local.bandwidth", v * 1e9, "measured",
                 ref(c, r, sizeof r, "bw_local.peak_gbps"));
}

static void bandwidths(cal_ctx *c)
{
    char r[MG_REF_MAX];
    double v;
    if (!pnum(c, "dram", "dram_gbps", &v))
        cal_put_unit(c, "dram.bandwidth", v * 1e9, "measured", ref(c, r, sizeof r, "dram.dram_gbps"));
    if (!pdev(c, "local_mem_size", &v))
        cal_put_unit(c, "local.size", v, "driver", ref(c, r, sizeof r, "device.local_mem_size"));
    if (!pdev(c, "max_constant_buffer_size", &v))
        cal_put_unit(c, "constant.size", v, "driver",
                     ref(c, r, sizeof r, "device.max_constant_buffer_size"));
    if (!pnum(c, "bw_constant", "peak_gbps", &v))
        cal_put_unit(c, "constant.bandwidth", v * 1e9, "measured",
                     ref(c, r, sizeof r, "bw_constant.peak_gbps"));
    local_bandwidths(c);
}

/* ---- load issue -------------------------------------------------------------------- */

/* buffer.vload and buffer.max_load_bytes from the vload aspect. */
static void vloads(cal_ctx *c)
{
    char r[MG_REF_MAX];
    double v;
    const char *m = pstr(c, "vload", "vload");
    if (m && (!strcmp(m, "vector") || !strcmp(m, "elements")))
        cal_put_str(c, "buffer.vload", m, "measured",
                    ref(c, r, sizeof r, "vload.vload = %s (a half vector costs x %s a float "
                        "vector of the same bytes, every lane on its own line)", m,
                        !strcmp(m, "vector") ? "1" : "2"));
    if (!pnum(c, "vload", "max_load_bytes", &v))
        cal_put_num(c, "buffer.max_load_bytes", v, "measured",
                    ref(c, r, sizeof r, "vload.max_load_bytes (the widest vector that costs "
                        "what a half does, a wider one two loads)"));
}

int cal_apply_profile(cal_ctx *c)
{
    identity(c);
    cores(c);
    registers(c);
    bandwidths(c);                 /* dram.bandwidth first: the DRAM latency uses it */
    double l2inc;
    texture(c, &l2inc);
    buffers(c, l2inc);
    vloads(c);
    cal_drop_inapplicable(c);
    return 0;
}
