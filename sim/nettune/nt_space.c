/*
 * nt_space.c - search spaces derived from network layers (nt_space.h).
 *
 * Each deriver writes a space document with the knob families of the
 * shipped space of its generator operator (configs/spaces/: conv1x1-*,
 * dwconv3x3-* and conv3x3s2-* for conv2d, fc-* and matmul-* for matmul,
 * softmax-* and layernorm-* for those) with the layer's sizes in place of
 * the file's: the same layouts and load widths, splits of the output axes
 * into work-group x per-item tiles, the reduction split, the access
 * pattern and the unroll pragma.  Pooling takes the layouts and a 1D
 * work-group size (the generator's pool launch is 1D); so do the
 * elementwise operators add, act and concat, their load widths only those
 * that divide every input's channels.  resize and reshape have no
 * generator operator and stay not simulated.
 */
#include "sim/nettune/nt_space.h"
#include "sim/net/nop.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The layouts x load widths of the shipped spaces: with weights (conv2d,
 * matmul: in, w, out, vec) and without (in, out, vec). */
#define LAYOUT4 "{\"name\":\"layout\",\"keys\":[\"layout_in\",\"layout_w\",\"layout_out\"," \
    "\"vec\"],\"values\":[[\"image\",\"image\",\"image\",4],[\"image\",\"image\",\"buffer\",4]," \
    "[\"image\",\"buffer\",\"image\",4],[\"image\",\"buffer\",\"buffer\",4],[\"buffer\"," \
    "\"image\",\"image\",4],[\"buffer\",\"image\",\"buffer\",4],[\"buffer\",\"buffer\"," \
    "\"image\",1],[\"buffer\",\"buffer\",\"image\",2],[\"buffer\",\"buffer\",\"image\",4]," \
    "[\"buffer\",\"buffer\",\"image\",8],[\"buffer\",\"buffer\",\"buffer\",1],[\"buffer\"," \
    "\"buffer\",\"buffer\",2],[\"buffer\",\"buffer\",\"buffer\",4],[\"buffer\",\"buffer\"," \
    "\"buffer\",8]]}"
#define LAYOUT3 "{\"name\":\"layout\",\"keys\":[\"layout_in\",\"layout_out\",\"vec\"]," \
    "\"values\":[[\"image\",\"image\",4],[\"image\",\"buffer\",4],[\"buffer\",\"image\",4]," \
    "[\"buffer\",\"buffer\",1],[\"buffer\",\"buffer\",2],[\"buffer\",\"buffer\",4]," \
    "[\"buffer\",\"buffer\",8]]}"
#define PATTERN "{\"name\":\"pattern\",\"key\":\"pattern\",\"values\":[\"row\",\"column\"]}"
#define UNROLL  "{\"name\":\"unroll\",\"key\":\"unroll\",\"values\":[1,4]}"
#define HEAD    "{\"schema\":\"mgsim-space/1\",\"name\":\"%s-layer\",\"op\":\"%s\","
#define FP16    "\"fixed\":{\"storage\":\"fp16\",\"compute\":\"fp16\""
#define FP16_32 "\"fixed\":{\"storage\":\"fp16\",\"compute\":\"fp32\""

/* printf into sp->text; 0, or 1 with a reason when it does not fit. */
static int put(mg_nt_space *sp, char *why, size_t wlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(sp->text, sizeof sp->text, fmt, ap);
    va_end(ap);
    if (n > 0 && (size_t)n < sizeof sp->text) return 0;
    snprintf(why, wlen, "its search space does not fit %d bytes", MG_NT_SPACE_MAX);
    return 1;
}

static const int64_t *in_shape(const mg_net *net, const mg_net_layer *l, int i)
{
    return net->tensors[l->in[i]].shape;
}

/* The window keys the generator takes (square, one stride and pad, no
 * dilation, no ceil mode); 0, or 1 with the reason. */
static int square_window(const mg_net_layer *l, char *why, size_t wlen)
{
    const char *bad = l->kernel[0] != l->kernel[1] ? "non-square window"
                    : l->stride[0] != l->stride[1] ? "unequal strides"
                    : l->pad[0] != l->pad[1] ? "unequal padding"
                    : l->dilation[0] != 1 || l->dilation[1] != 1 ? "dilation"
                    : l->ceil ? "ceil-mode output sizes" : NULL;
    if (bad) snprintf(why, wlen, "the generator has no %s (%s)", bad, l->op->name);
    return bad != NULL;
}

