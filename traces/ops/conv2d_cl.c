/*
 * conv2d_cl.c - the conv2d kernel's OpenCL C text (conv2d.h; the kernel is
 * described in conv2d.c).  Every access goes through the clemit helpers, so
 * the instrumented build logs exactly what conv2d_trace.c emits.
 */
#include "traces/gen/clemit.h"
#include "traces/ops/conv2d.h"
#include "traces/ops/ewise.h"

#include <stdio.h>

/* The item's ids.  split = 1: one item per output tile, out-of-range items
 * return at once.  split > 1: the split index s and the row come from the
 * local id z; nobody returns before the barrier, so `ok` guards the work. */
static void emit_ids(const mg_conv_geom *g, mg_sb *o)
{
    if (g->flat) {
        long long X = (long long)g->box[0], Y = (long long)g->box[1], Z = (long long)g->box[2];
        long long G0 = (long long)g->ngrp[0], G1 = (long long)g->ngrp[1];
        mg_sb_printf(o, "    const int f = get_global_id(0);\n"
                        "    if (f >= %lld) return;\n"
                        "    const int b = f / %lld, l = f %% %lld;\n"
                        "    const int gz = (b %% %lld) * %lld + l %% %lld, "
                        "gx = (b / %lld %% %lld) * %lld + l / %lld %% %lld, "
                        "ho = b / %lld * %lld + l / %lld;\n"
                        "    if (gx >= %lld || ho >= %lld || gz >= %lld) return;\n",
                     (long long)g->items, X * Y * Z, X * Y * Z, G0, X, X, G0, G1, Y, X, Y,
                     G0 * G1, Z, X * Y, (long long)g->nx, (long long)g->Ho, (long long)g->nz);
    } else if (g->S == 1) {
        mg_sb_printf(o, "    const int gz = get_global_id(0), gx = get_global_id(1), "
                        "ho = get_global_id(2);\n"
                        "    if (gx >= %lld || ho >= %lld || gz >= %lld) return;\n",
                     (long long)g->nx, (long long)g->Ho, (long long)g->nz);
    } else {
        long long R = (long long)g->R;
        mg_sb_printf(o, "    const int gz = get_global_id(0), gx = get_global_id(1);\n"
                        "    const int s = get_local_id(2) / %lld, r = get_local_id(2) %% %lld, "
                        "ho = get_group_id(2) * %lld + r;\n"
                        "    const int ok = gx < %lld && ho < %lld && gz < %lld;   "
                        "/* no early return: every item meets the barrier */\n",
                     R, R, R, (long long)g->nx, (long long)g->Ho, (long long)g->nz);
    }
}

/* The loop header(s) over the window taps, ending in an open block that
 * defines ky, kx and hi. */
static void emit_taps(const mg_schedule *s, const mg_conv_geom *g, mg_sb *o)
{
    long long K = (long long)s->K;
    const char *outer = s->pattern == MG_PAT_ROW ? "ky" : "kx";
    const char *inner = s->pattern == MG_PAT_ROW ? "kx" : "ky";
    if (g->S > 1) mg_sb_puts(o, "    if (ok)\n");
    if (g->S > 1 && s->depthwise) {        /* this item's taps, in walk order */
        long long TT = (long long)g->TT;
        mg_sb_printf(o, "    for (int t = s * %lld; t < s * %lld + %lld; t++) {\n"
                        "        const int %s = t / %lld, %s = t %% %lld;\n",
                     TT, TT, TT, outer, K, inner, K);
    } else {
        mg_sb_printf(o, "    for (int %s = 0; %s < %lld; %s++)\n    for (int %s = 0; %s < %lld; "
                        "%s++) {\n", outer, outer, K, outer, inner, inner, K, inner);
    }
    mg_sb_printf(o, "        const int hi = ho * %lld - %lld + ky;\n", (long long)s->stride,
                 (long long)s->pad);
}

/* vec_axis=cout: the TC/V weight vectors of input channel ci at the tap
 * (one vload each from the packed [Cout/TC][K][K][Cin][TC]), then each
 * pixel's scalar times each vector. */
