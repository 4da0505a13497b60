/* SPDX-License-Identifier: MIT */
/*
 * barrier_mpi.c -- upc_barrier beside MPI_Barrier in the same job.
 *
 *   mupcrun -n N bench/barrier_mpi [--quick]
 *
 * Batches of upc_barrier and of MPI_Barrier alternate in the same
 * processes (which one goes first alternates too), so both see the same
 * placement of ranks on cores and the same connections.  Across jobs the
 * barrier moves more than the difference between the two: on two
 * emulated hosts 15 jobs gave median pair ratios from 0.96 to 1.07, each
 * job's quartiles within 1-4 % of its median, while comparing two jobs'
 * figures (bench/shm's against bench/mpi_baselines') gave 0.96-1.25.  Thread 0 prints, with 2 threads:
 *   mupc.injob.barrier.us   median over batches of upc_barrier
 *   mpi.injob.barrier.us    median over batches of MPI_Barrier
 *   injob.barrier.ratio     median over pairs of batches of their ratio
 * (with N threads: mupc.injob.barrier_Nt_us and so on).
 *
 * Calling MPI makes this a hybrid program (mupc_mpi_hybrid): libmupc
 * starts MPI with MPI_THREAD_MULTIPLE.  That alone does not slow an MPI
 * program's barrier, but libmupc's communication pthread, polling while
 * MPI_Barrier runs, does: 10.3-12.3 us here against 9.6-9.9 in a plain
 * MPI program of the same session, while upc_barrier took 10.4-10.8 in a
 * plain UPC program.  So this ratio flatters libmupc, and make
 * bench-cluster prints it without a mark (bench/HISTORY.md, "Barrier and
 * get beside plain MPI programs").
 */
#include <mupc_upc.h>
#include <mpi.h>

#include "bench/timing.h"

__attribute__((constructor)) static void calls_mpi(void) { mupc_mpi_hybrid(); }

enum { MAX_BATCHES = 64 };

static double upc_batch(int iters)
{
    upc_barrier();
    double t = bench_now_us();
    for (int i = 0; i < iters; i++)
        upc_barrier();
    return (bench_now_us() - t) / iters;
}

static double mpi_batch(int iters)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = bench_now_us();
    for (int i = 0; i < iters; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    return (bench_now_us() - t) / iters;
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    int iters = bench_iters(&plan, 2000);
    double upc[MAX_BATCHES], mpi[MAX_BATCHES], ratio[MAX_BATCHES];
    upc_batch(iters); /* warm both paths up */
    mpi_batch(iters);
    for (int b = 0; b < plan.batches; b++) {
        if (b % 2 == 0) {
            upc[b] = upc_batch(iters);
            mpi[b] = mpi_batch(iters);
        } else {
            mpi[b] = mpi_batch(iters);
            upc[b] = upc_batch(iters);
        }
        ratio[b] = upc[b] / mpi[b];
    }
    if (MYTHREAD == 0) {
        bench_report_barrier("mupc.injob.barrier", THREADS, bench_median(upc, plan.batches));
        bench_report_barrier("mpi.injob.barrier", THREADS, bench_median(mpi, plan.batches));
        bench_report_dotted("injob.barrier", "ratio", THREADS, bench_median(ratio, plan.batches));
    }
    return 0;
}
