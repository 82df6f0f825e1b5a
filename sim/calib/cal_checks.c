/*
 * cal_checks.c - the plausibility checks calibration runs on every value
 * it took from a profile (cal_internal.h, configs/PROFILE.md "Plausibility
 * checks").  One table: a rule's name, the keys it judges, the figures it
 * reads, its test, whether a failure refuses the value (impossible) or
 * flags it (suspicious but possible), and the reason.  A rule judges only
 * values the profile gave; the figures it reads are the document's current
 * ones (the profile's where it gave them, else the base's or the defaults).
 *
 * The per-core ceiling: a cache serves at most one warp-wide access of
 * 4-byte words per core and clock, W = sp_count x clock x warp_width x 4 B
 * (x 4 lanes per item with vec4 issue).  That is the width GPU L1s and
 * local memories are built to (NVIDIA's L1 and shared memory: 32 lanes x
 * 4 B = 128 B/clk per SM; Adreno's wave of 64 x 4 B = 256 B/clk per SP);
 * above it a value is flagged, above 2 W refused (no cache we know serves
 * two warp-wide accesses per clock).
 */
#include "sim/calib/cal_internal.h"
#include "sim/analysis/profile.h"
#include "base/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cal_rule {
    const char *name;
    const char *keys;         /* the keys it judges, space-separated */
    const char *reads;        /* the other figures it reads */
    /* 1 when v (key's value) is plausible; else 0 with the figures in fig */
    int (*ok)(const cal_ctx *c, const char *key, double v, char *fig, size_t n);
    int refuse;               /* 1: impossible, refused; 0: suspicious, flagged */
    const char *why;
} cal_rule;

/* ---- figures --------------------------------------------------------------- */

/* Whether key has a value the profile gave. */
static int measured(const cal_ctx *c, const char *key)
{
    size_t row;
    return mg_schema_find(key, &row) && c->origin[row] == MG_CAL_PROFILE && cal_get(c, key);
}

/* The base's value of key when its source is a vendor's published figure:
 * 1 with *v. */
static int vendor(const cal_ctx *c, const char *key, double *v)
{
    size_t row;
    if (!c->base || !mg_schema_find(key, &row) || !c->base->set[row] ||
        c->base->src[row].kind != MG_SRC_VENDOR)
        return 0;
    *v = cal_field_num(c->base, row);
    return *v > 0;
}

/* W: one warp-wide access of 4-byte words per core and clock (bytes/s). */
static double warp_rate(const cal_ctx *c)
{
    double lanes = cal_value(c, "core.warp_width") *
                   (!strcmp(cal_text(c, "core.issue"), "vec4") ? 4 : 1);
    return cal_value(c, "core.sp_count") * cal_value(c, "core.clock") * lanes * 4;
}

/* bytes/s as "31.7TB/s" */
static const char *bw_text(double v, char *buf, size_t n)
{
    char num[32];
    snprintf(num, sizeof num, "%.3g", v);
    return mg_unit_format(MG_UNIT_BANDWIDTH, atof(num), buf, n);
}

/* ---- bandwidths ------------------------------------------------------------ */

static int bw_over(const cal_ctx *c, double v, double times, char *fig, size_t n)
{
    double w = warp_rate(c), per = cal_value(c, "core.sp_count") * cal_value(c, "core.clock");
    if (!(w > 0) || v <= times * w) return 1;
    snprintf(fig, n, "%.0f B/clk per core > %g x %.0f", v / per, times, w / per);
    return 0;
}

static int ok_bw_ceiling(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    return bw_over(c, v, 2, fig, n);
}

static int ok_bw_width(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    return bw_over(c, v, 1, fig, n);
}

static int ok_bw_vendor(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    double b;
    char t[32];
    if (!vendor(c, key, &b) || v <= 1.1 * b) return 1;
    snprintf(fig, n, "%.2fx the base's vendor figure %s", v / b, bw_text(b, t, sizeof t));
    return 0;
}

/* v against the other key's value: 1 when other is absent (or, with
 * need_measured, not from the profile) or v >= times x other. */