/* conv2d, standard or depthwise: the conv spaces' knobs. */
static int sp_conv2d(const mg_net *net, const mg_net_layer *l, int64_t batch,
                     mg_nt_space *sp, char *why, size_t wlen)
{
    if (square_window(l, why, wlen)) return 1;
    const int64_t *x = in_shape(net, l, 0);
    int64_t H = x[0] * batch * x[1], K = l->kernel[0], s = l->stride[0], p = l->pad[0];
    int64_t Ho = (H + 2 * p - K) / s + 1, Wo = l->shape[2];
    if (H > 4096 || x[2] > 4096 || K > 15 || s > 8 || p > 7) {
        snprintf(why, wlen, "outside the generator's conv2d ranges (H, W <= 4096, K <= 15, "
                 "stride <= 8, pad <= 7; H here %" PRId64 ")", H);
        return 1;
    }
    return put(sp, why, wlen, HEAD "\"shape\":{\"H\":%" PRId64 ",\"W\":%" PRId64 ",\"Cin\":%"
               PRId64 ",\"Cout\":%" PRId64 ",\"K\":%" PRId64 ",\"stride\":%" PRId64
               ",\"pad\":%" PRId64 ",\"depthwise\":%d}," FP16 "},\"knobs\":[" LAYOUT4 ","
               "{\"name\":\"tile_c\",\"split\":{\"keys\":[\"wg.0\",\"tile.1\"],\"of\":%" PRId64
               ",\"policy\":\"factors\"}},{\"name\":\"tile_w\",\"split\":{\"keys\":[\"wg.1\","
               "\"tile.0\"],\"of\":%" PRId64 ",\"policy\":\"factors\"}},{\"name\":\"tile_h\","
               "\"key\":\"wg.2\",\"divisors\":%" PRId64 "}%s," UNROLL "],\"constraints\":"
               "[{\"product\":[\"wg.0\",\"wg.1\",\"wg.2\"],\"max\":1024}]}", "conv2d", "conv2d",
               H, x[2], x[3], l->shape[3], K, s, p, l->depthwise, l->shape[3], Wo, Ho,
               K > 1 ? "," PATTERN : "");
}

/* A matrix product M x K x N: fc-*'s knobs when M = 1, matmul-*'s else. */
static int sp_gemm(int64_t M, int64_t N, int64_t K, mg_nt_space *sp, char *why, size_t wlen)
{
    if (M > 65536 || N > 65536 || K > 65536) {
        snprintf(why, wlen, "outside the generator's matmul ranges (<= 65536 rows, columns "
                 "and reduction; M here %" PRId64 ")", M);
        return 1;
    }
    if (M == 1)
        return put(sp, why, wlen, HEAD "\"shape\":{\"M\":1,\"N\":%" PRId64 ",\"K\":%" PRId64
                   "}," FP16 ",\"tile.0\":1,\"wg.1\":1,\"wg.2\":\"=split\"},\"knobs\":["
                   LAYOUT4 ",{\"name\":\"tile_n\",\"split\":{\"keys\":[\"wg.0\",\"tile.1\"],"
                   "\"of\":%" PRId64 ",\"policy\":\"factors\"}},{\"name\":\"reduce\",\"split\":"
                   "{\"keys\":[\"split\",\"unroll\"],\"of\":%" PRId64 ",\"policy\":\"factors\"}},"
                   PATTERN "],\"constraints\":[{\"product\":[\"wg.0\",\"wg.1\",\"split\"],"
                   "\"max\":1024},{\"product\":[\"split\"],\"max\":256}]}", "matmul", "matmul",
                   N, K, N, K);
    return put(sp, why, wlen, HEAD "\"shape\":{\"M\":%" PRId64 ",\"N\":%" PRId64 ",\"K\":%"
               PRId64 "}," FP16 ",\"wg.2\":\"=split\"},\"knobs\":[" LAYOUT4 ",{\"name\":"
               "\"tile_n\",\"split\":{\"keys\":[\"wg.0\",\"tile.1\"],\"of\":%" PRId64
               ",\"policy\":\"factors\"}},{\"name\":\"tile_m\",\"split\":{\"keys\":[\"wg.1\","
               "\"tile.0\"],\"of\":%" PRId64 ",\"policy\":\"factors\"}},{\"name\":\"reduce\","
               "\"split\":{\"keys\":[\"split\",\"unroll\"],\"of\":%" PRId64 ",\"policy\":"
               "\"factors\"}}," PATTERN "],\"constraints\":[{\"product\":[\"wg.0\",\"wg.1\","
               "\"split\"],\"max\":1024},{\"product\":[\"split\"],\"max\":16}]}", "matmul",
               "matmul", M, N, K, N, M, K);
}

