/* SPDX-License-Identifier: MIT */
/*
 * finish.c -- MPI_Finalize, bounded (finish.h).
 *
 * Why: MPICH's ch4:ucx before 4.2 ends MPI_Finalize by closing every UCX
 * endpoint, progressing until its closes complete, then entering the
 * process manager's barrier, where it no longer progresses UCX.  Over
 * UCX's TCP transport a close can need the peer's progress (openucx/ucx
 * issue 8738, "TCP transport hangs during cleanup"): a rank whose closes
 * completed waits in the barrier for a rank whose close waits for it,
 * for ever.  MPICH 4.2 moved the barrier before the closes.  With MPICH
 * 4.0.2 and UCX 1.13 across two emulated hosts, a plain MPI program (a
 * barrier, then MPI_Finalize) hung in about 1 run of 30, libmupc programs
 * in about 1 of 10 even after the last synchronization of
 * mupci_engine_finalize.
 *
 * Nothing of the program is at stake by then: every thread passed that
 * synchronization with its traffic complete.  So MPI_Finalize gets a
 * grace period.  Past it, a rank found inside the barrier (a read on the
 * process manager's socket, PMI_FD) waits for its peers a little longer:
 * their watchdogs are about to complete the barrier.  A rank stuck
 * anywhere else has its finalizing pthread parked (a signal whose
 * handler never returns, so it no longer touches MPI's memory); on
 * MPICH's ch4:ucx before 4.2 the watchdog then does what that pthread
 * would have done next with the process manager (PMI-1's barrier_in,
 * then finalize), so the ranks in the barrier go on and finalize
 * normally and the process manager sees every rank finalize; then it
 * ends the process as the finalized path would (leave(status), exit
 * handlers included).  Elsewhere it only ends the process.
 */
#define _GNU_SOURCE
#include "transport/finish.h"
#include "base/fatal.h"
#include "base/job.h"

#include <errno.h>
#include <mpi.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define GRACE_NS(threads) (1000000000LL + 2000000LL * (int64_t)(threads))
#define BARRIER_GRACES 3 /* periods a rank in the barrier waits for its peers' watchdogs */
#define PARK_SIGNAL (SIGRTMIN + 4)

static pthread_mutex_t grace_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t grace_cond = PTHREAD_COND_INITIALIZER;
static int returned, taken_over; /* under grace_lock */
static pthread_t finalizing_thread;
static pid_t finalizing_tid;
static atomic_int parked;
static int leaving_status, verbose_level, pmi_barrier_last;
static void (*leave_fn)(int status);

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

/* MPICH's ch4:ucx before 4.2 enters the process manager's barrier after
 * its endpoint closes (see above). */
static int barrier_after_closes(void)
{
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, major = 0, minor = 0;
    if (MPI_Get_library_version(text, &len) != MPI_SUCCESS)
        return 0;
    const char *v = strstr(text, "MPICH Version:");
    if (!v || sscanf(v + strlen("MPICH Version:"), " %d.%d", &major, &minor) != 2)
        return 0;
    return strstr(text, "ch4:ucx") != NULL && (major < 4 || (major == 4 && minor < 2));
}

static int pmi_fd(void)
{
    const char *s = getenv("PMI_FD");
    return s && *s ? atoi(s) : -1;
}

/* Is the finalizing pthread in a read or write on the process manager's
 * socket (its barrier)?  /proc gives its system call and first argument. */
static int in_pmi_call(int fd)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/syscall", (int)finalizing_tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    long nr = -1;
    unsigned long arg = 0;
    int n = fscanf(f, "%ld %lx", &nr, &arg);
    fclose(f);
    return fd >= 0 && n == 2 && (nr == SYS_read || nr == SYS_write) && arg == (unsigned long)fd;
}

/* One PMI-1 command and its reply on the process manager's socket. */
static int pmi_exchange(int fd, const char *command, const char *reply, int timeout_ms)
{
    size_t len = strlen(command);
    if (write(fd, command, len) != (ssize_t)len)
        return -1;
    char buf[512];
    size_t used = 0;
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, timeout_ms) <= 0)
            return -1;
        ssize_t n = read(fd, buf + used, sizeof buf - 1 - used);
        if (n <= 0)
            return -1;
        used += (size_t)n;
        buf[used] = 0;
        if (strstr(buf, reply))
            return 0;
        if (used == sizeof buf - 1)
            used = 0;
    }
}

static void *last_resort(void *arg)
{
    (void)arg;
    sleep(10); /* exit handlers that hang on what the parked pthread holds */
    _exit(leaving_status);
}

static void take_over(int fd, int in_barrier)
{
    pthread_kill(finalizing_thread, PARK_SIGNAL);
    for (int i = 0; i < 1000 && !atomic_load(&parked); i++)
        usleep(1000);
    int finalized = 0;
    if (pmi_barrier_last && !in_barrier && fd >= 0 && atomic_load(&parked))
        finalized = pmi_exchange(fd, "cmd=barrier_in\n", "cmd=barrier_out", 10000) == 0 &&
                    pmi_exchange(fd, "cmd=finalize\n", "cmd=finalize_ack", 10000) == 0;
    if (verbose_level)
        fprintf(stderr, "mupc: thread %d: MPI_Finalize did not return within %lld ms (UCX's TCP "
                        "transport at cleanup, see libmupc's user guide); the program had ended; "
                        "%s; the process ends with status %d\n",
                mupc_mythread, GRACE_NS(mupc_threads) / 1000000,
                finalized ? "its shutdown with the process manager completed"
                          : "the process manager's shutdown was not completed",
                leaving_status);
    pthread_t t;
    pthread_create(&t, NULL, last_resort, NULL);
    leave_fn(leaving_status);
}

static void *watchdog(void *arg)
{
    (void)arg;
    int fd = pmi_fd(), in_barrier = 0;
    for (int period = 1;; period++) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        int64_t ns = until.tv_nsec + GRACE_NS(mupc_threads);
        until.tv_sec += ns / 1000000000LL;
        until.tv_nsec = ns % 1000000000LL;
        MUPCI_PT(pthread_mutex_lock(&grace_lock));
        int rc = 0;
        while (!returned && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&grace_cond, &grace_lock, &until);
        int done = returned;
        in_barrier = !done && in_pmi_call(fd);
        if (!done && !(in_barrier && period <= BARRIER_GRACES))
            taken_over = 1;
        MUPCI_PT(pthread_mutex_unlock(&grace_lock));
        if (done)
            return NULL;
        if (taken_over)
            break;
    }
    take_over(fd, in_barrier);
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
    pmi_barrier_last = barrier_after_closes();
    finalizing_thread = pthread_self();
    finalizing_tid = (pid_t)syscall(SYS_gettid);
    pthread_t dog;
    MUPCI_PT(pthread_create(&dog, NULL, watchdog, NULL));
    PMPI_Finalize(); /* the program's own MPI_Finalize is hybrid.c's */
    MUPCI_PT(pthread_mutex_lock(&grace_lock));
    int late = taken_over;
    returned = 1;
    MUPCI_PT(pthread_cond_signal(&grace_cond));
    MUPCI_PT(pthread_mutex_unlock(&grace_lock));
    if (late) /* the watchdog is ending the process */
        park(0);
    MUPCI_PT(pthread_join(dog, NULL));
}
