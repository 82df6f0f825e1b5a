/*
 * stopsig.c - SIGINT and SIGTERM taken by a waiter thread (stopsig.h).
 */
#include "stopsig.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static _Atomic(volatile sig_atomic_t *) target;

static void *waiter(void *arg)
{
    sigset_t *set = arg;
    for (;;) {
        int sig;
        if (sigwait(set, &sig)) continue;
        volatile sig_atomic_t *f = atomic_load(&target);
        if (f) *f = 1;
        else _exit(128 + sig);
    }
    return NULL;
}

int mgp_stop_init(void)
{
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigset_t old;
    if (pthread_sigmask(SIG_BLOCK, &set, &old)) return -1;
    pthread_t t;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &a, waiter, &set);
    pthread_attr_destroy(&a);
    if (rc) {
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        return -1;
    }
    return 0;
}

void mgp_stop_catch(volatile sig_atomic_t *flag)
{
    atomic_store(&target, flag);
}