/* fc: rows N x batch x H x W, Cin -> Cout. */
static int sp_fc(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                 char *why, size_t wlen)
{
    const int64_t *x = in_shape(net, l, 0);
    return sp_gemm(x[0] * batch * x[1] * x[2], l->shape[3], x[3], sp, why, wlen);
}

/* matmul [N, H, M, K] x [N, H, K, P]: N x batch x H launches of M x K x P. */
static int sp_matmul(const mg_net *net, const mg_net_layer *l, int64_t batch,
                     mg_nt_space *sp, char *why, size_t wlen)
{
    const int64_t *a = in_shape(net, l, 0);
    sp->reps = a[0] * batch * a[1];
    return sp_gemm(a[2], l->shape[3], a[3], sp, why, wlen);
}

/* softmax and layernorm over C: rows N x batch x H x W, the shipped
 * spaces' knobs with the row length fixed. */
static int sp_rows(const mg_net *net, const mg_net_layer *l, int64_t batch, const char *op,
                   mg_nt_space *sp, char *why, size_t wlen)
{
    const int64_t *x = in_shape(net, l, 0);
    int64_t M = x[0] * batch * x[1] * x[2];
    if (M > 65536 || x[3] > 65536) {
        snprintf(why, wlen, "outside the generator's %s ranges (<= 65536 rows and row "
                 "length; rows here %" PRId64 ")", op, M);
        return 1;
    }
    return put(sp, why, wlen, HEAD "\"shape\":{\"M\":%" PRId64 ",\"N\":%" PRId64 "},"
               FP16_32 ",\"tile.1\":1,\"wg.1\":1,\"wg.2\":\"=split\"},\"knobs\":[" LAYOUT3
               ",{\"name\":\"tile_m\",\"split\":{\"keys\":[\"wg.0\",\"tile.0\"],\"of\":%" PRId64
               ",\"policy\":\"factors\"}},{\"name\":\"split\",\"key\":\"split\",\"range\":"
               "{\"from\":1,\"to\":64,\"times\":2}}," PATTERN "," UNROLL "],\"constraints\":"
               "[{\"product\":[\"wg.0\",\"split\"],\"max\":1024}]}", op, op, M, x[3], M);
}

static int sp_softmax(const mg_net *net, const mg_net_layer *l, int64_t batch,
                      mg_nt_space *sp, char *why, size_t wlen)
{
    return sp_rows(net, l, batch, "softmax", sp, why, wlen);
}

static int sp_layernorm(const mg_net *net, const mg_net_layer *l, int64_t batch,
                        mg_nt_space *sp, char *why, size_t wlen)
{
    return sp_rows(net, l, batch, "layernorm", sp, why, wlen);
}

/* A pooling window K x K with stride and pad over N x batch images
 * stacked along H; layouts and a 1D work-group size. */
static int pool_space(const int64_t *x, int64_t batch, int64_t K,
                      int64_t s, int64_t p, const char *mode, mg_nt_space *sp, char *why,
                      size_t wlen)
{
    int64_t H = x[0] * batch * x[1];
    if (H > 4096 || x[2] > 4096 || K > 64 || s > 64 || p > 63) {
        snprintf(why, wlen, "outside the generator's pool ranges (H, W <= 4096, K and stride "
                 "<= 64; H here %" PRId64 ")", H);
        return 1;
    }
    return put(sp, why, wlen, HEAD "\"shape\":{\"H\":%" PRId64 ",\"W\":%" PRId64 ",\"C\":%"
               PRId64 ",\"K\":%" PRId64 ",\"stride\":%" PRId64 ",\"pad\":%" PRId64
               ",\"mode\":\"%s\"}," FP16 ",\"wg.1\":1,\"wg.2\":1},\"knobs\":[" LAYOUT3 ","
               "{\"name\":\"wg\",\"key\":\"wg.0\",\"range\":{\"from\":16,\"to\":1024,"
               "\"times\":2}}]}", "pool", "pool", H, x[2], x[3], K, s, p, mode);
}

