/* afile.c - see afile.h. */
#include "base/afile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The registry: a slot is FREE, CLAIMED (its path being written), or
 * live as a FILE or a DIR.  The signal handler reads only live slots;
 * the signal fence orders the path's bytes before the state that
 * publishes them. */
enum { SLOT_FREE, SLOT_CLAIMED, SLOT_FILE, SLOT_DIR };
static atomic_int slot_state[MG_AFILE_MAX_TRACKED];
static char slot_path[MG_AFILE_MAX_TRACKED][4160];
static atomic_int handlers_installed;

/* Remove what the registry holds, then die of the signal as if uncaught. */
static void on_fatal_signal(int sig)
{
    mg_afile_remove_tracked();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Install on_fatal_signal for each signal whose action is the default
 * (a command's own handler, or an ignored signal, stays as it is). */
static void install_handlers(void)
{
    if (atomic_exchange(&handlers_installed, 1)) return;
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) || old.sa_handler != SIG_DFL) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

int mg_afile_track(const char *path, int is_dir)
{
    if (strlen(path) >= sizeof slot_path[0]) return -1;
    install_handlers();
    for (int i = 0; i < MG_AFILE_MAX_TRACKED; i++) {
        int want = SLOT_FREE;
        if (!atomic_compare_exchange_strong(&slot_state[i], &want, SLOT_CLAIMED)) continue;
        memcpy(slot_path[i], path, strlen(path) + 1);
        atomic_signal_fence(memory_order_seq_cst);
        atomic_store(&slot_state[i], is_dir ? SLOT_DIR : SLOT_FILE);
        return i;
    }
    return -1;
}

void mg_afile_untrack(int slot)
{
    if (slot >= 0 && slot < MG_AFILE_MAX_TRACKED) atomic_store(&slot_state[slot], SLOT_FREE);
}

void mg_afile_remove_tracked(void)
{
    for (int i = 0; i < MG_AFILE_MAX_TRACKED; i++)
        if (atomic_load(&slot_state[i]) == SLOT_FILE) unlink(slot_path[i]);
    for (int i = MG_AFILE_MAX_TRACKED - 1; i >= 0; i--)
        if (atomic_load(&slot_state[i]) == SLOT_DIR) rmdir(slot_path[i]);
}

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
    a->slot = -1;
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
    a->slot = mg_afile_track(a->tmp, 0);
    a->f = fopen(a->tmp, "wb");
    if (!a->f) {
        mg_afile_untrack(a->slot);
        a->slot = -1;
    }
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
        bad = 1;
    }
    mg_afile_untrack(a->slot);
    a->slot = -1;
    return bad ? -1 : 0;
}

void mg_afile_abort(mg_afile *a)
{
    if (!a->f) return;
    if (a->f != stdout) {
        fclose(a->f);
        if (a->tmp[0]) unlink(a->tmp);
    }
    mg_afile_untrack(a->slot);
    a->slot = -1;
    a->f = NULL;
}
