/* SPDX-License-Identifier: MIT */
/*
 * mpi_scale.c -- the baseline of bench/scale: an MPI program of the same
 * shape (initialize, a barrier, the memory figure, finalize).  Rank 0
 * prints the median and the largest Pss over the ranks:
 *   mpi.scale.pss_median_kb   mpi.scale.pss_max_kb
 * tests/scripts/scale.sh times it from launch to exit beside bench/scale.
 */
#include "pss.h"
#include "timing.h"

#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    double mine = (double)bench_pss_kb(), *all = rank == 0 ? malloc(sizeof *all * size) : NULL;
    MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double max = 0;
        for (int r = 0; r < size; r++)
            max = all[r] > max ? all[r] : max;
        printf("mpi.scale.pss_median_kb %.0f\nmpi.scale.pss_max_kb %.0f\n",
               bench_median(all, size), max);
        free(all);
    }
    MPI_Finalize();
    return 0;
}