static int at_least(const cal_ctx *c, double v, const char *other, double times,
                    int need_measured, char *fig, size_t n)
{
    if (!cal_get(c, other) || (need_measured && !measured(c, other))) return 1;
    double o = cal_value(c, other);
    char t[32];
    if (v >= times * o) return 1;
    snprintf(fig, n, "%s%s %s", times != 1 ? "under half of " : "below ", other,
             bw_text(o, t, sizeof t));
    return 0;
}

static int ok_l2_dram(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    return at_least(c, v, "dram.bandwidth", 1, 0, fig, n);
}

static int ok_l1_l2(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    return at_least(c, v, "l2.bandwidth", 1, 1, fig, n);
}

static int ok_local(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    return at_least(c, v, "buffer_l1.bandwidth", 0.5, 1, fig, n);
}

static int ok_const(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    if (!measured(c, "buffer_l1.bandwidth")) return 1;
    double b = cal_value(c, "buffer_l1.bandwidth");
    if (!(b > 0) || fabs(v / b - 1) > 0.02) return 1;
    snprintf(fig, n, "within 2%% of buffer_l1.bandwidth (%.3f x)", v / b);
    return 0;
}

/* ---- sizes ----------------------------------------------------------------- */

/* "tex_l1.size" -> "tex_l1.FIELD" */
static const char *sibling(const char *key, const char *field, char *buf, size_t n)
{
    snprintf(buf, n, "%.*s.%s", (int)(strchr(key, '.') - key), key, field);
    return buf;
}

static int ok_sets(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    char k[64];
    double set = cal_value(c, sibling(key, "line", k, sizeof k)) *
                 cal_value(c, sibling(key, "assoc", k, sizeof k));
    if (v > 0 && set > 0 && fmod(v, set) == 0) return 1;
    snprintf(fig, n, "%.0f B over sets of %.0f B", v, set);
    return 0;
}

static int ok_l1_within(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    static const char *const l1[] = {"tex_l1.size", "buffer_l1.size"};
    for (int i = 0; i < 2; i++) {
        int is_l2 = !strcmp(key, "l2.size");
        if (!is_l2 && strcmp(key, l1[i])) continue;
        const char *other = is_l2 ? l1[i] : "l2.size";
        if (!cal_get(c, other)) continue;
        double o = cal_value(c, other), small = is_l2 ? o : v, big = is_l2 ? v : o;
        if (small <= big) continue;
        snprintf(fig, n, "%s %.0f B > %s %.0f B", is_l2 ? other : key, small,
                 is_l2 ? key : other, big);
        return 0;
    }
    return 1;
}

static int ok_size_vendor(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    double b;
    char t[32];
    if (!vendor(c, key, &b) || (v >= 0.8 * b && v <= 1.25 * b)) return 1;
    snprintf(fig, n, "%.2fx the base's vendor figure %s", v / b,
             mg_unit_format(MG_UNIT_SIZE, b, t, sizeof t));
    return 0;
}

/* ---- lines ----------------------------------------------------------------- */

static int ok_line_div(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    static const char *const l1[] = {"tex_l1.line", "buffer_l1.line"};
    for (int i = 0; i < 2; i++) {
        int is_l2 = !strcmp(key, "l2.line");
        if (!is_l2 && strcmp(key, l1[i])) continue;
        const char *other = is_l2 ? l1[i] : "l2.line";
        if (!cal_get(c, other)) continue;
        double o = cal_value(c, other), small = is_l2 ? o : v, big = is_l2 ? v : o;
        if (small > 0 && fmod(big, small) == 0) continue;
        snprintf(fig, n, "%s %.0f B does not divide %s %.0f B", is_l2 ? other : key, small,
                 is_l2 ? key : other, big);
        return 0;
    }
    return 1;
}

/* The confidence of the profile's line conclusion for key (the image
 * line: the lower of its width's and height's); -1 when none. */
static double line_conf(const cal_ctx *c, const char *key)
{
    double v, a = -1, b = -1;
    if (strcmp(key, "tex_l1.line")) {
        mg_profile_number(c->prof, "cache_buffer", "line_size", &v, &a);
        return a;
    }
    mg_profile_number(c->prof, "cache_image", "line_width_bytes", &v, &a);
    mg_profile_number(c->prof, "cache_image", "line_height_rows", &v, &b);
    return fmin(a, b);
}

