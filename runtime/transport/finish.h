/* SPDX-License-Identifier: MIT */
/* finish.h -- MPI_Finalize, bounded (see finish.c for why). */
#ifndef MUPC_RUNTIME_FINISH_H
#define MUPC_RUNTIME_FINISH_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

/* Finalize MPI on this pthread (the one that initialized it), after
 * mupci_engine_finalize: every thread of the job has passed its last
 * synchronization, so nothing of the program is left to deliver.  UCX
 * endpoint closes that wait for a peer are bounded (finish.c); should
 * MPI_Finalize still not return within a grace period, another pthread
 * parks this one for good and calls leave(status), which must not
 * return.  `verbose` prints a line when either bound acts. */
/* Around MPI_Init: how long the job took to start bounds how long its
 * MPI_Finalize may take before the watchdog acts. */
void mupci_finish_init_started(void);
void mupci_finish_init_ended(void);

void mupci_finish_mpi(int status, int verbose, void (*leave)(int status));

#endif
