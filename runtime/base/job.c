/* SPDX-License-Identifier: MIT */
/* job.c -- the job's identity (job.h). */
#include "base/job.h"
#include "base/fatal.h"

#include <errno.h>
#include <time.h>

int mupc_threads = 1;
int mupc_mythread = 0;
MPI_Comm mupci_comm = MPI_COMM_NULL;

/* Test, then sleep: the first tests come quickly (a collective among
 * ranks that arrive together finishes in microseconds), then the period
 * doubles up to 1 ms, and past that to a sixteenth of the time waited so
 * far, at most 64 ms: a wait ends at most about 6 % late, and a rank that
 * waits long for slow ones costs ever fewer wake-ups.  At 1,024 ranks on
 * 2 cores the start-up collectives wait seconds for the ranks the
 * scheduler has not run yet (thread 0 measured 5.2 s in the duplication
 * of MPI_COMM_WORLD and 6.9 s in finding the hosts); at 1 ms each waiting
 * rank woke a thousand times a second, and the polls competed for the
 * cores with the ranks still on their way. */
#define WAIT_PERIOD_FLOOR_NS 1000000L
#define WAIT_PERIOD_CEILING_NS 64000000L
static long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

void mupci_job_wait(MPI_Request *req)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    long period_ns = 20000;
    for (;;) {
        int done = 0;
        MUPCI_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
        if (done)
            return;
        struct timespec ts = {period_ns / 1000000000L, period_ns % 1000000000L};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        if (period_ns < WAIT_PERIOD_FLOOR_NS)
            period_ns *= 2;
        else if (period_ns < WAIT_PERIOD_CEILING_NS && 2 * period_ns <= elapsed_ns(&start) / 16)
            period_ns = 2 * period_ns < WAIT_PERIOD_CEILING_NS ? 2 * period_ns
                                                               : WAIT_PERIOD_CEILING_NS;
    }
}

void mupci_job_allgather(const void *mine, void *all, int bytes)
{
    MPI_Request req;
    MUPCI_MPI(MPI_Iallgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, mupci_comm, &req));
    mupci_job_wait(&req);
}

void mupci_job_allreduce_min(void *inout, int count, MPI_Datatype type)
{
    MPI_Request req;
    MUPCI_MPI(MPI_Iallreduce(MPI_IN_PLACE, inout, count, type, MPI_MIN, mupci_comm, &req));
    mupci_job_wait(&req);
}
