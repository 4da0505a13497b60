/* SPDX-License-Identifier: MIT */
/* hybrid.c -- UPC programs that also call MPI.
 *
 * libmupc starts MPI before the program's main and ends it after, and its
 * communication pthread is inside MPI while the program computes.  A
 * program that calls MPI itself therefore needs two things:
 *  - MPI_THREAD_MULTIPLE, so its calls may run beside the communication
 *    pthread's.  A translated program that includes <mpi.h> asks for it
 *    from a constructor (mupc_mpi_hybrid); a C program on <mupc.h> may do
 *    the same.
 *  - its own MPI_Init, MPI_Init_thread and MPI_Finalize to be harmless:
 *    through MPI's profiling interface these report the state libmupc
 *    made and leave MPI running until libmupc ends it after main.
 * MPI_COMM_WORLD has one rank per UPC thread, rank = MYTHREAD; libmupc's
 * own traffic is on a duplicate, so the program's messages never mix
 * with it. */
#include "upc/hybrid.h"

#include <mpi.h>
#include <mupc.h>

static int hybrid;

void mupc_mpi_hybrid(void) { hybrid = 1; }

int mupci_mpi_thread_level(void) { return hybrid ? MPI_THREAD_MULTIPLE : MPI_THREAD_SERIALIZED; }

int MPI_Init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return MPI_SUCCESS; /* libmupc did, before main */
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc, (void)argv, (void)required;
    return PMPI_Query_thread(provided);
}

int MPI_Finalize(void)
{
    return MPI_SUCCESS; /* libmupc does, after main returns */
}
