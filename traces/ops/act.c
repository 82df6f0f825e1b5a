/*
 * act.c - a standalone activation, Y = act(X), act relu or relu6, NHWC
 * [1, H, W, C] (what a framework runs when the activation is not fused
 * into the layer before it).  The kernel, trace and reference are
 * ewise.c's with one input.
 */
#include "traces/gen/op.h"
#include "traces/ops/ewise.h"

static const mg_key keys[] = {
    MG_KEY_INT("H", H, 1, 1 << 16, "8", "height"),
    MG_KEY_INT("W", W, 1, 1 << 16, "8", "width"),
    MG_KEY_INT("C", C, 1, 1 << 16, "16", "channels"),
    MG_KEY_ENUM("act", act, "relu", mg_gact_names, "the activation (none is a copy)"),
    MG_KEY_END,
};

static int check(const mg_schedule *s, const char *where, mg_diag *d)
{
    size_t before = d->n;
    mg_ew_check(s, "act", where, d);
    return d->n == before ? 0 : -1;
}

static void plan(const mg_schedule *s, mg_kernel *k) { mg_ew_plan(s, k, 1, "act"); }

const mg_op mg_op_act = {
    .name = "act",
    .summary = "activation Y = act(X), act relu or relu6 (NHWC)",
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
