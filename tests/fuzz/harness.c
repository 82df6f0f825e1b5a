/* harness.c - see harness.h. */
#include "tests/fuzz/harness.h"

#include "base/diag.h"
#include "base/jsonfile.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[4096];
static int saved_stderr = -1, devnull = -1;

/* ASan's defaults for the targets (ASAN_OPTIONS still overrides them): a
 * 32 MiB quarantine instead of 256 MiB, and freed memory kept rather than
 * given back to the system every 5 s.  An input allocates kilobytes, so a
 * use after free within one (or the next thousands) is caught as before;
 * what goes is the churn through a quarter-gigabyte of memory that the
 * kernel had to fault in again and again (page faults were a fifth to a
 * third of the slow targets' time; 1.2-1.9x faster). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "quarantine_size_mb=32:allocator_release_to_os_interval_ms=-1";
}

/* Abort with a message: the harness itself failed. */
static void die(const char *what)
{
    fprintf(stderr, "fuzz harness: %s\n", what);
    abort();
}

void mg_fuzz_assert(int cond, const char *msg)
{
    if (!cond) die(msg);
}

char *mg_fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) die("out of memory");
    if (size) memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

cJSON *mg_fuzz_json(const uint8_t *data, size_t size)
{
    char *s = mg_fuzz_text(data, size);
    mg_diag d;
    mg_diag_init(&d);
    cJSON *j = mg_json_parse("fuzz.json", s, size, &d);
    mg_diag_free(&d);
    free(s);
    return j;
}

/* Remove the temporary folder and what is in it (one level of folders:
 * the plot target's data folder). */
static void cleanup(void)
{
    if (!tmpdir[0]) return;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "fuzz harness: cannot remove %s\n", tmpdir);
}

const char *mg_fuzz_dir(void)
{
    if (tmpdir[0]) return tmpdir;
    const char *t = getenv("TMPDIR");
    if (!t || !*t || strlen(t) > sizeof tmpdir - 64) t = "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/mgsim-fuzz.XXXXXX", t);
    if (!mkdtemp(tmpdir)) die("cannot create a temporary folder");
    atexit(cleanup);
    return tmpdir;
}

const char *mg_fuzz_file(const char *name, const char *head, const uint8_t *data,
                         size_t size)
{
    static char path[4200];
    snprintf(path, sizeof path, "%s/%s", mg_fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write the input file");
    if (head) fputs(head, f);
    if (size && fwrite(data, 1, size, f) != size) die("cannot write the input file");
    if (fclose(f)) die("cannot write the input file");
    return path;
}

const mg_device *mg_fuzz_device(const cJSON **doc)
{
    static mg_device dev;
    static cJSON *root;
    static const char path[] = "configs/devices/adreno640.json";
    if (!root) {
        mg_diag d;
        mg_diag_init(&d);
        root = mg_json_load(path, &d);
        if (!root || mg_device_from_json(root, path, 1, &dev, &d))
            die("cannot load configs/devices/adreno640.json (run from the repository root)");
        mg_diag_free(&d);
    }
    if (doc) *doc = root;
    return &dev;
}

void mg_fuzz_quiet(int on)
{
    fflush(stderr);
    if (on) {
        if (saved_stderr < 0) saved_stderr = dup(2);
        if (devnull < 0) devnull = open("/dev/null", O_WRONLY);   /* once, kept */
        if (devnull < 0 || saved_stderr < 0) die("cannot open /dev/null");
        dup2(devnull, 2);
    } else if (saved_stderr >= 0) {
        dup2(saved_stderr, 2);
    }
}