static void emit_cout_weights(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                              mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long TW = g->TW, TC = g->TC, V = g->V, K = s->K, NW = g->nw;
    char e[256];
    mg_sb_printf(o, "            for (int c = 0; c < %lld; c++) wv[c] = ", NW);
    if (g->pack_x)      /* kernel_vec [Cout/TC][Cin][K][K][TC] */
        snprintf(e, sizeof e, "((((co0 / %lld) * %lld + ci) * %lld + ky) * %lld + kx) * %lld + "
                 "c * %lld", TC, (long long)s->Cin, K, K, TC, V);
    else
        snprintf(e, sizeof e, "((((co0 / %lld) * %lld + ky) * %lld + kx) * %lld + ci) * %lld + "
                 "c * %lld", TC, K, K, (long long)s->Cin, TC, V);
    mg_cl_ld(o, k, MG_CONV_TW, MG_CONV_SITE_W, e, (int)V, fp16);
    mg_sb_puts(o, ";\n");
    mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                    "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                    "xv[j] * wv[c];\n", TW, (long long)g->Wo, NW, NW);
}

/* One channel step's input loads: XV channels (a vector, or with
 * vec_axis=cout a scalar) of each of the TW pixels, 0 outside the input. */
static void emit_inputs(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                        mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    const char *cc = s->depthwise ? "(co0 + ci)" : "ci";   /* channel of X */
    char e1[256];
    if (g->pack_x) {    /* data_vec holds the padding: no bounds but the tile's */
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++)\n"
                        "                xv[j] = wo0 + j < %lld ? ",
                     (long long)g->TW, (long long)g->Wo);
        snprintf(e1, sizeof e1, "((ho * %lld + gx) * %lld + ci) * %lld + ky * %lld + j * %lld + kx",
                 (long long)g->nx, (long long)s->Cin, (long long)(g->PH * g->PW),
                 (long long)g->PW, (long long)s->stride);
        mg_cl_ld(o, k, MG_CONV_TX, MG_CONV_SITE_X, e1, 1, fp16);
        mg_sb_printf(o, " : (%s)0;\n", mg_cl_vtype(fp16, 1));
        return;
    }
    mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) {\n"
                    "                const int wi = (wo0 + j) * %lld - %lld + kx;\n"
                    "                xv[j] = (wo0 + j < %lld && hi >= 0 && hi < %lld && wi >= 0 "
                    "&& wi < %lld) ? ",
                 (long long)g->TW, (long long)s->stride, (long long)s->pad, (long long)g->Wo,
                 (long long)s->H, (long long)s->W);
    if (g->img_x) {
        snprintf(e1, sizeof e1, "wi * %lld + %s / 4", (long long)g->cin4, cc);
        mg_cl_rd(o, k, MG_CONV_TX, MG_CONV_SITE_X, e1, "hi", fp16);
    } else {
        snprintf(e1, sizeof e1, "(hi * %lld + wi) * %lld + %s", (long long)s->W,
                 (long long)s->Cin, cc);
        mg_cl_ld(o, k, MG_CONV_TX, MG_CONV_SITE_X, e1, (int)g->XV, fp16);
    }
    mg_sb_printf(o, " : (%s)0;\n            }\n", mg_cl_vtype(fp16, (int)g->XV));
}

/* pack_in=2: the item's share of TVM's packing kernel (data_vec), before
 * its convolution: channels gz, gz + nz, ... of its tile's padded window,
 * read from the NCHW input XS (0 in the padding, nothing read there) and
 * written to P in data_vec's order. */
