/*
 * output.c - kernel.json and the output directory of `mgsim gen` (gen.h).
 */
#include "traces/gen/gen.h"
#include "traces/gen/op.h"
#include "base/afile.h"
#include "base/jsonout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *dtype_name(int dt)
{
    return dt == MG_DT_F32 ? "fp32" : dt == MG_DT_F16 ? "fp16" : "int32";
}

static cJSON *tensor_json(const mg_tensor *t)
{
    static const char *const layouts[] = {"buffer", "image", "constant"};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", t->name);
    cJSON_AddStringToObject(o, "role", t->role == MG_TENSOR_IN ? "input" : "output");
    cJSON_AddStringToObject(o, "layout", layouts[t->layout]);
    cJSON_AddStringToObject(o, "dtype", dtype_name(t->dtype));
    cJSON *dims = cJSON_AddArrayToObject(o, "dims");
    for (int i = 0; i < 4; i++) cJSON_AddItemToArray(dims, cJSON_CreateNumber((double)t->dims[i]));
    cJSON_AddNumberToObject(o, "trace_object", t->obj);
    if (t->layout == MG_TL_IMAGE) {
        cJSON *im = cJSON_AddObjectToObject(o, "image");
        cJSON_AddNumberToObject(im, "width", (double)mg_tensor_img_width(t));
        cJSON_AddNumberToObject(im, "height", (double)mg_tensor_img_height(t));
        cJSON_AddStringToObject(im, "channel_order", t->channels == 4 ? "CL_RGBA" : "CL_R");
        cJSON_AddStringToObject(im, "channel_type",
                                t->dtype == MG_DT_F32 ? "CL_FLOAT"
                                : t->dtype == MG_DT_F16 ? "CL_HALF_FLOAT" : "CL_SIGNED_INT32");
    }
    cJSON_AddNumberToObject(o, "bytes", (double)mg_tensor_device_bytes(t));
    if (t->perm_block > 0) cJSON_AddNumberToObject(o, "permutation_block", (double)t->perm_block);
    return o;
}

cJSON *mg_gen_kernel_json(const mg_gen *g)
{
    const mg_kernel *k = &g->k;
    cJSON *o = cJSON_CreateObject();
    char sched[1024];
    cJSON_AddStringToObject(o, "schedule", mg_schedule_format(&g->s, sched, sizeof sched));
    cJSON_AddItemToObject(o, "schedule_keys", mg_schedule_to_json(&g->s));
    cJSON_AddStringToObject(o, "kernel", k->name);
    cJSON_AddStringToObject(o, "source", "kernel.cl");
    cJSON_AddNumberToObject(o, "work_dim", k->work_dim);
    cJSON *gl = cJSON_AddArrayToObject(o, "global");
    cJSON *lo = cJSON_AddArrayToObject(o, "local");
    for (int i = 0; i < 3; i++) {
        cJSON_AddItemToArray(gl, cJSON_CreateNumber((double)k->global[i]));
        cJSON_AddItemToArray(lo, cJSON_CreateNumber((double)k->local[i]));
    }
    cJSON_AddNumberToObject(o, "work_groups", (double)mg_gen_num_wgs(g));
    cJSON *args = cJSON_AddArrayToObject(o, "args");
    for (int i = 0; i < k->n_args; i++) {
        const mg_arg *a = &k->args[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "name", a->name);
        static const char *const kinds[] = {"tensor", "int", "float", "local"};
        cJSON_AddStringToObject(x, "kind", kinds[a->kind]);
        if (a->kind == MG_ARG_TENSOR) cJSON_AddNumberToObject(x, "tensor", a->tensor);
        if (a->kind == MG_ARG_INT) cJSON_AddNumberToObject(x, "value", (double)a->ival);
        if (a->kind == MG_ARG_FLOAT) cJSON_AddNumberToObject(x, "value", a->fval);
        if (a->kind == MG_ARG_LOCAL) cJSON_AddNumberToObject(x, "bytes", (double)a->ival);
        cJSON_AddItemToArray(args, x);
    }
    cJSON *ts = cJSON_AddArrayToObject(o, "tensors");
    for (int i = 0; i < k->n_tensors; i++) cJSON_AddItemToArray(ts, tensor_json(&k->t[i]));
    cJSON *f = cJSON_AddObjectToObject(o, "features");
    cJSON_AddNumberToObject(f, "regs_per_item", (double)k->f.regs_per_item);
    cJSON_AddNumberToObject(f, "loop_iters", (double)k->f.loop_iters);
    cJSON_AddNumberToObject(f, "bytes_per_iter", (double)k->f.bytes_per_iter);
    cJSON_AddNumberToObject(f, "bytes_per_item", (double)k->f.bytes_per_item);
    cJSON_AddNumberToObject(f, "flops", k->f.flops);
    cJSON_AddNumberToObject(f, "local_bytes", (double)k->f.local_bytes);
    cJSON_AddNumberToObject(f, "access_width", (double)k->f.access_width);
    cJSON_AddBoolToObject(f, "boundary_checks", k->f.boundary_checks);
    cJSON_AddBoolToObject(o, "needs_fp16", k->needs_fp16);
    cJSON_AddNumberToObject(o, "warp", k->warp);
    cJSON_AddNumberToObject(o, "log_cap", (double)k->log_cap);
    return o;
}

