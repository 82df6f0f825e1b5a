/* plot_render.c - finding gnuplot and the scripts, and running gnuplot on
 * a prepared data folder (see plot.h). */
#include "base/afile.h"
#include "sim/plot/plot.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int is_exec(const char *p)
{
    struct stat s;
    return !stat(p, &s) && S_ISREG(s.st_mode) && !access(p, X_OK);
}

static int is_file(const char *p)
{
    struct stat s;
    return !stat(p, &s) && S_ISREG(s.st_mode);
}

char *mg_plot_find_gnuplot(void)
{
    const char *path = getenv("PATH");
    if (!path || !*path) return NULL;
    size_t n = strlen(path);
    char *p = malloc(n + 1), *buf = malloc(n + 16);
    if (!p || !buf) {
        free(p);
        free(buf);
        return NULL;
    }
    memcpy(p, path, n + 1);
    for (char *s = p, *tok; (tok = strsep(&s, ":")) != NULL;) {
        snprintf(buf, n + 16, "%s/gnuplot", *tok ? tok : ".");
        if (is_exec(buf)) {
            free(p);
            return buf;
        }
    }
    free(p);
    free(buf);
    return NULL;
}

/* a + b + c in a fresh string (NULL when out of memory). */
static char *cat3(const char *a, const char *b, const char *c)
{
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *r = malloc(la + lb + lc + 1);
    if (!r) return NULL;
    memcpy(r, a, la);
    memcpy(r + la, b, lb);
    memcpy(r + la + lb, c, lc + 1);
    return r;
}

char *mg_plot_find_scripts(const char *script)
{
    static const char *const rel[] = {"/../share/mgsim/plots", "/../plots", "/../../../plots"};
    char *cand[4] = {NULL, NULL, NULL, NULL};
    int n = 0;
    const char *env = getenv("MGSIM_PLOTS");
    if (env && *env) cand[n++] = cat3(env, "", "");
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) *slash = 0;     /* BINDIR */
        for (int i = 0; i < 3; i++) cand[n++] = cat3(exe, rel[i], "");
    }
    char *found = NULL;
    for (int i = 0; i < n && !found; i++) {
        if (!cand[i]) continue;
        char *f = cat3(cand[i], "/", script);
        if (f && is_file(f)) {
            found = realpath(cand[i], NULL);
            if (!found) found = cand[i], cand[i] = NULL;
        }
        free(f);
    }
    for (int i = 0; i < n; i++) free(cand[i]);
    return found;
}

const char *mg_plot_term(const char *out)
{
    if (!strcmp(out, "-")) return "png";
    const char *dot = strrchr(out, '.');
    if (!dot || strchr(dot, '/')) return NULL;
    if (!strcasecmp(dot, ".png")) return "png";
    if (!strcasecmp(dot, ".svg")) return "svg";
    return NULL;
}

/* Does the rendered file start with its format's magic? */
static int has_magic(const char *path, const char *term)
{
    unsigned char b[256] = {0};
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    size_t n = fread(b, 1, sizeof b - 1, f);
    fclose(f);
    if (!strcmp(term, "png")) return n >= 8 && !memcmp(b, "\x89PNG\r\n\x1a\n", 8);
    return n > 0 && strstr((const char *)b, "<svg") != NULL;
}

/* Copy the image tmp to stdout and remove it.  0, or -1 with an error in
 * d. */
static int copy_to_stdout(const char *tmp, mg_diag *d)
{
    FILE *in = fopen(tmp, "rb");
    char buf[65536];
    size_t n;
    int bad = !in;
    while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0) bad = fwrite(buf, 1, n, stdout) != n;
    if (in) fclose(in);
    bad |= fflush(stdout) != 0;
    if (bad) {
        mg_diag_error(d, "stdout: cannot write the image: %s", strerror(errno));
        return -1;
    }
    unlink(tmp);
    return 0;
}

/* Put gnuplot's finished image tmp at out as base/afile.h does: renamed
 * onto a regular file or new name (a symbolic link's target, the link
 * kept), copied into anything else (a device, a FIFO), never renamed over
 * it.  0, or -1 with an error in d. */
