/*
 * sweep_file.c - sweep results files: content hashes for the header,
 * the sampling word, and opening a file to append to, resuming what an
 * interrupted sweep left.
 *
 * A results file is an append-only log, not an atomic output: results must
 * survive an interrupt, which a temporary renamed at the end would lose.
 * What can go wrong is a torn last line (killed in the middle of a write);
 * it is cut off on resume.  A file whose header differs from this sweep's
 * is never touched without --restart (it may be another sweep's results, or
 * not a results file at all).
 */
#include "sim/search/sweep.h"

#include "base/hash.h"
#include "base/jsonfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/types.h>
#include <unistd.h>

/* The results header's hashes are 64-bit FNV-1a from this offset basis:
 * the standard one (MG_FNV1A_INIT, 14695981039346656037) without its last
 * digit.  Existing results files carry hashes made with it, so it stays:
 * another basis would make every one of them "another sweep's". */
#define SWEEP_HASH_BASIS 1469598103934665603ull

/* A header hash of n bytes at p. */
static uint64_t sweep_hash(const void *p, size_t n)
{
    return mg_fnv1a_more(SWEEP_HASH_BASIS, p, n);
}

int mg_sweep_hash_file(const char *path, char out[24], mg_diag *d)
{
    size_t len;
    char *text = mg_read_file(path, MG_JSON_MAX_BYTES, &len, d);
    if (!text) return -1;
    snprintf(out, 24, "%016" PRIx64, sweep_hash(text, len));
    free(text);
    return 0;
}

void mg_sweep_hash_device(const mg_device *dev, char out[24])
{
    /* every resolved value, not where it came from: a what-if variant that
     * equals the base config hashes the same */
    cJSON *j = mg_device_to_json(dev);
    cJSON_DeleteItemFromObjectCaseSensitive(j, "sources");
    char *s = cJSON_PrintUnformatted(j);
    snprintf(out, 24, "%016" PRIx64, s ? sweep_hash(s, strlen(s)) : 0);
    cJSON_free(s);
    cJSON_Delete(j);
}

const char *mg_sweep_sample_str(int sample, char *buf, size_t len)
{
    if (sample == MG_SAMPLE_AUTO) snprintf(buf, len, "auto");
    else if (sample == MG_SAMPLE_OFF) snprintf(buf, len, "off");
    else snprintf(buf, len, "%d", sample);
    return buf;
}

void mg_sweep_done_free(mg_sweep_done *done)
{
    free(done->index);
    free(done->hash);
    free(done->fired);
    memset(done, 0, sizeof *done);
}

static int done_add(mg_sweep_done *done, uint64_t index, uint64_t hash, uint32_t fired)
{
    if (done->n == done->cap) {
        uint64_t cap = done->cap ? 2 * done->cap : 1024;
        uint64_t *i = realloc(done->index, cap * sizeof *i);
        if (!i) return -1;
        done->index = i;
        uint64_t *h = realloc(done->hash, cap * sizeof *h);
        if (!h) return -1;
        done->hash = h;
        uint32_t *f = realloc(done->fired, cap * sizeof *f);
        if (!f) return -1;
        done->fired = f;
        done->cap = cap;
    }
    done->index[done->n] = index;
    done->hash[done->n] = hash;
    done->fired[done->n++] = fired;
    return 0;
}

/* Say which header field differs ("config_hash: 1234... in the file,
 * abcd... now"). */
