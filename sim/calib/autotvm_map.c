/*
 * autotvm_map.c - one AutoTVM record onto a generator schedule, per TVM
 * schedule family (python/tvm/topi/mali/ in apache/tvm; autotvm.h).
 *
 * conv2d_nchw_spatial_pack.mali: splits tile_co = [BC, TC, VC], tile_oh =
 * [BH, TH, VH], tile_ow = [BW, TW, VW]: a work item computes VC output
 * channels x VH rows x VW pixels, a work group holds TC x TH x TW items.
 * The generator's conv2d item computes one row of TW pixels x TC channels
 * with NDRange (channel tiles, width tiles, rows), so the schedule is
 * tile=VWxVC wg=TC,TW,TH*VH (VH = 1: matched; VH > 1: approximate), in
 * TVM's loop order, vec_axis=cout: per input channel and tap, one input
 * scalar per pixel times vectors of the VC output channels, VW x VC
 * accumulators; vec= is the widest of 8, 4, 2, 1 dividing VC and the
 * length of the axis ann_spatial marks "vec" (TVM's FMAs are that wide;
 * unmarked: scalar; vc marked, as in almost every record: VC, but 8 for
 * TVM's 16: the generator's vectors stop at 8); the input is TVM's
 * data_vec and the weights its kernel_vec, in TVM's channel-outer loop
 * (pack_in=1).  AutoTVM times the task's whole function: data_vec's
 * packing kernel, the conv and the output's unpacking kernel (kernel_vec
 * is a placeholder while tuning); the model times the conv alone.
 * pack_in=2 would add the packing as a pre-pass of the same launch, but
 * interleaved with other items' convolutions its scattered lines evict
 * the streams they share (load/store cache hit rate 97.7 % -> 72.8 % on a
 * 14x14x832 1x1 record, 3.6x the time), which TVM's separate launch does
 * not do; a sum of separate launches is not built.  depthwise_conv2d_nchw.mali:
 * tile_c, tile_y, tile_x likewise, onto conv2d depthwise=1, whose vectors
 * run along the channels; vec= is the widest of 4, 2, 1 that divides the
 * vectorized axis' length, Cin and VC, so the arithmetic fills a Midgard
 * vec4 unit as TVM's does.  Buffers (TVM's Mali schedules use no images);
 * spatial pack's weights layout_w=packed, each item's weights in its
 * reading order ([Cout/VC][K][K][Cin][VC]: TVM's kernel_vec
 * [CO/VC][CI][KH][KW][VC] with the taps outside the channels, the
 * generator's loop order); unroll=1 (an unroll annotation changes only
 * the OpenCL text in the generator: trace-inert).
 */
#include "sim/calib/autotvm.h"
#include "traces/gen/gen.h"
#include "traces/gen/schedule.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM_MAX 4096

/* ---- reading the parts ------------------------------------------------------ */

/* A non-negative integer JSON number (at most DIM_MAX), or -1. */
static long small_int(const cJSON *j)
{
    if (!cJSON_IsNumber(j)) return -1;
    double v = j->valuedouble;
    return v >= 0 && v <= DIM_MAX && v == floor(v) ? (long)v : -1;
}

/* A list of exactly n small integers into out; -1 if it is not one. */
static int int_list(const cJSON *j, long *out, int n)
{
    if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != n) return -1;
    int i = 0;
    for (const cJSON *e = j->child; e; e = e->next, i++)
        if ((out[i] = small_int(e)) < 0) return -1;
    return 0;
}

/* ["TENSOR", [d0, d1, ...], "dtype"] with `ndim` dimensions. */
static int tensor(const cJSON *j, int ndim, long *shape, const char **dtype, const char *what,
                  mg_diag *d)
{
    const cJSON *tag = cJSON_GetArrayItem(j, 0), *sh = cJSON_GetArrayItem(j, 1),
                *dt = cJSON_GetArrayItem(j, 2);
    if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) != 3 || !cJSON_IsString(tag) ||
        strcmp(tag->valuestring, "TENSOR") || !cJSON_IsString(dt) ||
        int_list(sh, shape, ndim)) {
        mg_diag_error(d, "workload: the %s is not [\"TENSOR\", [%d integers 0..%d], dtype]", what,
                      ndim, DIM_MAX);
        return -1;
    }
    *dtype = dt->valuestring;
    return 0;
}

