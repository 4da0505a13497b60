/* SPDX-License-Identifier: MIT */
/* hybrid.h -- UPC programs that also call MPI (see hybrid.c). */
#ifndef MUPC_RUNTIME_HYBRID_H
#define MUPC_RUNTIME_HYBRID_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

/* The thread level libmupc initializes MPI with: MPI_THREAD_MULTIPLE once
 * the program has said it calls MPI itself (mupc_mpi_hybrid), otherwise
 * MPI_THREAD_SERIALIZED (libmupc's two pthreads take turns in MPI). */
int mupci_mpi_thread_level(void);

#endif