static void header_mismatch(const char *path, const char *have, const char *want, mg_diag *d)
{
    cJSON *h = mg_json_parse(path, have, strlen(have), NULL);    /* no messages */
    cJSON *w = mg_json_parse(path, want, strlen(want), NULL);
    char what[400] = "it is not a sweep results file (no mgsim-sweep/1 header line)";
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(h, "schema");
    if (h && w && cJSON_IsString(schema) && !strcmp(schema->valuestring, MG_SWEEP_SCHEMA)) {
        snprintf(what, sizeof what, "its header differs");
        for (const cJSON *k = w->child; k; k = k->next) {
            const cJSON *o = cJSON_GetObjectItemCaseSensitive(h, k->string);
            if (o && cJSON_Compare(o, k, 1)) continue;
            char *a = o ? cJSON_PrintUnformatted(o) : NULL, *b = cJSON_PrintUnformatted(k);
            int model = !strcmp(k->string, "model");
            snprintf(what, sizeof what, "%s: %s is %s in the file, %s now",
                     model ? "another model revision wrote it (its results would differ)"
                           : "it is another sweep's",
                     k->string, a ? a : "missing", b ? b : "?");
            cJSON_free(a);
            cJSON_free(b);
            break;
        }
        for (const cJSON *k = h->child; k; k = k->next) {    /* a field only the file has */
            if (cJSON_GetObjectItemCaseSensitive(w, k->string)) continue;
            char *a = cJSON_PrintUnformatted(k);
            snprintf(what, sizeof what, "it is another sweep's: %s is %s in the file, missing "
                     "now", k->string, a ? a : "?");
            cJSON_free(a);
            break;
        }
    }
    mg_diag_error(d, "%s: %s; resume needs the same config, space, rules, --sample, "
                  "--pruned-only, --cutoff and --max-work (use --restart to overwrite it, or "
                  "another -o)",
                  path, what);
    cJSON_Delete(h);
    cJSON_Delete(w);
}

/* Empty the locked file f and write the header hdr.  Returns f, or NULL
 * (f closed) with the problem in d. */
static FILE *fresh(FILE *f, const char *path, const char *hdr, mg_diag *d)
{
    if (ftruncate(fileno(f), 0) || fseeko(f, 0, SEEK_SET) || fputs(hdr, f) < 0 || fflush(f)) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        fclose(f);
        return NULL;
    }
    return f;
}

/* Open path for reading and writing, created when missing, never emptied
 * here, with an exclusive lock.  Returns the stream, or NULL with the
 * problem in d (another sweep holds the lock). */