static int write_text(const char *dir, const char *name, const char *text, const cJSON *j,
                      mg_diag *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    mg_afile af;
    FILE *f = mg_afile_open(&af, path);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    if (text) fputs(text, f);
    else mg_json_write(f, j);
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* What one `gen -o` has made so far: removed again (by mg_gen_write_dir on
 * failure, or by base/afile's handler on SIGINT/SIGTERM/SIGHUP) until the
 * set is complete. */
typedef struct made {
    int  slot[4];       /* registry slots: the directory, then the outputs */
    char path[3][4096]; /* the outputs committed so far */
    int  n;             /* outputs committed */
    char dir[4096];     /* the directory, when this run created it */
} made;

/* Record an output committed at dir/name. */
static void made_file(made *m, const char *dir, const char *name)
{
    snprintf(m->path[m->n], sizeof m->path[m->n], "%s/%s", dir, name);
    m->slot[1 + m->n] = mg_afile_track(m->path[m->n], 0);
    m->n++;
}

/* Forget the registry entries; with undo, first remove what was made. */
static void made_end(made *m, int undo)
{
    for (int i = 0; i < m->n; i++) {
        if (undo) unlink(m->path[i]);
        mg_afile_untrack(m->slot[1 + i]);
    }
    if (undo && m->dir[0]) rmdir(m->dir);
    mg_afile_untrack(m->slot[0]);
}

/* Create dir unless it exists (then it must be a directory); a directory
 * created here is recorded in m. */
static int make_dir(made *m, const char *dir, mg_diag *d)
{
    if (mkdir(dir, 0777) == 0) {
        snprintf(m->dir, sizeof m->dir, "%s", dir);
        m->slot[0] = mg_afile_track(dir, 1);
    } else if (errno != EEXIST) {
        mg_diag_error(d, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
        mg_diag_error(d, "%s: not a directory", dir);
        return -1;
    }
    return 0;
}

/* Remove the temporaries an earlier `gen -o` into dir left when it was
 * killed outright (SIGKILL, the OOM killer: no handler runs): NAME.tmp.PID
 * for one of gen's outputs, where no process PID exists any more. */
static void remove_stale(const char *dir)
{
    static const char *const outs[] = {"trace.mgt", "kernel.cl", "kernel.json"};
    DIR *dp = opendir(dir);
    if (!dp) return;
    for (struct dirent *e; (e = readdir(dp));) {
        for (size_t i = 0; i < sizeof outs / sizeof outs[0]; i++) {
            size_t n = strlen(outs[i]);
            if (strncmp(e->d_name, outs[i], n) || strncmp(e->d_name + n, ".tmp.", 5)) continue;
            const char *digits = e->d_name + n + 5;
            char *end;
            long pid = strtol(digits, &end, 10);
            if (end == digits || *end || pid <= 0 || pid == (long)getpid()) continue;
            if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;   /* alive, or not ours */
            char path[4352];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    }
    closedir(dp);
}

/* The trace of g (src, or g's own source when NULL) at dir/trace.mgt;
 * with no_trace, a trace.mgt left there by an earlier run is removed
 * instead (it belongs to another kernel). */
static int write_trace(made *m, const mg_gen *g, const char *dir, int no_trace,
                       mg_trace_source *src, mg_diag *d)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/trace.mgt", dir);
    if (no_trace) {
        if (unlink(path) && errno != ENOENT) {
            mg_diag_error(d, "%s: cannot remove the stale trace: %s", path, strerror(errno));
            return -1;
        }
        return 0;
    }
    mg_gen_stream gs;
    mg_trace_source own;
    if (!src) {
        own = mg_gen_source(&gs, g);
        src = &own;
    }
    if (mg_trace_write_all(path, src, d)) return -1;
    made_file(m, dir, "trace.mgt");
    return 0;
}

int mg_gen_write_dir(const mg_gen *g, const char *dir, int no_trace, mg_trace_source *src,
                     mg_diag *d)
{
    made m = { .slot = { -1, -1, -1, -1 } };
    int rc = make_dir(&m, dir, d);
    if (!rc) remove_stale(dir);
    /* The trace first: it is the slow part, and a failure there leaves no
     * kernel.cl/kernel.json pair pointing at a missing trace. */
    if (!rc) rc = write_trace(&m, g, dir, no_trace, src, d);
    if (!rc) rc = write_text(dir, "kernel.cl", g->source, NULL, d);
    if (!rc) {
        made_file(&m, dir, "kernel.cl");
        cJSON *j = mg_gen_kernel_json(g);
        rc = write_text(dir, "kernel.json", NULL, j, d);
        cJSON_Delete(j);
    }
    made_end(&m, rc != 0);
    return rc;
}
