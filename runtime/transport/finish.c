/* SPDX-License-Identifier: MIT */
/*
 * finish.c -- MPI_Finalize, bounded (finish.h).
 *
 * Why: MPICH's ch4:ucx before 4.2 ends MPI_Finalize by closing every UCX
 * endpoint, progressing until its closes complete, then entering the
 * process manager's barrier, where it no longer progresses UCX.  Over
 * UCX's TCP transport, flushing an endpoint that sent since the peer last
 * acknowledged asks the peer for an acknowledgement, which only the
 * peer's progress sends (openucx/ucx pull request 7140; issue 8738, "TCP
 * transport hangs during cleanup"): a rank whose closes completed waits
 * in the barrier for a rank whose close waits for it, for ever.  MPICH 4.2
 * moved the barrier before the closes.  With MPICH 4.0.2 and UCX 1.13
 * across two emulated hosts, a plain MPI program (a barrier, then
 * MPI_Finalize) hung in about 1 run of 30; libmupc programs in 1 of 10
 * (2 hosts of 1 rank) to more than half (2 hosts of 2 ranks), even after
 * mupci_engine_finalize's last synchronization (its own messages need
 * acknowledging too).
 *
 * Nothing of the program is at stake by then: every thread passed that
 * synchronization with its traffic complete; only UCX's acknowledgements
 * are missing.  So, while MPI_Finalize runs, libmupc's definition of
 * ucp_request_is_completed (UCX's, which MPICH polls its closes with;
 * ours comes first in the process's symbol lookup, since the program
 * links libmupc before MPI and MPI before UCX) answers "completed" for a
 * close still pending after CLOSE_GRACE_NS: the rank goes on to the
 * barrier, the barrier completes, and every rank finalizes normally (UCX
 * frees the released close requests with their workers).  Outside
 * MPI_Finalize, or for a request that completes, it is UCX's answer.
 *
 * Should MPI_Finalize still not return (another MPI, another hang), a
 * watchdog ends the process after FINISH_GRACE_NS as the finalized path
 * would (leave(status), exit handlers included), having parked the
 * finalizing pthread (a signal whose handler never returns, so it no
 * longer touches MPI's memory while the process exits).
 */
#define _GNU_SOURCE
#include "transport/finish.h"
#include "base/fatal.h"
#include "base/job.h"

#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A close normally completes in microseconds; a rank's closes are one
 * per peer it talked to. */
#define CLOSE_GRACE_NS(threads) (200000000LL + 500000LL * (int64_t)(threads))
/* The watchdog's bound: 10 s and 10 ms per thread, plus twice what
 * MPI_Init took.  MPI_Finalize's closing synchronization goes through the
 * process manager as MPI_Init's exchange did, and both slow down alike
 * when ranks outnumber cores: 1,024 ranks on two cores (make check-scale)
 * took 5-6 minutes to start and over 20 s to finalize. */
#define FINISH_GRACE_NS(threads)                                                          \
    (10000000000LL + 10000000LL * (int64_t)(threads) + 2 * init_took_ns)
#define PARK_SIGNAL (SIGRTMIN + 4)

static pthread_mutex_t grace_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t grace_cond = PTHREAD_COND_INITIALIZER;
static int returned, taken_over; /* under grace_lock */
static pthread_t finalizing_thread;
static atomic_int parked;
static int leaving_status, verbose_level;
static void (*leave_fn)(int status);
static _Atomic int64_t close_deadline_ns; /* 0: not in MPI_Finalize */
static atomic_int closes_given_up;
static int64_t init_took_ns; /* MPI_Init's time; meanwhile minus its start */

static int64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* UCX's ucp_request_is_completed, bounded while MPI_Finalize runs (see
 * above).  Exported with default visibility so that MPICH's call binds
 * here; the real one is the next definition in lookup order. */
