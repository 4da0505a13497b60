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
 * doubles up to 1 ms, so a rank that waits long for a slow one costs
 * about a thousand wake-ups a second rather than a core. */
void mupci_job_wait(MPI_Request *req)
{
    long period_ns = 20000;
    for (;;) {
        int done = 0;
        MUPCI_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
        if (done)
            return;
        struct timespec ts = {0, period_ns};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        if (period_ns < 1000000)
            period_ns *= 2;
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
