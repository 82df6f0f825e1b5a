/* vjobs.c - worker processes for independent tasks (see vjobs.h). */
#include "probe/vjobs.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* What precedes each result's text on a pipe. */
typedef struct msg_head {
    uint64_t index;
    int32_t  status;
    uint32_t len;
} msg_head;

/* Write all of buf to fd.  Returns 0, -1 on error. */
static int write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The body of worker k: its tasks, each result down fd.  Never returns. */
static void worker(const mgp_vjobs *v, int k, int fd)
{
    if (v->init(v->ctx, k)) _exit(2);
    int rc = 0;
    for (size_t i = (size_t)k; i < v->n && rc == 0; i += (size_t)v->jobs) {
        char *text = NULL;
        int status = v->run(v->ctx, i, &text);
        size_t len = text ? strlen(text) : 0;
        msg_head h = {(uint64_t)i, (int32_t)status, (uint32_t)len};
        if (len > UINT32_MAX || write_all(fd, &h, sizeof h) || write_all(fd, text, len))
            rc = 1;
        free(text);
    }
    if (v->fini) v->fini(v->ctx);
    close(fd);
    _exit(rc);
}

/* The parent's state: per worker a pipe and its unparsed bytes; per task
 * its result until reported. */
typedef struct parent {
    const mgp_vjobs *v;
    struct pollfd   *pfd;
    char           **buf;
    size_t          *blen;
    char           **text;      /* per task, once arrived */
    int             *status;
    unsigned char   *have;
    size_t           next, done;
} parent;

/* Take every complete message out of worker k's buffer; report results
 * that are next in order. */
static void drain(parent *p, int k)
{
    size_t off = 0;
    while (p->blen[k] - off >= sizeof(msg_head)) {
        msg_head h;
        memcpy(&h, p->buf[k] + off, sizeof h);
        if (p->blen[k] - off - sizeof h < h.len) break;
        if (h.index < p->v->n && !p->have[h.index]) {
            char *t = malloc((size_t)h.len + 1);
            if (t) {
                memcpy(t, p->buf[k] + off + sizeof h, h.len);
                t[h.len] = '\0';
            }
            p->text[h.index] = t;
            p->status[h.index] = h.status;
            p->have[h.index] = 1;
            p->done++;
        }
        off += sizeof h + h.len;
    }
    memmove(p->buf[k], p->buf[k] + off, p->blen[k] - off);
    p->blen[k] -= off;
    while (p->next < p->v->n && p->have[p->next]) {
        p->v->report(p->v->ctx, p->next, p->status[p->next],
                     p->text[p->next] ? p->text[p->next] : "");
        free(p->text[p->next]);
        p->text[p->next] = NULL;
        p->next++;
    }
    if (p->v->progress) p->v->progress(p->v->ctx, p->done, p->next);
}

/* Read what worker k sent; returns 0, or -1 at end of file or error. */
static int read_worker(parent *p, int k)
{
    char chunk[65536];
    ssize_t r = read(p->pfd[k].fd, chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) return 0;
    if (r <= 0) return -1;
    char *nb = realloc(p->buf[k], p->blen[k] + (size_t)r);
    if (!nb) return -1;
    memcpy(nb + p->blen[k], chunk, (size_t)r);
    p->buf[k] = nb;
    p->blen[k] += (size_t)r;
    drain(p, k);
    return 0;
}

/* Fork the workers; fill p->pfd (read ends) and pids.  Returns the number
 * started. */
static int start(parent *p, pid_t *pids)
{
    const mgp_vjobs *v = p->v;
    fflush(NULL);                           /* nothing buffered is printed twice */
    int k = 0;
    for (; k < v->jobs; k++) {
        int fd[2];
        if (pipe(fd)) break;
        pid_t pid = fork();
        if (pid < 0) {
            close(fd[0]);
            close(fd[1]);
            break;
        }
        if (pid == 0) {
            close(fd[0]);
            for (int j = 0; j < k; j++) close(p->pfd[j].fd);
            worker(v, k, fd[1]);
        }
        close(fd[1]);
        pids[k] = pid;
        p->pfd[k].fd = fd[0];
        p->pfd[k].events = POLLIN;
    }
    return k;
}

int mgp_vjobs_run(const mgp_vjobs *v)
{
    parent p;
    memset(&p, 0, sizeof p);
    p.v = v;
    int jobs = v->jobs;
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    p.pfd = calloc((size_t)jobs, sizeof *p.pfd);
    p.buf = calloc((size_t)jobs, sizeof *p.buf);
    p.blen = calloc((size_t)jobs, sizeof *p.blen);
    p.text = calloc(v->n ? v->n : 1, sizeof *p.text);
    p.status = calloc(v->n ? v->n : 1, sizeof *p.status);
    p.have = calloc(v->n ? v->n : 1, 1);
    int rc = 0, started = 0;
    if (!pids || !p.pfd || !p.buf || !p.blen || !p.text || !p.status || !p.have) {
        fprintf(stderr, "mgprobe: out of memory\n");
        rc = -1;
    } else if ((started = start(&p, pids)) < jobs) {
        fprintf(stderr, "mgprobe: cannot start worker %d: %s\n", started, strerror(errno));
        rc = -1;
    }
    for (int open = started; rc == 0 && open > 0;) {
        if (poll(p.pfd, (nfds_t)started, -1) < 0) {
            if (errno == EINTR) continue;
            rc = -1;
            break;
        }
        for (int k = 0; k < started; k++) {
            if (p.pfd[k].fd < 0 || !(p.pfd[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            if (read_worker(&p, k)) {
                close(p.pfd[k].fd);
                p.pfd[k].fd = -1;
                open--;
            }
        }
    }
    for (int k = 0; k < started; k++) {
        if (p.pfd[k].fd >= 0) close(p.pfd[k].fd);
        int st = 0;
        while (waitpid(pids[k], &st, 0) < 0 && errno == EINTR) {}
        if (rc == 0 && p.next < v->n && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
            if (WIFSIGNALED(st))
                fprintf(stderr, "mgprobe: worker %d was killed by signal %d\n", k, WTERMSIG(st));
            rc = -1;
        }
        free(p.buf[k]);
    }
    if (rc == 0 && p.next < v->n) {
        fprintf(stderr, "mgprobe: the workers stopped after %zu of %zu tasks\n", p.next, v->n);
        rc = -1;
    }
    for (size_t i = 0; p.text && i < v->n; i++) free(p.text[i]);
    free(pids);
    free(p.pfd);
    free(p.buf);
    free(p.blen);
    free(p.text);
    free(p.status);
    free(p.have);
    return rc;
}
