/*
 * find.c - device configs found by name through a search path (find.h).
 */
#define _GNU_SOURCE   /* dladdr: the library's own path */
#include "sim/config/find.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/strsim.h"

#ifndef MGSIM_DATADIR
#define MGSIM_DATADIR "/usr/local/share/mgsim"
#endif

#define FIND_MAX_NAMES 256

/* A path is what contains a '/' or ends in ".json"; anything else is a name. */
static int is_path(const char *arg)
{
    size_t n = strlen(arg);
    return strchr(arg, '/') || (n >= 5 && !strcmp(arg + n - 5, ".json")) || !strcmp(arg, "-");
}

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The i-th entry of $MGSIM_PATH (empty entries skipped) into out; 1 if any. */
static int env_dir(size_t i, char *out, size_t len)
{
    const char *p = getenv("MGSIM_PATH");
    while (p && *p) {
        const char *e = strchr(p, ':');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n > 0 && i-- == 0) {
            snprintf(out, len, "%.*s", (int)n, p);
            return 1;
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

static size_t env_count(void)
{
    char tmp[8];
    size_t n = 0;
    while (env_dir(n, tmp, sizeof tmp)) n++;
    return n;
}

/* DIR/../REL for the folder DIR of the file `path`; 0 if it has none. */
static int beside(const char *path, const char *rel, char *out, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return 0;
    return snprintf(out, len, "%.*s/../%s", (int)(slash - path), path, rel) < (int)len;
}

/* EXE/../REL for the running program (Linux /proc/self/exe); 0 if unknown. */
static int exe_rel(const char *rel, char *out, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return 0;
    exe[n] = 0;
    return beside(exe, rel, out, len);
}

/* LIBDIR/../REL for the shared library this code is in (libmgsim.so,
 * loaded by another program: a Python process); 0 when linked statically. */
static int lib_rel(const char *rel, char *out, size_t len)
{
    Dl_info info;
    if (!dladdr((void *)mg_config_find, &info) || !info.dli_fname) return 0;
    if (!strstr(info.dli_fname, ".so")) return 0;
    return beside(info.dli_fname, rel, out, len);
}

int mg_config_dir(size_t i, char *out, size_t len)
{
    if (i == 0) {
        snprintf(out, len, ".");
        return 1;
    }
    i--;
    size_t ne = env_count();
    if (i < ne) return env_dir(i, out, len);
    i -= ne;
    if (i <= 2) {  /* "." again when the program's or library's path is unknown */
        int found = i == 0   ? exe_rel("share/mgsim/configs", out, len)
                    : i == 1 ? exe_rel("configs", out, len)
                             : lib_rel("share/mgsim/configs", out, len);
        if (!found) snprintf(out, len, ".");
        return 1;
    }
    if (i == 3) {
        snprintf(out, len, "%s/configs", MGSIM_DATADIR);
        return 1;
    }
    return 0;
}

/* The folders of a search-path directory that may hold NAME.json. */
static const char *const subs[] = {"", "/devices", "/configs/devices"};

int mg_config_find(const char *arg, char *out, size_t len)
{
    snprintf(out, len, "%s", arg);
    if (is_path(arg) || is_file(arg)) return 0;
    char dir[4096], cand[4096];
    for (size_t i = 0; mg_config_dir(i, dir, sizeof dir); i++) {
        for (size_t f = 0; f < sizeof subs / sizeof subs[0]; f++) {
            if (snprintf(cand, sizeof cand, "%s%s/%s.json", dir, subs[f], arg) >= (int)sizeof cand)
                continue;
            if (!is_file(cand)) continue;
            if (snprintf(out, len, "%s", cand) >= (int)len) return MG_CONFIG_TOO_LONG;
            return 1;
        }
    }
    return MG_CONFIG_NOT_FOUND;
}

/* Add the NAME of every NAME.json in dir to names (malloc'd copies). */
static void collect_names(const char *dir, char **names, size_t *n)
{
    DIR *dp = opendir(dir);
    if (!dp) return;
    for (struct dirent *e; (e = readdir(dp)) && *n < FIND_MAX_NAMES;) {
        size_t l = strlen(e->d_name);
        if (l <= 5 || strcmp(e->d_name + l - 5, ".json")) continue;
        names[*n] = strndup(e->d_name, l - 5);
        if (names[*n]) (*n)++;
    }
    closedir(dp);
}

const char *mg_config_hint(const char *arg, char *out, size_t len)
{
    out[0] = 0;
    if (is_path(arg)) return out;
    char *names[FIND_MAX_NAMES];
    size_t n = 0;
    char dir[4096], sub[4200];
    for (size_t i = 0; mg_config_dir(i, dir, sizeof dir); i++) {
        for (size_t f = 0; f < sizeof subs / sizeof subs[0]; f++) {
            snprintf(sub, sizeof sub, "%s%s", dir, subs[f]);
            collect_names(sub, names, &n);
        }
    }
    mg_hint h;
    snprintf(out, len, "%s", mg_hint_near(&h, arg, (const char *const *)names, n, "'"));
    for (size_t i = 0; i < n; i++) free(names[i]);
    return out;
}
