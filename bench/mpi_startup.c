/* SPDX-License-Identifier: MIT */
/*
 * mpi_startup.c -- the baseline of bench/startup: a program that only
 * initializes and finalizes MPI.  run-bench times both from launch to
 * exit (mpi.startup_16t_s against mupc.startup_16t_s).
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