static void emit_prepass(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                         mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long PH = (long long)g->PH, PW = (long long)g->PW, C = (long long)s->Cin;
    long long H = (long long)s->H, W = (long long)s->W, st = (long long)s->stride;
    long long pad = (long long)s->pad;
    mg_sb_printf(o, "    for (int ci = gz; ci < %lld; ci += %lld)\n"
                    "    for (int r = 0; r < %lld; r++)\n"
                    "    for (int c = 0; c < %lld; c++) {\n"
                    "        const int hp = ho * %lld - %lld + r, wp = gx * %lld - %lld + c;\n"
                    "        const %s pv = (hp >= 0 && hp < %lld && wp >= 0 && wp < %lld) ? ",
                 C, (long long)g->nz, PH, PW, st, pad, (long long)g->TW * st, pad,
                 mg_cl_vtype(fp16, 1), H, W);
    char e[256];
    snprintf(e, sizeof e, "(ci * %lld + hp) * %lld + wp", H, W);
    mg_cl_ld(o, k, g->tsrc, MG_CONV_SITE_PLD, e, 1, fp16);
    mg_sb_printf(o, " : (%s)0;\n        ", mg_cl_vtype(fp16, 1));
    snprintf(e, sizeof e, "((ho * %lld + gx) * %lld + ci) * %lld + r * %lld + c",
             (long long)g->nx, C, PH * PW, PW);
    mg_cl_st(o, k, g->tpk, MG_CONV_SITE_PST, e, 1, "pv", fp16);
    mg_sb_puts(o, "\n    }\n");
}

/* pack_in: TVM's loop order, the input channels outside the taps
 * ([kc, kh, kw]): the channel loop (with unroll's pragma), then the taps'
 * block, which defines ky, kx and hi (unused: data_vec holds the padding),
 * then one step's loads and FMAs; the caller closes both blocks. */
static void emit_pack_loops(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                            mg_sb *o)
{
    long long K = (long long)s->K, CS = (long long)g->CS;
    const char *outer = s->pattern == MG_PAT_ROW ? "ky" : "kx";
    const char *inner = s->pattern == MG_PAT_ROW ? "kx" : "ky";
    if (g->S > 1) mg_sb_puts(o, "    if (ok)\n");
    if (s->unroll >= CS && CS > 1) mg_sb_puts(o, "    #pragma unroll\n");
    else if (s->unroll > 1 && CS > 1)
        mg_sb_printf(o, "    #pragma unroll %lld\n", (long long)s->unroll);
    if (g->S > 1)
        mg_sb_printf(o, "    for (int ci = s * %lld; ci < s * %lld + %lld; ci++) {\n", CS, CS, CS);
    else
        mg_sb_printf(o, "    for (int ci = 0; ci < %lld; ci++) {\n", CS);
    mg_sb_printf(o, "        for (int %s = 0; %s < %lld; %s++)\n        for (int %s = 0; %s < %lld; "
                    "%s++) {\n", outer, outer, K, outer, inner, inner, K, inner);
    mg_sb_printf(o, "            const int hi = ho * %lld - %lld + ky;\n", (long long)s->stride,
                 (long long)s->pad);
    emit_inputs(s, k, g, o);
    emit_cout_weights(s, k, g, o);
}