static FILE *open_locked(const char *path, mg_diag *d)
{
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
        mg_diag_error(d, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    if (flock(fd, LOCK_EX | LOCK_NB)) {
        int e = errno;
        if (e == EWOULDBLOCK)
            mg_diag_error(d, "%s: locked by another sweep writing it (wait for it to end, "
                          "or use another -o)", path);
        else
            mg_diag_error(d, "%s: cannot lock: %s", path, strerror(e));
        close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "r+");
    if (!f) {
        mg_diag_error(d, "%s: cannot open: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

/* Open path for a sweep whose header line is hdr: a missing file (or
 * restart), an empty one, or one torn inside our header starts over with
 * hdr; an existing one must begin with hdr, and is then left positioned
 * after it with *resume set (its result lines follow).  line, cap: the
 * getline buffer.  Returns the locked stream, or NULL with the problem in
 * d. */
static FILE *open_with_header(const char *path, const char *hdr, int restart, char **line,
                              size_t *cap, int *resume, mg_diag *d)
{
    *resume = 0;
    FILE *f = open_locked(path, d);
    if (!f) return NULL;
    if (restart) return fresh(f, path, hdr, d);
    ssize_t len = getline(line, cap, f);
    if (len <= 0 || (*line)[len - 1] != '\n') {
        /* empty, or killed while writing the header: start over, unless the
         * text is not the start of our header (someone else's file) */
        if (len > 0 && strncmp(*line, hdr, (size_t)len)) {
            header_mismatch(path, *line, hdr, d);
            fclose(f);
            return NULL;
        }
        return fresh(f, path, hdr, d);
    }
    if (strcmp(*line, hdr)) {
        header_mismatch(path, *line, hdr, d);
        fclose(f);
        return NULL;
    }
    *resume = 1;
    return f;
}

/* Take result r, line lineno of the file: it must come after the results
 * listed in done and be a member of the space; it is listed in done and
 * added to sum.  r is freed.  Returns 0, or -1 with the problem in d. */
static int resume_one(mg_sweep_result *r, uint64_t lineno, const char *path,
                      const mg_sweep_ident *id, mg_sweep_sum *sum, mg_sweep_done *done,
                      mg_diag *d)
{
    if ((done->n && r->index <= done->index[done->n - 1]) || r->index >= id->size) {
        mg_diag_error(d, "%s:%" PRIu64 ": record for candidate %" PRIu64 " out of order "
                      "or past the space's %" PRIu64 " (use --restart)", path, lineno,
                      r->index, id->size);
        mg_sweep_result_free(r);
        return -1;
    }
    if (done_add(done, r->index, mg_fnv1a_str(r->schedule),
                 r->has_rules ? r->fired : MG_SWEEP_NO_RULES)) {
        mg_sweep_result_free(r);
        mg_diag_error(d, "%s: out of memory", path);
        return -1;
    }
    mg_sweep_sum_add(sum, r);
    sum->resumed++;
    mg_sweep_result_free(r);
    return 0;
}

/* Resume: read the result lines of f after its header into sum and done,
 * then cut a torn last line off (f is left at the end, to append).  line,
 * cap: the getline buffer.  Returns 0, or -1 with the problem in d. */
static int resume_results(FILE *f, const char *path, const mg_sweep_ident *id,
                          mg_sweep_sum *sum, mg_sweep_done *done, char **line, size_t *cap,
                          mg_diag *d)
{
    off_t good = ftello(f);
    for (uint64_t lineno = 2;; lineno++) {
        ssize_t len = getline(line, cap, f);
        if (len <= 0) break;
        if ((*line)[len - 1] != '\n') break;              /* torn last line */
        mg_sweep_result r;
        char err[200];
        if (mg_sweep_result_parse(*line, &r, err, sizeof err)) {
            int c = getc(f);
            if (c == EOF) break;                          /* torn, newline included */
            mg_diag_error(d, "%s:%" PRIu64 ": not a sweep record (%s); the file is damaged "
                          "(use --restart to start over)", path, lineno, err);
            return -1;
        }
        if (resume_one(&r, lineno, path, id, sum, done, d)) return -1;
        good = ftello(f);
    }
    if (ftruncate(fileno(f), good) || fseeko(f, good, SEEK_SET)) {
        mg_diag_error(d, "%s: cannot cut the torn last line: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A stream on a copy of stdout (closing it leaves stdout open), the header
 * written; NULL with the problem in d. */
static FILE *open_stdout(const char *hdr, mg_diag *d)
{
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        mg_diag_error(d, "stdout: cannot write: %s", strerror(errno));
        return NULL;
    }
    fputs(hdr, f);
    return f;
}

FILE *mg_sweep_file_open(const char *path, const mg_sweep_ident *id, int restart,
                         mg_sweep_sum *sum, mg_sweep_done *done, mg_diag *d)
{
    char *hdr = mg_sweep_header_line(id);
    if (!hdr) { mg_diag_error(d, "%s: out of memory", path); return NULL; }
    if (!strcmp(path, "-")) {
        FILE *o = open_stdout(hdr, d);
        free(hdr);
        return o;
    }
    char *line = NULL;
    size_t cap = 0;
    int resume;
    FILE *f = open_with_header(path, hdr, restart, &line, &cap, &resume, d);
    if (f && resume && resume_results(f, path, id, sum, done, &line, &cap, d)) {
        fclose(f);
        f = NULL;
    }
    free(line);
    free(hdr);
    return f;
}

int mg_sweep_ident_fill(mg_sweep_ident *id, const mg_device *dev, const char *space_path,
                        const mg_space *sp, const char *rules_path, const mg_rules *r,
                        mg_diag *d)
{
    memset(id, 0, sizeof *id);
    snprintf(id->config, sizeof id->config, "%s", dev->name);
    mg_sweep_hash_device(dev, id->config_hash);
    snprintf(id->space, sizeof id->space, "%s", sp->name);
    if (mg_sweep_hash_file(space_path, id->space_hash, d)) return -1;
    if (r && rules_path) {
        snprintf(id->rules, sizeof id->rules, "%s", r->name);
        if (mg_sweep_hash_file(rules_path, id->rules_hash, d)) return -1;
    }
    return 0;
}