static int sp_pool(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                   char *why, size_t wlen)
{
    if (square_window(l, why, wlen)) return 1;
    return pool_space(in_shape(net, l, 0), batch, l->kernel[0], l->stride[0], l->pad[0],
                      mg_net_pool_names[l->kind], sp, why, wlen);
}

/* Global average pooling: a window the size of the (square) image. */
static int sp_gpool(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                    char *why, size_t wlen)
{
    const int64_t *x = in_shape(net, l, 0);
    if (x[1] != x[2]) {
        snprintf(why, wlen, "the generator has no non-square window (gpool over %" PRId64
                 "x%" PRId64 ")", x[1], x[2]);
        return 1;
    }
    return pool_space(x, batch, x[1], x[1], 0, "avg", sp, why, wlen);
}

/* The layout knob of the elementwise operators (LAYOUT3's entries) with
 * only the load widths that divide g, the channels every input shares a
 * factor of (a chunk of vec channels lies in one input): into buf. */
static void ew_layouts(int64_t g, char *buf, size_t len)
{
    static const char *const entries[] = {
        "[\"image\",\"image\",4]", "[\"image\",\"buffer\",4]", "[\"buffer\",\"image\",4]",
        "[\"buffer\",\"buffer\",1]", "[\"buffer\",\"buffer\",2]", "[\"buffer\",\"buffer\",4]",
        "[\"buffer\",\"buffer\",8]"};
    static const int vec[] = {4, 4, 4, 1, 2, 4, 8};
    size_t n = (size_t)snprintf(buf, len, "{\"name\":\"layout\",\"keys\":[\"layout_in\","
                                "\"layout_out\",\"vec\"],\"values\":[");
    const char *sep = "";
    for (size_t i = 0; i < sizeof vec / sizeof vec[0] && n < len; i++)
        if (g % vec[i] == 0) {
            n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, entries[i]);
            sep = ",";
        }
    if (n < len) snprintf(buf + n, len - n, "]}");
}

/* An elementwise kernel (add, act, concat) over [N x batch x H, W, C]:
 * op's keys `keys` (already printed), the filtered layouts and a 1D
 * work-group size, like pooling's. */
static int ew_space(const char *op, const char *keys, int64_t g, mg_nt_space *sp, char *why,
                    size_t wlen)
{
    char lay[512];
    ew_layouts(g, lay, sizeof lay);
    return put(sp, why, wlen, HEAD "\"shape\":{%s}," FP16 ",\"wg.1\":1,\"wg.2\":1},"
               "\"knobs\":[%s,{\"name\":\"wg\",\"key\":\"wg.0\",\"range\":{\"from\":16,"
               "\"to\":1024,\"times\":2}}]}", op, op, keys, lay);
}

/* The height of the stacked images of tensor x, checked against the
 * elementwise operators' ranges (<= 65536 rows, width and channels). */
static int ew_rows(const char *op, const int64_t *x, int64_t batch, int64_t hmax, int64_t *H,
                   char *why, size_t wlen)
{
    *H = x[0] * batch * x[1];
    if (*H <= hmax && x[2] <= hmax && x[3] <= 65536) return 0;
    snprintf(why, wlen, "outside the generator's %s ranges (H, W <= %" PRId64 "; H here %"
             PRId64 ")", op, hmax, *H);
    return 1;
}

/* The generator's activation word for a, or NULL when it has none. */
static const char *gen_act(mg_net_act a)
{
    return a == MG_ACT_NONE ? "none" : a == MG_ACT_RELU ? "relu" : a == MG_ACT_RELU6 ? "relu6"
                                                                     : NULL;
}

