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

#include "mupc.h"

#include <mpi.h>

extern MPI_Comm mupci_comm;

#endif
