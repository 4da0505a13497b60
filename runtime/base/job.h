/* SPDX-License-Identifier: MIT */
/*
 * job.h -- the job's identity, the lowest fact of the runtime: THREADS
 * (mupc_threads) and MYTHREAD (mupc_mythread), declared for programs in
 * <mupc.h>, and the runtime's own communicator, a duplicate of
 * MPI_COMM_WORLD with rank MYTHREAD.  start.c sets all three once MPI is up.
 */
#ifndef MUPCI_JOB_H
#define MUPCI_JOB_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "base/fatal.h"
#include "mupc.h"

#include <mpi.h>
#include <stdint.h>

extern MPI_Comm mupci_comm;

/* The UPC thread: the computation pthread, which runs main.  UPC defines
 * no behaviour for a UPC operation made by any other pthread (an OpenMP
 * worker of a hybrid program, a thread the program created): the calls
 * that enter the runtime check it (checks on, the default) and end the
 * job with a message naming the call and its file:line.  A thread-local
 * flag, initial-exec: one load and a branch where a call already enters
 * the runtime; the inline local accesses check nothing. */
extern __thread int mupci_job_on_upc_thread __attribute__((tls_model("initial-exec")));
/* Called by the computation pthread once, before main. */
void mupci_job_enter_upc_thread(void);
void mupci_job_not_upc_thread(const char *call, const char *file, int line)
    __attribute__((noreturn));

static inline void mupci_upc_thread_only(const char *call, const char *file, int line)
{
    if (MUPCI_CHECKS && mupci_unlikely(!mupci_job_on_upc_thread))
        mupci_job_not_upc_thread(call, file, line);
}

/* Start-up collectives over mupci_comm that give up the core while they
 * wait (and, with mupci_job_wait_serving, the last synchronization at
 * exit, engine.c).  MPICH busy-polls inside a blocking collective; at
 * start-up, when ranks outnumber cores, the polling ranks took the CPU
 * from the ones that still had work, and start-up ran several times
 * slower than MPI_Init.  These start the non-blocking collective, then
 * test it with sleeps that grow from 20 us to 1 ms, or longer on a node
 * with many ranks per core (job.c). */
void mupci_job_wait(MPI_Request *req);
/* The same wait, calling SERVE (when not NULL) between tests: a sleep
 * follows only a call that did no work.  Returns 1 when REQ completed, 0
 * when DEADLINE_NS (CLOCK_MONOTONIC; 0: none) passed first. */
int mupci_job_wait_serving(MPI_Request *req, int (*serve)(void), int64_t deadline_ns);
/* How many ranks share each core this process may run on, rounded up, for
 * RANKS_ON_NODE ranks on this node (1 when the cores suffice). */
int mupci_job_ranks_per_core(int ranks_on_node);
/* The node layout is known: stretch the waits' sleeps for it. */
void mupci_job_stretch_waits(int ranks_per_core);
void mupci_job_allgather(const void *mine, void *all, int bytes);
void mupci_job_allreduce_min(void *inout, int count, MPI_Datatype type);

#endif