/* The channel loop of one tap: loads, then the FMAs. */
static void emit_channels(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                          mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long TW = g->TW, TC = g->TC, V = g->V, K = s->K, XV = g->XV;
    /* unroll=U: `#pragma unroll U` on a loop of more than U trips; a loop
     * of U trips or fewer is unrolled whole, one of a single trip gets no
     * pragma.  (NVIDIA's compiler, told `unroll 2` on a depthwise
     * channel loop of one trip, kept the loop and indexed the
     * accumulators at run time: into local memory, 4x slower;
     * configs/measured/README.md, "Private arrays in local memory".) */
    int64_t trips = (g->S > 1 && !s->depthwise ? g->CS : g->clen) / XV;
    if (s->unroll >= trips && trips > 1) mg_sb_puts(o, "        #pragma unroll\n");
    else if (s->unroll > 1 && trips > 1)
        mg_sb_printf(o, "        #pragma unroll %lld\n", (long long)s->unroll);
    if (g->S > 1 && !s->depthwise)
        mg_sb_printf(o, "        for (int ci = s * %lld; ci < s * %lld + %lld; ci += %lld) {\n",
                     (long long)g->CS, (long long)g->CS, (long long)g->CS, XV);
    else
        mg_sb_printf(o, "        for (int ci = 0; ci < %lld; ci += %lld) {\n",
                     (long long)g->clen, XV);
    emit_inputs(s, k, g, o);
    char e1[256], e2[256];
    if (g->cout) {
        emit_cout_weights(s, k, g, o);
        return;
    }
    /* weights */
    if (s->depthwise) {
        mg_sb_puts(o, "            wv[0] = ");
        if (g->img_w) {
            snprintf(e1, sizeof e1, "kx * %lld + (co0 + ci) / 4", (long long)g->cin4);
            mg_cl_rd(o, k, MG_CONV_TW, MG_CONV_SITE_W, e1, "ky", fp16);
        } else {
            snprintf(e1, sizeof e1, "(ky * %lld + kx) * %lld + co0 + ci", K, (long long)s->Cin);
            mg_cl_ld(o, k, MG_CONV_TW, MG_CONV_SITE_W, e1, (int)V, fp16);
        }
        mg_sb_puts(o, ";\n");
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++)\n"
                        "                if (wo0 + j < %lld) acc[j * %lld + ci / %lld] += xv[j] * wv[0];\n",
                     TW, (long long)g->Wo, TC / V, V);
        return;
    }
    mg_sb_printf(o, "            for (int c = 0; c < %lld; c++) wv[c] = ", TC);
    if (g->img_w) {
        snprintf(e1, sizeof e1, "kx * %lld + ci / 4", (long long)g->cin4);
        snprintf(e2, sizeof e2, "(co0 + c) * %lld + ky", K);
        mg_cl_rd(o, k, MG_CONV_TW, MG_CONV_SITE_W, e1, e2, fp16);
    } else {
        if (g->pack_w)          /* [Cout/TC][K][K][Cin/V][TC][V]: co0 is a multiple of TC */
            snprintf(e1, sizeof e1, "((((co0 / %lld) * %lld + ky) * %lld + kx) * %lld + ci / "
                     "%lld) * %lld + c * %lld", TC, K, K, (long long)s->Cin / V, V, TC * V, V);
        else
            snprintf(e1, sizeof e1, "(((co0 + c) * %lld + ky) * %lld + kx) * %lld + ci", K, K,
                     (long long)s->Cin);
        mg_cl_ld(o, k, MG_CONV_TW, MG_CONV_SITE_W, e1, (int)V, fp16);
    }
    mg_sb_puts(o, ";\n");
    if (V == 1)
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                        "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                        "xv[j] * wv[c];\n", TW, (long long)g->Wo, TC, TC);
    else if (V == 8)    /* OpenCL's dot() stops at 4 lanes: two halves */
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                        "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                        "dot(xv[j].lo, wv[c].lo) + dot(xv[j].hi, wv[c].hi);\n", TW,
                     (long long)g->Wo, TC, TC);
    else
        mg_sb_printf(o, "            for (int j = 0; j < %lld; j++) if (wo0 + j < %lld)\n"
                        "                for (int c = 0; c < %lld; c++) acc[j * %lld + c] += "
                        "dot(xv[j], wv[c]);\n", TW, (long long)g->Wo, TC, TC);
}

/* split > 1: items s > 0 store their partial tiles, the barrier, item 0
 * adds them (s ascending).  The tile's pixel loop stops at Wo like the
 * output stores. */
