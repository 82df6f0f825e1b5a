/* afile.c - see afile.h. */
#include "base/afile.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int mg_afile_target(const char *path, char *out, size_t n)
{
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return 1;
    const char *name = path;
    char *real = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        real = realpath(path, NULL);
        if (!real) return 1;                 /* a dangling link: write through it */
        name = real;
    }
    int fits = strlen(name) < n;
    if (fits) snprintf(out, n, "%s", name);
    free(real);
    if (!fits) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

FILE *mg_afile_open(mg_afile *a, const char *path)
{
    memset(a, 0, sizeof *a);
    if (!strcmp(path, "-")) {
        a->f = stdout;
        snprintf(a->path, sizeof a->path, "-");
        return a->f;
    }
    if (strlen(path) >= sizeof a->path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    int direct = mg_afile_target(path, a->path, sizeof a->path);
    if (direct < 0) return NULL;
    if (direct) {
        snprintf(a->path, sizeof a->path, "%s", path);
        a->f = fopen(a->path, "wb");
        return a->f;
    }
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", a->path, (long)getpid());
    a->f = fopen(a->tmp, "wb");
    return a->f;
}

int mg_afile_commit(mg_afile *a)
{
    if (!a->f) return -1;
    if (a->f == stdout) {
        a->f = NULL;
        return fflush(stdout) == 0 ? 0 : -1;
    }
    int bad = ferror(a->f);
    bad |= fclose(a->f) != 0;
    a->f = NULL;
    if (!a->tmp[0]) return bad ? -1 : 0;
    if (bad || rename(a->tmp, a->path) != 0) {
        int e = errno;
        unlink(a->tmp);
        errno = e;
        return -1;
    }
    return 0;
}

void mg_afile_abort(mg_afile *a)
{
    if (!a->f) return;
    if (a->f != stdout) {
        fclose(a->f);
        if (a->tmp[0]) unlink(a->tmp);
    }
    a->f = NULL;
}
