/*
 * vjobs.h - run independent tasks in worker processes, results in order.
 *
 * `mgprobe verify --jobs N` spreads its schedules over N forked workers:
 * PoCL compiles each kernel with LLVM on one core, so a matrix runs about
 * N times faster on N cores.  Workers are forked before any OpenCL call
 * (OpenCL state does not survive fork), each opens its own device in
 * init(); task i goes to worker i % N.  Each result travels to the parent
 * over a pipe as (index, status, text); the parent hands results to
 * report() strictly in task order.
 */
#ifndef MGP_VJOBS_H
#define MGP_VJOBS_H

#include <stddef.h>

typedef struct mgp_vjobs {
    size_t n;                /* tasks */
    int    jobs;             /* worker processes (>= 1) */
    void  *ctx;
    /* In the worker, once before its tasks: 0, or nonzero to give up (the
     * worker with index 0 prints why; others stay quiet). */
    int  (*init)(void *ctx, int worker);
    /* In the worker: run task i; *text is a malloc'd block to print (may be
     * NULL); returns the task's status. */
    int  (*run)(void *ctx, size_t i, char **text);
    /* In the worker, after its tasks. */
    void (*fini)(void *ctx);
    /* In the parent, in task order: status and text (borrowed) of task i. */
    void (*report)(void *ctx, size_t i, int status, const char *text);
    /* In the parent, whenever a result arrives: done of n (may be NULL). */
    void (*progress)(void *ctx, size_t done, size_t next);
} mgp_vjobs;

/* Run every task.  Returns 0 when all were reported; -1 when a worker
 * failed to start (fork, init) or died before finishing its tasks (what
 * was reported so far stands; a message is printed on stderr). */
int mgp_vjobs_run(const mgp_vjobs *v);

#endif