__attribute__((visibility("default"))) int ucp_request_is_completed(void *request);
int ucp_request_is_completed(void *request)
{
    static int (*ucx_is_completed)(void *);
    if (!ucx_is_completed)
        ucx_is_completed = (int (*)(void *))dlsym(RTLD_NEXT, "ucp_request_is_completed");
    if (!ucx_is_completed)
        return 1; /* cannot happen: MPI called it, so UCX is loaded */
    if (ucx_is_completed(request))
        return 1;
    int64_t deadline = atomic_load(&close_deadline_ns);
    if (deadline == 0 || now_ns() < deadline)
        return 0;
    atomic_store(&closes_given_up, 1);
    return 1;
}

static void park(int sig)
{
    (void)sig;
    atomic_store(&parked, 1);
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGTERM); /* the launcher may still end us */
    for (;;)
        sigsuspend(&all);
}

static void *last_resort(void *arg)
{
    (void)arg;
    sleep(10); /* exit handlers that hang on what the parked pthread holds */
    _exit(leaving_status);
}

static void take_over(void)
{
    pthread_kill(finalizing_thread, PARK_SIGNAL);
    for (int i = 0; i < 1000 && !atomic_load(&parked); i++)
        usleep(1000);
    if (verbose_level)
        fprintf(stderr, "mupc: thread %d: MPI_Finalize did not return within %lld ms; the "
                        "program had ended; the process ends with status %d\n",
                mupc_mythread, FINISH_GRACE_NS(mupc_threads) / 1000000, leaving_status);
    pthread_t t;
    pthread_create(&t, NULL, last_resort, NULL);
    leave_fn(leaving_status);
}

void mupci_finish_init_started(void) { init_took_ns = -now_ns(); }
void mupci_finish_init_ended(void) { init_took_ns += now_ns(); }

static void *watchdog(void *arg)
{
    (void)arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    int64_t ns = until.tv_nsec + FINISH_GRACE_NS(mupc_threads);
    until.tv_sec += ns / 1000000000LL;
    until.tv_nsec = ns % 1000000000LL;
    MUPCI_PT(pthread_mutex_lock(&grace_lock));
    int rc = 0;
    while (!returned && rc != ETIMEDOUT)
        rc = pthread_cond_timedwait(&grace_cond, &grace_lock, &until);
    taken_over = !returned;
    MUPCI_PT(pthread_mutex_unlock(&grace_lock));
    if (taken_over)
        take_over();
    return NULL;
}

void mupci_finish_mpi(int status, int verbose, void (*leave)(int status))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = park;
    sigfillset(&sa.sa_mask);
    sigaction(PARK_SIGNAL, &sa, NULL);
    leaving_status = status;
    verbose_level = verbose;
    leave_fn = leave;
    finalizing_thread = pthread_self();
    pthread_t dog;
    MUPCI_PT(pthread_create(&dog, NULL, watchdog, NULL));
    int64_t finalize_start = now_ns();
    atomic_store(&close_deadline_ns, finalize_start + CLOSE_GRACE_NS(mupc_threads));
    PMPI_Finalize(); /* the program's own MPI_Finalize is hybrid.c's */
    atomic_store(&close_deadline_ns, 0);
    if (verbose >= 2 && mupc_mythread == 0)
        fprintf(stderr, "mupc: thread 0: exit: MPI_Finalize took %.3f s\n",
                (double)(now_ns() - finalize_start) * 1e-9);
    if (verbose && atomic_load(&closes_given_up))
        fprintf(stderr, "mupc: thread %d: MPI_Finalize: UCX endpoint closes still waiting for "
                        "their peers after %lld ms were left to UCX (its TCP transport at "
                        "cleanup, see libmupc's user guide)\n",
                mupc_mythread, CLOSE_GRACE_NS(mupc_threads) / 1000000);
    MUPCI_PT(pthread_mutex_lock(&grace_lock));
    int late = taken_over;
    returned = 1;
    MUPCI_PT(pthread_cond_signal(&grace_cond));
    MUPCI_PT(pthread_mutex_unlock(&grace_lock));
    if (late) /* the watchdog is ending the process */
        park(0);
    MUPCI_PT(pthread_join(dog, NULL));
}
