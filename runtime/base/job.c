/* SPDX-License-Identifier: MIT */
/* job.c -- the job's identity (job.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "base/job.h"
#include "base/backoff.h"
#include "base/fatal.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

int mupc_threads = 1;
int mupc_mythread = 0;
MPI_Comm mupci_comm = MPI_COMM_NULL;

__thread int mupci_job_on_upc_thread __attribute__((tls_model("initial-exec")));

void mupci_job_enter_upc_thread(void) { mupci_job_on_upc_thread = 1; }

void mupci_job_not_upc_thread(const char *call, const char *file, int line)
{
    mupci_fatal_at(file, line,
                   "%s called from a pthread that is not the UPC thread (an OpenMP worker, or a "
                   "thread the program created): UPC defines no behaviour for it, and libmupc "
                   "serves UPC operations only from the thread that runs main; make the call "
                   "outside the parallel region, or in `#pragma omp master` (doc/upc-support.md, "
                   "\"UPC and OpenMP\")",
                   call);
}

/* The longest sleep between tests: 1 ms, or on a node where ranks
 * outnumber cores JOB_STRETCH_FROM to 1 or more, 250 us per rank per core,
 * up to 16 ms.  At 1,024 ranks on two cores (make check-scale, 128 ranks
 * on each of 8 emulated hosts) every rank that had left MPI_Init woke each
 * millisecond to test, the cores were busy 100 % of the time, and the
 * ranks still in MPI_Init, or with a collective's message to forward,
 * waited for one: libmupc's start-up phases took 14-27 s (median 18) at
 * 1 ms, 8-10 s at 16 ms (bench/HISTORY.md, "Start-up at 1,024 threads,
 * again").  Fewer ranks per core keep 1 ms: a collective's round can
 * wait for a sleeping rank's next test, and 16 ranks on this machine's
 * 2 cores started in 1.05 s with 8 ms sleeps against 0.66 s with 1 ms.
 * Until the node layout is known (mupci_job_stretch_waits), the process
 * manager's count of this node's ranks stands in for it (Hydra's
 * MPI_LOCALNRANKS). */
#define JOB_STRETCH_FROM 32
#define JOB_WAIT_NS 1000000L
#define JOB_WAIT_SHORTEST_NS 20000L
#define JOB_WAIT_PER_RANK_NS 250000L
#define JOB_WAIT_CEILING_NS 16000000L
static long longest_wait_ns;

/* Only the computation pthreads are counted.  One could count both, but
 * the communication pthread sleeps while its computation pthread waits,
 * and bench/core measured 2 ranks on 2 cores at half the get latency when
 * they spin the full spin_polls (1.6 us against 3.3 us). */
int mupci_job_ranks_per_core(int ranks_on_node)
{
    cpu_set_t set;
    int cores = 1;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        cores = CPU_COUNT(&set);
    return ranks_on_node > cores ? (ranks_on_node + cores - 1) / cores : 1;
}

void mupci_job_stretch_waits(int ranks_per_core)
{
    longest_wait_ns = JOB_WAIT_NS;
    if (ranks_per_core >= JOB_STRETCH_FROM)
        longest_wait_ns = ranks_per_core * JOB_WAIT_PER_RANK_NS < JOB_WAIT_CEILING_NS
                              ? ranks_per_core * JOB_WAIT_PER_RANK_NS
                              : JOB_WAIT_CEILING_NS;
}

/* Before the node discovery counts them (start.c), the ranks on this
 * node as the launcher says: Hydra's MPI_LOCALNRANKS, Open MPI's
 * OMPI_COMM_WORLD_LOCAL_SIZE, else 1.  Only a first guess for the
 * start-up waits: nothing else rests on a launcher's variables. */
static int launcher_local_ranks(void)
{
    const char *names[] = {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *value = getenv(names[i]);
        if (value && atoi(value) > 0)
            return atoi(value);
    }
    return 1;
}

/* Test, then sleep: the first tests come quickly (a collective among
 * ranks that arrive together finishes in microseconds), then the period
 * doubles up to the longest sleep, so a rank that waits long for a slow
 * one costs about a thousand wake-ups a second or fewer rather than a
 * core.  Work that serve() did starts the period again from the
 * shortest: whoever sent it may be waiting for an answer. */
int mupci_job_wait_serving(MPI_Request *req, int (*serve)(void), int64_t deadline_ns)
{
    if (longest_wait_ns == 0)
        mupci_job_stretch_waits(mupci_job_ranks_per_core(launcher_local_ranks()));
    long period_ns = JOB_WAIT_SHORTEST_NS;
    for (;;) {
        int done = 0;
        MUPCI_MPI(MPI_Test(req, &done, MPI_STATUS_IGNORE));
        if (done)
            return 1;
        if (deadline_ns && mupci_now_ns() >= deadline_ns)
            return 0;
        if (serve && serve()) {
            period_ns = JOB_WAIT_SHORTEST_NS;
            continue;
        }
        struct timespec ts = {0, period_ns};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        if (period_ns < longest_wait_ns)
            period_ns = 2 * period_ns < longest_wait_ns ? 2 * period_ns : longest_wait_ns;
    }
}

void mupci_job_wait(MPI_Request *req) { mupci_job_wait_serving(req, NULL, 0); }

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
