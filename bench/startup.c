/* SPDX-License-Identifier: MIT */
/*
 * startup.c -- the trivial libmupc program whose launch-to-exit time is
 * mupc.startup_16t_s (run-bench times it from outside, beside
 * bench/mpi_startup, MPI_Init and MPI_Finalize alone): everything the
 * runtime does before main (configuration, segment, node layout, the
 * implicit barrier) and after it (the final barrier, MPI_Finalize).
 */
#include <mupc_upc.h>

int main(void)
{
    return 0;
}
