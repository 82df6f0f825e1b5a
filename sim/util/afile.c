/* afile.c - see afile.h. */
#include "util/afile.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

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
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", path, (long)getpid());
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
        unlink(a->tmp);
    }
    a->f = NULL;
}