static int ok_sector(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    size_t row;
    if (!c->base || !mg_schema_find(key, &row) || !c->base->set[row]) return 1;
    double b = cal_field_num(c->base, row);
    if (!(v < b)) return 1;
    const cJSON *drv = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(c->prof, "device"), "global_mem_cacheline_size");
    double dl = strcmp(key, "tex_l1.line") && cJSON_IsNumber(drv) ? drv->valuedouble : 0;
    double conf = line_conf(c, key);
    if (dl == v || (conf >= 0.9 && dl == 0)) return 1;     /* unambiguous */
    int k = n > 0 ? snprintf(fig, n, "1/%.0f of the base's %.0f B; confidence %.2f", b / v, b,
                             conf) : 0;
    if (dl > 0 && k > 0 && (size_t)k < n) snprintf(fig + k, n - (size_t)k, ", driver %.0f B", dl);
    return 0;
}

/* ---- latencies and lanes --------------------------------------------------- */

static int ok_latency(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)c;
    int cycles = !strstr(key, "dram");
    if (cycles ? v >= 1 : v > 0) return 1;
    if (cycles) snprintf(fig, n, "%g cycles", v);
    else snprintf(fig, n, "%.4g ns", v * 1e9);
    return 0;
}

static int ok_lanes(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)key;
    double w = cal_value(c, "core.warp_width") *
               (!strcmp(cal_text(c, "core.issue"), "vec4") ? 4 : 1);
    if (!(w > 0) || fmod(v, w) == 0) return 1;
    snprintf(fig, n, "%g lanes, warps of %g", v, w);
    return 0;
}

/* ---- load width ------------------------------------------------------------ */

static int ok_load_width(const cal_ctx *c, const char *key, double v, char *fig, size_t n)
{
    (void)c;
    (void)key;
    if (v >= 2 && v <= 64 && fmod(log2(v), 1) == 0) return 1;
    snprintf(fig, n, "%g bytes", v);
    return 0;
}

/* ---- the table ------------------------------------------------------------- */

#define BW_KEYS "tex_l1.bandwidth buffer_l1.bandwidth local.bandwidth constant.bandwidth " \
                "l2.bandwidth dram.bandwidth"
#define SIZE_KEYS "tex_l1.size buffer_l1.size l2.size"
#define LINE_KEYS "tex_l1.line buffer_l1.line l2.line"

static const cal_rule cal_rules[] = {
    {"bw-ceiling", BW_KEYS, "core.sp_count, clock, warp_width, issue", ok_bw_ceiling, 1,
     "over 2 warp-wide 4-byte accesses per core and clock: no GPU cache is that wide"},
    {"bw-vendor", BW_KEYS, "the base's value where its source is vendor", ok_bw_vendor, 1,
     "a sustained rate above the vendor's published peak"},
    {"l2-below-dram", "l2.bandwidth", "dram.bandwidth", ok_l2_dram, 1,
     "every DRAM byte passes through the L2"},
    {"latency-order", "buffer.latency_cycles l2.latency_cycles dram.latency",
     "the profile's chase latencies, level by level", ok_latency, 1,
     "a level must be slower than the one in front of it (L1 < L2 < DRAM)"},
    {"load-width", "buffer.max_load_bytes", "-", ok_load_width, 1,
     "a load is a power of two of 2 to 64 bytes (a half to a 16-float vector)"},
    {"size-sets", SIZE_KEYS, "the level's line and assoc", ok_sets, 1,
     "a cache holds a positive, whole number of sets (line x assoc)"},
    {"l1-within-l2", SIZE_KEYS, "tex_l1.size, buffer_l1.size, l2.size", ok_l1_within, 1,
     "a per-core L1 larger than the L2 behind it"},
    {"line-divides", LINE_KEYS, "tex_l1.line, buffer_l1.line, l2.line", ok_line_div, 1,
     "an L1 line must divide the L2 line it is filled from"},
    {"line-sector", LINE_KEYS, "the base's line, the line conclusion's confidence, "
     "device.global_mem_cacheline_size", ok_sector, 1,
     "a chase sees a sector, not the line (unambiguous: confidence 0.9 or the driver's "
     "line)"},
    {"bw-width", BW_KEYS, "core.sp_count, clock, warp_width, issue", ok_bw_width, 0,
     "over 1 warp-wide 4-byte access per core and clock (NVIDIA's L1: 128 B/clk per SM)"},
    {"l1-below-l2", "tex_l1.bandwidth buffer_l1.bandwidth", "l2.bandwidth (from the profile)",
     ok_l1_l2, 0, "an L1 slower than the L2 it fronts, both from the bandwidth probe: a pipe "
     "before the cache limits it"},
    {"local-narrow", "local.bandwidth", "buffer_l1.bandwidth (from the profile)", ok_local, 0,
     "on-chip local memory is as wide as the L1 (NVIDIA: one SRAM, 128 B/clk): bank "
     "conflicts in the probe?"},
    {"constant-is-l1", "constant.bandwidth", "buffer_l1.bandwidth (from the profile)",
     ok_const, 0, "the rate of the buffer probe: its loads took the L1 path, not a "
     "constant cache"},
    {"size-vendor", SIZE_KEYS, "the base's value where its source is vendor", ok_size_vendor,
     0, "off the vendor's size: a probe sees part of a partitioned or carved-out cache"},
    {"lanes-warp", "core.alus_per_sp", "core.warp_width, issue", ok_lanes, 0,
     "not a whole number of warps: the fp32 peak ran below the reported clock"},
};
#define N_RULES (sizeof cal_rules / sizeof cal_rules[0])