/* Strides (an integer or 2), padding (an integer, 2 or 4: top, left,
 * bottom, right) and dilation (an integer or 2) of a conv workload. */
typedef struct conv_args {
    long stride[2], pad[4], dil[2];
} conv_args;

static int pair_or_int(const cJSON *j, long *out)
{
    if ((out[0] = small_int(j)) >= 0) {
        out[1] = out[0];
        return 0;
    }
    return int_list(j, out, 2);
}

static int conv_args_of(const cJSON *w, conv_args *a, mg_diag *d)
{
    const cJSON *p = cJSON_GetArrayItem(w, 3);
    long two[2];
    int bad = pair_or_int(cJSON_GetArrayItem(w, 2), a->stride) ||
              pair_or_int(cJSON_GetArrayItem(w, 4), a->dil);
    if (!int_list(p, a->pad, 4)) {
    } else if (!pair_or_int(p, two)) {
        a->pad[0] = a->pad[2] = two[0];
        a->pad[1] = a->pad[3] = two[1];
    } else bad = 1;
    if (bad)
        mg_diag_error(d, "workload: expected [data, kernel, strides, padding, dilation, "
                      "out_dtype] with integer strides, padding (1, 2 or 4) and dilation");
    return bad ? -1 : 0;
}

/* The entity's knob `name`: [name, kind, value]; NULL (with an error)
 * when missing or not of `kind`. */
static const cJSON *knob(const cJSON *entity, const char *name, const char *kind, mg_diag *d)
{
    for (const cJSON *e = cJSON_IsArray(entity) ? entity->child : NULL; e; e = e->next) {
        const cJSON *n = cJSON_GetArrayItem(e, 0), *k = cJSON_GetArrayItem(e, 1);
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 3 || !cJSON_IsString(n) ||
            !cJSON_IsString(k))
            break;
        if (strcmp(n->valuestring, name)) continue;
        if (strcmp(k->valuestring, kind)) break;
        return cJSON_GetArrayItem(e, 2);
    }
    mg_diag_error(d, "config.entity: no [\"%s\", \"%s\", value] knob (or a malformed entry "
                  "before it)", name, kind);
    return NULL;
}

/* A 3-way split knob: three integers >= 1. */
static int split3(const cJSON *entity, const char *name, long *f, mg_diag *d)
{
    const cJSON *v = knob(entity, name, "sp", d);
    if (!v) return -1;
    if (int_list(v, f, 3) || f[0] < 1 || f[1] < 1 || f[2] < 1) {
        mg_diag_error(d, "config.entity: %s: expected a split of 3 integers 1..%d", name,
                      DIM_MAX);
        return -1;
    }
    return 0;
}

/* ann_spatial over 3 axes: the index of the one marked "vec" (-1: none). */
static int ann_vec(const cJSON *entity, int *axis, mg_diag *d)
{
    const cJSON *v = knob(entity, "ann_spatial", "an", d);
    if (!v) return -1;
    if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 3) {
        mg_diag_error(d, "config.entity: ann_spatial: expected 3 annotations");
        return -1;
    }
    *axis = -1;
    int i = 0;
    for (const cJSON *e = v->child; e; e = e->next, i++) {
        if (!cJSON_IsString(e) || (strcmp(e->valuestring, "none") &&
                                   strcmp(e->valuestring, "unroll") &&
                                   strcmp(e->valuestring, "vec"))) {
            mg_diag_error(d, "config.entity: ann_spatial[%d]: expected \"none\", \"unroll\" "
                          "or \"vec\"", i);
            return -1;
        }
        if (!strcmp(e->valuestring, "vec")) *axis = i;
    }
    return 0;
}

/* ---- the mapping ------------------------------------------------------------- */

/* The widest of `max` (a power of 2), max / 2, ..., 1 dividing every
 * non-zero one of a, b, c. */
static long vec_of(long max, long a, long b, long c)
{
    for (long v = max; v > 1; v /= 2)
        if (a % v == 0 && b % v == 0 && c % v == 0) return v;
    return 1;
}

__attribute__((format(printf, 2, 3))) static void none(mg_atvm_map *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    m->fidelity = MG_ATVM_NONE;
    vsnprintf(m->reason, sizeof m->reason, fmt, ap);
    va_end(ap);
}