static void emit_combine(const mg_schedule *s, const mg_conv_geom *g, mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long TW = g->TW, TC = g->TC, V = g->V, LW = g->LW, T = g->TW * g->TC;
    long long X = (long long)s->wg[0], Y = (long long)s->wg[1];
    long long G = X * Y * (long long)g->R;
    const char *cast = fp16 ? "(half)" : "", *lvt = mg_cl_vtype(0, (int)LW);
    char e[256], v[512];
    mg_sb_printf(o, "    const int lid = (r * %lld + get_local_id(1)) * %lld + get_local_id(0);\n"
                    "    if (ok && s > 0)\n"
                    "        for (int j = 0; j < %lld; j++) {\n"
                    "            if (wo0 + j >= %lld) break;\n"
                    "            for (int c = 0; c < %lld; c += %lld) {\n                ",
                 Y, X, TW, (long long)g->Wo, TC, LW);
    snprintf(e, sizeof e, "((s - 1) * %lld + lid) * %lld + j * %lld + c", G, T, TC);
    if (g->vacc) {                                    /* V-wide accumulators, LW = V */
        if (fp16) snprintf(v, sizeof v, "convert_%s(acc[j * %lld + c / %lld])", lvt, TC / V, V);
        else snprintf(v, sizeof v, "acc[j * %lld + c / %lld]", TC / V, V);
    } else if (LW == 4) {
        snprintf(v, sizeof v, "%s(acc[j * %lld + c], acc[j * %lld + c + 1], acc[j * %lld + c + 2], "
                 "acc[j * %lld + c + 3])%s", fp16 ? "convert_float4((half4)" : "(float4)", TC, TC,
                 TC, TC, fp16 ? ")" : "");
    } else {
        snprintf(v, sizeof v, "%sacc[j * %lld + c]", fp16 ? "(float)" : "", TC);
    }
    mg_cl_stl(o, MG_CONV_SITE_LST, "red", e, (int)LW, v);
    mg_sb_printf(o, "\n            }\n        }\n"
                    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
                    "    if (!ok || s > 0) return;\n"
                    "    for (int p = 1; p < %lld; p++)\n"
                    "    for (int j = 0; j < %lld; j++) {\n"
                    "        if (wo0 + j >= %lld) break;\n"
                    "        for (int c = 0; c < %lld; c += %lld) {\n            ",
                 (long long)g->S, TW, (long long)g->Wo, TC, LW);
    snprintf(e, sizeof e, "((p - 1) * %lld + lid) * %lld + j * %lld + c", G, T, TC);
    if (g->vacc) {
        mg_sb_printf(o, "acc[j * %lld + c / %lld] += ", TC / V, V);
        if (fp16 && V == 1) mg_sb_puts(o, cast);
        else if (fp16) mg_sb_printf(o, "convert_%s(", mg_cl_vtype(1, (int)V));
        mg_cl_ldl(o, MG_CONV_SITE_LLD, "red", e, (int)LW, NULL);
        mg_sb_printf(o, "%s;", fp16 && V > 1 ? ")" : "");
    } else if (LW == 4) {
        mg_sb_printf(o, "const %s q = ", lvt);
        mg_cl_ldl(o, MG_CONV_SITE_LLD, "red", e, 4, NULL);
        mg_sb_printf(o, ";\n            acc[j * %lld + c] += %sq.x; acc[j * %lld + c + 1] += "
                        "%sq.y;\n            acc[j * %lld + c + 2] += %sq.z; "
                        "acc[j * %lld + c + 3] += %sq.w;", TC, cast, TC, cast, TC, cast, TC, cast);
    } else {
        mg_sb_printf(o, "acc[j * %lld + c] += %s", TC, cast);
        mg_cl_ldl(o, MG_CONV_SITE_LLD, "red", e, 1, NULL);
        mg_sb_puts(o, ";");
    }
    mg_sb_puts(o, "\n        }\n    }\n");
}