/* add: two inputs of one shape, with the layer's activation. */
static int sp_add(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                  char *why, size_t wlen)
{
    const int64_t *x = in_shape(net, l, 0);
    const char *act = gen_act(l->act);
    int64_t H;
    if (l->nin != 2) {
        snprintf(why, wlen, "the generator's add sums 2 inputs (this one has %d)", l->nin);
        return 1;
    }
    if (!act) {
        snprintf(why, wlen, "the generator has no %s activation (add)", mg_net_act_names[l->act]);
        return 1;
    }
    if (ew_rows("add", x, batch, 65536, &H, why, wlen)) return 1;
    char keys[160];
    snprintf(keys, sizeof keys, "\"H\":%" PRId64 ",\"W\":%" PRId64 ",\"C\":%" PRId64
             ",\"act\":\"%s\"", H, x[2], x[3], act);
    return ew_space("add", keys, x[3], sp, why, wlen);
}

/* act: a standalone activation (none is a copy). */
static int sp_act(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                  char *why, size_t wlen)
{
    const int64_t *x = in_shape(net, l, 0);
    const char *act = gen_act(l->act);
    int64_t H;
    if (!act) {
        snprintf(why, wlen, "the generator has no %s activation (act)", mg_net_act_names[l->act]);
        return 1;
    }
    if (ew_rows("act", x, batch, 65536, &H, why, wlen)) return 1;
    char keys[160];
    snprintf(keys, sizeof keys, "\"H\":%" PRId64 ",\"W\":%" PRId64 ",\"C\":%" PRId64
             ",\"act\":\"%s\"", H, x[2], x[3], act);
    return ew_space("act", keys, x[3], sp, why, wlen);
}

static int64_t gcd(int64_t a, int64_t b) { return b ? gcd(b, a % b) : a; }

/* concat along C of 2 to 7 inputs, the channels as the generator's list. */
static int sp_concat(const mg_net *net, const mg_net_layer *l, int64_t batch, mg_nt_space *sp,
                     char *why, size_t wlen)
{
    int64_t H, g = 0;
    if (l->nin < 2 || l->nin > 7) {
        snprintf(why, wlen, "the generator's concat joins 2 to 7 inputs (this one has %d)",
                 l->nin);
        return 1;
    }
    if (ew_rows("concat", in_shape(net, l, 0), batch, 4096, &H, why, wlen)) return 1;
    char keys[256];
    size_t n = (size_t)snprintf(keys, sizeof keys, "\"H\":%" PRId64 ",\"W\":%" PRId64
                                ",\"C\":\"", H, l->shape[2]);
    for (int i = 0; i < l->nin && n < sizeof keys; i++) {
        int64_t c = in_shape(net, l, i)[3];
        g = gcd(g, c);
        n += (size_t)snprintf(keys + n, sizeof keys - n, "%s%" PRId64, i ? "," : "", c);
    }
    if (n < sizeof keys) snprintf(keys + n, sizeof keys - n, "\"");
    return ew_space("concat", keys, g, sp, why, wlen);
}

typedef int (*deriver)(const mg_net *net, const mg_net_layer *l, int64_t batch,
                       mg_nt_space *sp, char *why, size_t wlen);

/* Network operator -> its space: one line per operator the generator runs. */
static const struct {
    const char *op;
    deriver fn;
} derivers[] = {
    {"conv2d", sp_conv2d},
    {"fc", sp_fc},
    {"matmul", sp_matmul},
    {"pool", sp_pool},
    {"gpool", sp_gpool},
    {"softmax", sp_softmax},
    {"layernorm", sp_layernorm},
    {"add", sp_add},
    {"act", sp_act},
    {"concat", sp_concat},
};

int mg_nt_space_derive(const mg_net *net, const mg_net_layer *l, int64_t batch,
                       mg_nt_space *sp, char *why, size_t wlen)
{
    sp->reps = 1;
    sp->text[0] = 0;
    for (size_t i = 0; i < sizeof derivers / sizeof derivers[0]; i++)
        if (!strcmp(derivers[i].op, l->op->name))
            return derivers[i].fn(net, l, batch, sp, why, wlen);
    snprintf(why, wlen, "the generator has no operator for %s", l->op->name);
    return 1;
}
