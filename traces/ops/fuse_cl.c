/*
 * fuse_cl.c - the OpenCL C of a fused kernel (fuse.h).
 *
 * Each sub-kernel's own text (its operator's emit_cl on its plan, whose
 * tensors carry the fused kernel's object ids) becomes a plain function
 * NAME_KEY: "__kernel void NAME(" is renamed and every get_global_id(0)
 * in its body becomes (get_global_id(0) - OFF).  Its MG_LOG_BEGIN still
 * reads the fused item's own global id, so an instrumented build logs
 * each item's accesses in its own slot, as the tracer expects.  The kernel
 * then calls, for its global id g, the function whose range holds g:
 *
 *   if (g >= off_a && g < off_a + items_a) pool_a(X_a, Y_a MG_LOG_PASS);
 *   else if (g >= off_b && g < off_b + items_b) eltwise_b(...);
 */
#include "traces/ops/fuse.h"
#include "traces/gen/clemit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char gid0[] = "get_global_id(0)";

/* The work-item functions a sub-kernel's text may not call. */
static const char *const refused[] = {"get_global_id(1)", "get_global_id(2)",
                                      "get_local_id", "get_group_id", "get_global_size",
                                      "get_local_size", "get_num_groups", "barrier(", NULL};

/* sub's own kernel text (caller frees; NULL when out of memory). */
static char *sub_text(const fuse_sub *sub)
{
    mg_sb t;
    mg_sb_init(&t);
    if (sub->s.op->emit_cl) sub->s.op->emit_cl(&sub->s, &sub->k, &t);
    size_t len;
    return mg_sb_take(&t, &len);
}

int fuse_check_cl(const fuse_sub *sub, const char *where, mg_diag *d)
{
    char *s = sub_text(sub);
    if (!s) return 0;
    int rc = 0;
    for (int i = 0; refused[i] && rc == 0; i++)
        if (strstr(s, refused[i])) {
            mg_diag_error(d, "%s: fuse: %c=%s: its kernel calls %s; a sub-kernel may use "
                          "only get_global_id(0)", where, sub->key, sub->s.op->name,
                          refused[i]);
            rc = -1;
        }
    if (strncmp(s, "__kernel void ", 14)) {
        mg_diag_error(d, "%s: fuse: %c=%s: its text does not start with its kernel", where,
                      sub->key, sub->s.op->name);
        rc = -1;
    }
    free(s);
    return rc;
}

/* Append sub's function: its kernel renamed NAME_KEY, a prototype first,
 * its global id shifted by its offset. */
static void emit_sub(const fuse_sub *sub, mg_sb *o)
{
    char *s = sub_text(sub);
    if (!s) return;
    const char *open = strchr(s, '(');
    const char *body = strstr(s, ")\n{");
    if (strncmp(s, "__kernel void ", 14) || !open || !body) {   /* fuse_check_cl refuses it */
        free(s);
        return;
    }
    char off[32];
    snprintf(off, sizeof off, "%lld", (long long)sub->off);
    mg_sb_printf(o, "void %s_%c%.*s);\n", sub->k.name, sub->key, (int)(body - open), open);
    mg_sb_printf(o, "void %s_%c%.*s", sub->k.name, sub->key, (int)(body - open), open);
    for (const char *p = body, *q; *p; p = q + strlen(gid0)) {
        q = strstr(p, gid0);
        if (!q) {
            mg_sb_puts(o, p);
            break;
        }
        mg_sb_printf(o, "%.*s(%s - %s)", (int)(q - p), p, gid0, off);
    }
    mg_sb_puts(o, "\n");
    free(s);
}

/* The call of sub for the items of its range. */
static void emit_call(const fuse_sub *sub, int first, mg_sb *o)
{
    mg_sb_printf(o, "    %sif (g >= %lld && g < %lld) %s_%c(", first ? "" : "else ",
                 (long long)sub->off, (long long)(sub->off + sub->items), sub->k.name,
                 sub->key);
    for (int j = 0; j < sub->k.n_args; j++) {     /* its arguments' fused names */
        char name[20];
        snprintf(name, sizeof name, "%.12s_%c", sub->k.args[j].name, sub->key);
        mg_sb_printf(o, "%s%s", j ? ", " : "", name);
    }
    mg_sb_puts(o, " MG_LOG_PASS);\n");
}

void fuse_emit_cl(const fuse_plan *p, const mg_kernel *k, mg_sb *o)
{
    mg_sb_puts(o, "#ifdef MG_TRACE_LOG\n#define MG_LOG_PASS , mg_log\n#else\n"
                  "#define MG_LOG_PASS\n#endif\n\n");
    for (int i = 0; i < p->n; i++) emit_sub(&p->sub[i], o);
    mg_cl_signature(k, o);
    mg_sb_puts(o, "    const int g = get_global_id(0);\n");
    for (int i = 0; i < p->n; i++) emit_call(&p->sub[i], i == 0, o);
    mg_sb_puts(o, "}\n");
}
