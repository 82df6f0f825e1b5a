/*
 * stopsig.h - SIGINT and SIGTERM for mgprobe, safe around OpenCL builds.
 *
 * A Ctrl-C (or `timeout -s INT`) signals the whole process group.  A
 * driver that builds kernels in child processes (PoCL runs the linker)
 * would lose them and abort (exit 134) instead of letting `mgprobe run`
 * save.  So `run` and `time` block both signals before their first
 * OpenCL call, and a waiter thread takes them with sigwait(): the blocked
 * mask is inherited by the driver's threads and by the processes they
 * start, which finish their work and never see the signal.  Only those
 * two commands start the thread: `verify --jobs` forks workers, and a fork
 * of a process with a second thread can deadlock in the child (seen under
 * AddressSanitizer).
 *
 * What a signal does: once mgp_stop_catch(flag) was called, it sets *flag
 * (run and time check it between measurements and save what they have);
 * before that, the process removes the temporaries of base/afile and exits
 * at once with 128 + the signal number, as it would by default.
 */
#ifndef MGP_STOPSIG_H
#define MGP_STOPSIG_H

#include <signal.h>

/* Block SIGINT, SIGTERM (and SIGUSR2, the waiter's own signal to end) and
 * start the waiter thread; at exit the thread is ended and joined.  Call
 * once, before the command's first OpenCL call, in a command that never
 * forks.  Returns 0, -1 when the thread cannot start (then the signals are
 * left as they were). */
int mgp_stop_init(void);

/* From now on a SIGINT or SIGTERM sets *flag instead of ending mgprobe. */
void mgp_stop_catch(volatile sig_atomic_t *flag);

#endif
