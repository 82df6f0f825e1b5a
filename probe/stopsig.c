/*
 * stopsig.c - SIGINT and SIGTERM taken by a waiter thread (stopsig.h).
 */
#include "probe/stopsig.h"
#include "base/afile.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

static _Atomic(volatile sig_atomic_t *) target;
static pthread_t waiter_thread;
static int waiter_up;

/* The waiter's own signal to end (sent by stop_waiter at exit). */
#define MGP_STOP_QUIT SIGUSR2

static void *waiter(void *arg)
{
    sigset_t *set = arg;
    for (;;) {
        int sig;
        if (sigwait(set, &sig)) continue;
        if (sig == MGP_STOP_QUIT) return NULL;
        volatile sig_atomic_t *f = atomic_load(&target);
        if (f) *f = 1;
        else {
            mg_afile_remove_tracked();
            _exit(128 + sig);
        }
    }
    return NULL;
}

/* atexit: end the waiter and join it, so that no thread is left running
 * with its stack at exit (valgrind reports such a stack as possibly lost). */
static void stop_waiter(void)
{
    if (!waiter_up) return;
    waiter_up = 0;
    if (!pthread_kill(waiter_thread, MGP_STOP_QUIT)) pthread_join(waiter_thread, NULL);
}

int mgp_stop_init(void)
{
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, MGP_STOP_QUIT);
    sigset_t old;
    if (waiter_up || pthread_sigmask(SIG_BLOCK, &set, &old)) return -1;
    if (pthread_create(&waiter_thread, NULL, waiter, &set)) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return -1;
    }
    waiter_up = 1;
    atexit(stop_waiter);
    return 0;
}

void mgp_stop_catch(volatile sig_atomic_t *flag)
{
    atomic_store(&target, flag);
}