/* The precision words of a workload whose tensors are `a` and `b`; NULL
 * (reason set) when the generator has no such precision. */
static const char *precision(const char *a, const char *b, mg_atvm_map *m)
{
    if (strcmp(a, b)) {
        m->fidelity = MG_ATVM_NONE;
        snprintf(m->reason, sizeof m->reason, "data %s with kernel %s: mixed precision", a, b);
        return NULL;
    }
    if (!strcmp(a, "float32")) return "storage=fp32 compute=fp32";
    if (!strcmp(a, "float16")) return "storage=fp16 compute=fp16";
    m->fidelity = MG_ATVM_NONE;
    snprintf(m->reason, sizeof m->reason, "dtype %s: the generator computes fp32 or fp16", a);
    return NULL;
}

/* The shape conditions the generator's conv2d needs; 0 when they hold,
 * else -1 with the reason in m. */
static int conv_shape_ok(long n, long kh, long kw, const conv_args *a, mg_atvm_map *m)
{
    if (n != 1) none(m, "batch %ld: the generator's conv2d has batch 1", n);
    else if (kh != kw)
        none(m, "a %ldx%ld kernel: the generator's conv2d takes square KxK kernels", kh, kw);
    else if (a->stride[0] != a->stride[1])
        none(m, "strides %ld,%ld: the generator's conv2d strides both axes alike", a->stride[0],
             a->stride[1]);
    else if (a->pad[0] != a->pad[1] || a->pad[0] != a->pad[2] || a->pad[0] != a->pad[3])
        none(m, "padding %ld,%ld,%ld,%ld: the generator's conv2d pads every side alike",
             a->pad[0], a->pad[1], a->pad[2], a->pad[3]);
    else if (a->dil[0] != 1 || a->dil[1] != 1)
        none(m, "dilation %ld,%ld: the generator's conv2d is not dilated", a->dil[0], a->dil[1]);
    else return 0;
    return -1;
}

/* Check the words with the generator (parsed and planned) and keep their
 * canonical text. */
static void finish(const char *words, long vh, mg_atvm_map *m)
{
    mg_schedule s;
    mg_diag pd;
    mg_diag_init(&pd);
    mg_gen *g = calloc(1, sizeof *g);
    if (!g) mg_diag_error(&pd, "out of memory");
    if (!g || mg_schedule_parse_line(words, NULL, &s, &pd) || mg_gen_prepare(g, &s, &pd)) {
        m->fidelity = MG_ATVM_NONE;
        snprintf(m->reason, sizeof m->reason, "the generator rejects \"%s\": %s", words,
                 mg_diag_first(&pd));
    } else {
        mg_schedule_format(&s, m->schedule, sizeof m->schedule);
        m->fidelity = vh > 1 ? MG_ATVM_APPROX : MG_ATVM_MATCHED;
        if (vh > 1)
            snprintf(m->reason, sizeof m->reason, "VH=%ld rows per TVM item: %ld items of one "
                     "row each (work group z x%ld)", vh, vh, vh);
    }
    if (g) mg_gen_free(g);
    free(g);
    mg_diag_free(&pd);
}

static int map_spatial_pack(const cJSON *w, const cJSON *entity, mg_atvm_map *m, mg_diag *d)
{
    long x[4], k[4], co[3], oh[3], ow[3];
    const char *dx, *dk;
    conv_args a;
    int axis;
    if (tensor(cJSON_GetArrayItem(w, 0), 4, x, &dx, "data", d) ||
        tensor(cJSON_GetArrayItem(w, 1), 4, k, &dk, "kernel", d) || conv_args_of(w, &a, d) ||
        split3(entity, "tile_co", co, d) || split3(entity, "tile_oh", oh, d) ||
        split3(entity, "tile_ow", ow, d) || ann_vec(entity, &axis, d))
        return -1;
    const char *prec = precision(dx, dk, m);
    if (!prec || conv_shape_ok(x[0], k[2], k[3], &a, m)) return 0;
    if (k[1] != x[1]) {
        none(m, "grouped convolution (kernel Cin %ld, data C %ld)", k[1], x[1]);
        return 0;
    }
    const long len[3] = {oh[2], ow[2], co[2]};         /* ann_spatial: [vh, vw, vc] */
    long vec = vec_of(8, axis < 0 ? 1 : len[axis], co[2], 8);
    char words[512];
    snprintf(words, sizeof words, "conv2d H=%ld W=%ld Cin=%ld Cout=%ld K=%ld stride=%ld pad=%ld "
             "layout=buffer layout_w=packed vec_axis=cout pack_in=1 tile=%ldx%ld wg=%ld,%ld,%ld "
             "vec=%ld %s "
             "warp=1", x[2], x[3], x[1],
             k[0], k[2], a.stride[0], a.pad[0], ow[2], co[2], co[1], ow[1], oh[1] * oh[2], vec,
             prec);
    finish(words, oh[2], m);
    return 0;
}