/* The document's value of key as text. */
static void value_text(const cal_ctx *c, const char *key, char *buf, size_t n)
{
    const cJSON *v = cal_get(c, key);
    if (cJSON_IsString(v)) snprintf(buf, n, "%s", v->valuestring);
    else if (cJSON_IsNumber(v)) snprintf(buf, n, "%g", v->valuedouble);
    else snprintf(buf, n, "?");
}

/* Rule r on key: 1 when it refused the value now, 0 otherwise. */
static int judge(cal_ctx *c, const cal_rule *r, const char *key)
{
    size_t row;
    if (!measured(c, key) || !mg_schema_find(key, &row)) return 0;
    cal_verdict *v = &c->verdict[row];
    char fig[160] = "";
    if (v->verdict == MG_CAL_REFUSED || r->ok(c, key, cal_value(c, key), fig, sizeof fig))
        return 0;
    int refuse = r->refuse || c->o->strict;
    if (!refuse && v->verdict == MG_CAL_FLAGGED) return 0;     /* its first flag stands */
    v->verdict = refuse ? MG_CAL_REFUSED : MG_CAL_FLAGGED;
    snprintf(v->rule, sizeof v->rule, "%s", r->name);
    value_text(c, key, v->judged, sizeof v->judged);
    snprintf(v->why, sizeof v->why, "%s: %s%s", fig, r->why,
             refuse && !r->refuse ? " (--strict)" : "");
    return refuse;
}

int cal_check_all(cal_ctx *c)
{
    for (size_t i = 0; i < MG_MAX_FIELDS; i++)
        if (c->verdict[i].verdict == MG_CAL_FLAGGED) memset(&c->verdict[i], 0, sizeof c->verdict[i]);
    for (size_t r = 0; r < N_RULES; r++) {
        const char *p = cal_rules[r].keys;
        while (*p) {
            char key[64];
            size_t len = strcspn(p, " ");
            snprintf(key, sizeof key, "%.*s", (int)len, p);
            p += len + (p[len] == ' ');
            /* one refusal per pass: what is judged next sees the value kept */
            if (judge(c, &cal_rules[r], key)) return 1;
        }
    }
    return 0;
}

void mg_cal_rules_print(FILE *f, int full)
{
    for (int refuse = 1; !full && refuse >= 0; refuse--) {
        int col = fprintf(f, "  %s:", refuse ? "refused" : "flagged");
        for (size_t r = 0; r < N_RULES; r++) {
            if (cal_rules[r].refuse != refuse) continue;
            if (col + 1 + (int)strlen(cal_rules[r].name) > 78) col = fprintf(f, "\n          ");
            col += fprintf(f, " %s", cal_rules[r].name);
        }
        fprintf(f, "\n");
    }
    for (size_t r = 0; full && r < N_RULES; r++) {
        const cal_rule *u = &cal_rules[r];
        fprintf(f, "%s (%s)\n  judges %s\n  reads %s\n  %s\n", u->name,
                u->refuse ? "refuses" : "flags", u->keys, u->reads, u->why);
    }
}
