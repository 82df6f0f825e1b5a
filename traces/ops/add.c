/*
 * add.c - elementwise sum of two tensors with an optional activation,
 * Y = act(A + B), NHWC [1, H, W, C] (the residual add of ResNet and
 * MobileNet-V2).  The kernel, trace and reference are ewise.c's.
 */
#include "traces/gen/op.h"
#include "traces/ops/ewise.h"

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 1 << 16, "8", "height"),
    MG_KEY_INT("W", W, 1, 1 << 16, "8", "width"),
    MG_KEY_INT("C", C, 1, 1 << 16, "16", "channels"),
    MG_KEY_ENUM("act", act, "none", mg_gact_names, "activation after the sum"),
    MG_KEY_END,
};

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    mg_ew_check(s, "add", where, d);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k) { mg_ew_plan(s, k, 2, "add"); }

const mg_op mg_op_add = {
    .name = "add",
    .summary = "elementwise sum Y = act(A + B), act none, relu or relu6 (NHWC)",
    .keys = keys,
    .knobs = "layout layout_in layout_out wg vec storage compute warp seed",
    .defaults = mg_ew_defaults,
    .check = check,
    .plan = plan,
    .emit_cl = mg_ew_emit_cl,
    .trace_wg = mg_ew_trace_wg,
    .reference = mg_ew_reference,
    .warp_body = mg_ew_warp_body,
};