static int place_image(const char *tmp, const char *out, mg_diag *d)
{
    if (!strcmp(out, "-")) return copy_to_stdout(tmp, d);
    char final[4096];
    int direct = mg_afile_target(out, final, sizeof final);
    if (direct == 0 && rename(tmp, final) == 0) return 0;
    if (direct == 1) {
        FILE *in = fopen(tmp, "rb"), *o = in ? fopen(out, "wb") : NULL;
        char buf[65536];
        size_t n;
        int bad = !in || !o;
        while (!bad && (n = fread(buf, 1, sizeof buf, in)) > 0) bad = fwrite(buf, 1, n, o) != n;
        if (in) fclose(in);
        if (o) bad |= fclose(o) != 0;
        if (!bad) {
            unlink(tmp);
            return 0;
        }
    }
    mg_diag_error(d, "%s: cannot write: %s", out, strerror(errno));
    return -1;
}

int mg_plot_render(const mg_plot_job *job, const char *gnuplot, const char *scripts,
                   const char *script, const char *out, mg_diag *d)
{
    const char *term = mg_plot_term(out);
    if (!term) {
        mg_diag_error(d, "%s: unknown image type (the name must end in .png or .svg)", out);
        return -1;
    }
    size_t olen = strlen(out);
    char *tmp = malloc(olen + 32), *expr = NULL, *sp = NULL;
    size_t elen = 4 * (olen + strlen(job->dir) + strlen(scripts)) + 256;
    expr = malloc(elen);
    sp = malloc(strlen(scripts) + strlen(script) + 2);
    int rc = -1, slot = -1;
    if (!tmp || !expr || !sp) {
        mg_diag_error(d, "out of memory");
        goto done;
    }
    if (!strcmp(out, "-")) {
        free(tmp);
        tmp = malloc(strlen(job->dir) + 32);
        if (!tmp) {
            mg_diag_error(d, "out of memory");
            goto done;
        }
        sprintf(tmp, "%s/stdout.tmp.%ld", job->dir, (long)getpid());
        olen = strlen(tmp);
    } else {
        snprintf(tmp, olen + 32, "%s.tmp.%ld", out, (long)getpid());
    }
    slot = mg_afile_track(tmp, 0);          /* removed on SIGINT/SIGTERM too */
    sprintf(sp, "%s/%s", scripts, script);
    {
        char *qd = malloc(2 * strlen(job->dir) + 3), *qs = malloc(2 * strlen(scripts) + 3),
             *qo = malloc(2 * olen + 80);
        if (qd && qs && qo)
            snprintf(expr, elen, "datadir=%s; plotdir=%s; outfile=%s; termtype='%s'",
                     mg_plot_quote(job->dir, qd, 2 * strlen(job->dir) + 3),
                     mg_plot_quote(scripts, qs, 2 * strlen(scripts) + 3),
                     mg_plot_quote(tmp, qo, 2 * olen + 80), term);
        free(qd);
        free(qs);
        free(qo);
        if (!qd || !qs || !qo) {
            mg_diag_error(d, "out of memory");
            goto done;
        }
    }
    char *argv[] = {(char *)"gnuplot", (char *)"-e", expr, sp, NULL};
    pid_t pid;
    int e = posix_spawn(&pid, gnuplot, NULL, NULL, argv, environ);
    if (e) {
        mg_diag_error(d, "%s: cannot run: %s", gnuplot, strerror(e));
        goto done;
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            mg_diag_error(d, "%s: wait failed: %s", gnuplot, strerror(errno));
            goto done;
        }
    if (!WIFEXITED(st) || WEXITSTATUS(st)) {
        mg_diag_error(d, "%s failed on %s (exit status %d; its messages are above)", gnuplot,
                      sp, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
        goto done;
    }
    if (!has_magic(tmp, term)) {
        mg_diag_error(d, "%s did not write a %s image from %s", gnuplot, term, sp);
        goto done;
    }
    if (place_image(tmp, out, d)) goto done;
    rc = 0;
done:
    if (rc && tmp) unlink(tmp);
    mg_afile_untrack(slot);
    free(tmp);
    free(expr);
    free(sp);
    return rc;
}