static int map_depthwise(const cJSON *w, const cJSON *entity, mg_atvm_map *m, mg_diag *d)
{
    long x[4], k[4], c[3], y[3], xs[3];
    const char *dx, *dk;
    conv_args a;
    int axis;
    if (tensor(cJSON_GetArrayItem(w, 0), 4, x, &dx, "data", d) ||
        tensor(cJSON_GetArrayItem(w, 1), 4, k, &dk, "kernel", d) || conv_args_of(w, &a, d) ||
        split3(entity, "tile_c", c, d) || split3(entity, "tile_y", y, d) ||
        split3(entity, "tile_x", xs, d) || ann_vec(entity, &axis, d))
        return -1;
    const char *prec = precision(dx, dk, m);
    if (!prec || conv_shape_ok(x[0], k[2], k[3], &a, m)) return 0;
    if (k[0] != x[1] || k[1] != 1) {
        none(m, "channel multiplier %ld (kernel %ld channels, data %ld): the generator's "
             "depthwise conv has multiplier 1", k[1], k[0], x[1]);
        return 0;
    }
    const long len[3] = {c[2], y[2], xs[2]};           /* ann_spatial: [ci, yi, xi] */
    long vec = vec_of(4, axis < 0 ? 1 : len[axis], x[1], c[2]);
    char words[512];
    snprintf(words, sizeof words, "conv2d H=%ld W=%ld Cin=%ld Cout=%ld K=%ld stride=%ld pad=%ld "
             "depthwise=1 layout=buffer tile=%ldx%ld wg=%ld,%ld,%ld vec=%ld %s warp=1", x[2],
             x[3], x[1], x[1], k[2], a.stride[0], a.pad[0], xs[2], c[2], c[1], xs[1],
             y[1] * y[2], vec, prec);
    finish(words, y[2], m);
    return 0;
}

int mg_autotvm_map(const char *task, const cJSON *workload, const cJSON *entity,
                   mg_atvm_map *m, mg_diag *d)
{
    memset(m, 0, sizeof *m);
    m->fidelity = MG_ATVM_NONE;
    const char *dot = strchr(task, '.');
    size_t base = dot ? (size_t)(dot - task) : strlen(task);
    if (!cJSON_IsArray(workload)) {
        mg_diag_error(d, "input[2]: expected the workload array, got %s",
                      workload ? "another type" : "nothing");
        return -1;
    }
    if (base == 24 && !strncmp(task, "conv2d_nchw_spatial_pack", base)) {
        snprintf(m->family, sizeof m->family, "spatial_pack");
        return map_spatial_pack(workload, entity, m, d);
    }
    if (base == 21 && !strncmp(task, "depthwise_conv2d_nchw", base)) {
        snprintf(m->family, sizeof m->family, "depthwise");
        return map_depthwise(workload, entity, m, d);
    }
    if (base == 20 && !strncmp(task, "conv2d_nchw_winograd", base)) {
        snprintf(m->family, sizeof m->family, "winograd");
        snprintf(m->reason, sizeof m->reason, "Winograd conv2d: the generator has no Winograd "
                 "transform kernels (input, kernel and output transforms around a batched "
                 "matrix product)");
    } else if (base == 5 && !strncmp(task, "dense", base)) {
        snprintf(m->family, sizeof m->family, "dense");
        snprintf(m->reason, sizeof m->reason, "dense: not mapped (the cross-check covers conv2d "
                 "and depthwise; a mapping onto the generator's matmul is not written)");
    } else {
        snprintf(m->family, sizeof m->family, "?");
        snprintf(m->reason, sizeof m->reason, "task %.*s: no generator family for it",
                 (int)(base > 64 ? 64 : base), task);
    }
    return 0;
}