/* The output stores of the tile's valid pixels. */
static void emit_stores(const mg_schedule *s, const mg_kernel *k, const mg_conv_geom *g,
                        mg_sb *o)
{
    int fp16 = s->compute == MG_PREC_FP16;
    long long TW = g->TW, TC = g->TC, V = g->V;
    int64_t sv = g->SV;
    const char *sty = mg_cl_vtype(fp16, (int)sv);
    mg_sb_printf(o, "    for (int j = 0; j < %lld; j++) {\n"
                    "        if (wo0 + j >= %lld) break;\n"
                    "        for (int c = 0; c < %lld; c += %lld) {\n", TW, (long long)g->Wo, TC,
                 (long long)sv);
    char v[256], e1[256];
    if (g->vacc) {                                    /* V-wide accumulators */
        if (sv == V) snprintf(v, sizeof v, "acc[j * %lld + c / %lld]", TC / V, V);
        else if (sv == 4 && V == 8)
            snprintf(v, sizeof v, "((c %% 8) ? acc[j * %lld + c / 8].hi : acc[j * %lld + c / 8].lo)",
                     TC / 8, TC / 8);
        else if (sv == 4 && V == 2)
            snprintf(v, sizeof v, "(%s)(acc[j * %lld + c / 2], acc[j * %lld + c / 2 + 1])", sty,
                     TC / 2, TC / 2);
        else if (sv == 4 && V == 1)
            snprintf(v, sizeof v, "(%s)(acc[j * %lld + c], acc[j * %lld + c + 1], acc[j * %lld + c + 2], "
                     "acc[j * %lld + c + 3])", sty, TC, TC, TC, TC);
        else if (V == 2)    /* sv == 1: one lane of a float2 */
            snprintf(v, sizeof v, "((c %% 2) ? acc[j * %lld + c / 2].y : acc[j * %lld + c / 2].x)",
                     TC / 2, TC / 2);
        else
            snprintf(v, sizeof v, "acc[j * %lld + c]", TC);               /* sv == V == 1 */
    } else if (sv == 4) {
        snprintf(v, sizeof v, "(%s)(acc[j * %lld + c], acc[j * %lld + c + 1], acc[j * %lld + c + 2], "
                 "acc[j * %lld + c + 3])", sty, TC, TC, TC, TC);
    } else {
        snprintf(v, sizeof v, "acc[j * %lld + c]", TC);
    }
    if (s->bias || s->act) {        /* the epilogue: v becomes e */
        mg_sb_printf(o, "            %s e = %s;\n", sty, v);
        if (s->bias) {
            mg_sb_puts(o, "            e = e + ");
            mg_cl_ld(o, k, MG_CONV_TB, MG_CONV_SITE_BIAS, "co0 + c", (int)sv, fp16);
            mg_sb_puts(o, ";\n");
        }
        mg_gact_cl(o, s->act, "            ", sty, "e");
        snprintf(v, sizeof v, "e");
    }
    mg_sb_puts(o, "            ");
    if (g->img_y) {
        snprintf(e1, sizeof e1, "(wo0 + j) * %lld + (co0 + c) / 4", (long long)g->cout4);
        mg_cl_wr(o, k, MG_CONV_TY, MG_CONV_SITE_Y, e1, "ho", v, fp16);
    } else {
        snprintf(e1, sizeof e1, "(ho * %lld + wo0 + j) * %lld + co0 + c", (long long)g->Wo,
                 (long long)s->Cout);
        mg_cl_st(o, k, MG_CONV_TY, MG_CONV_SITE_Y, e1, (int)sv, v, fp16);
    }
    mg_sb_puts(o, "\n        }\n    }\n}\n");
}

void mg_conv_emit_cl(const mg_schedule *s, const mg_kernel *k, mg_sb *o)
{
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    int fp16 = s->compute == MG_PREC_FP16;
    const char *vt = mg_cl_vtype(fp16, (int)g.V), *st = fp16 ? "half" : "float";
    long long TW = g.TW, TC = g.TC, V = g.V;
    mg_cl_signature(k, o);
    emit_ids(&g, o);
    mg_sb_printf(o, "    const int wo0 = gx * %lld, co0 = gz * %lld;\n", TW, TC);
    if (g.prepass) emit_prepass(s, k, &g, o);
    if (g.vacc)
        mg_sb_printf(o, "    %s acc[%lld];\n    for (int i = 0; i < %lld; i++) acc[i] = (%s)0;\n",
                     vt, TW * TC / V, TW * TC / V, vt);
    else
        mg_sb_printf(o, "    %s acc[%lld];\n    for (int i = 0; i < %lld; i++) acc[i] = 0;\n", st,
                     TW * TC, TW * TC);
    if (g.cout)     /* scalar inputs, vectors of output channels */
        mg_sb_printf(o, "    %s xv[%lld];\n    %s wv[%lld];\n", st, TW, vt, (long long)g.nw);
    else
        mg_sb_printf(o, "    %s xv[%lld], wv[%lld];\n", vt, TW, s->depthwise ? 1LL : TC);
    if (g.pack_x) {
        emit_pack_loops(s, k, &g, o);
    } else {
        emit_taps(s, &g, o);
        emit_channels(s, k, &g, o);
    }
    mg_sb_puts(o, "        }\n    }\n");
    if (g.S > 1) emit_combine(s, &g, o);
    emit_stores(s, k, &g, o);
}
