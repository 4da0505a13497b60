/* SPDX-License-Identifier: MIT */
/*
 * mpi_baselines.c -- raw MPI on this machine, the yardstick for bench/core.
 *
 *   mpirun -n N bench/mpi_baselines [--quick]
 *
 * Ranks 0 and 1 ping-pong (8 bytes for latency, 1 MiB for bandwidth) and
 * rank 0 reads 8 bytes of rank 1's window with MPI_Get; the others wait in
 * a barrier, as the idle UPC threads of bench/core do.  Then every rank
 * runs MPI_Barrier, MPI_Bcast (8 bytes from rank 0) and MPI_Allreduce (one
 * double, MPI_SUM), and with 4 ranks MPI_Alltoall of 64 KiB blocks.
 * Prints, with 2 ranks:
 *   mpi.pingpong.rtt_us   mpi.pingpong.bw_mbs   mpi.rma_get_us   mpi.barrier.us
 *   mpi.bcast_8b_us       mpi.allreduce_d_us
 * (with 4: mpi.alltoall_64k_mbs, bytes each rank receives per second)
 * and with N != 2 the same names with _Nt before the unit.
 */
#include "timing.h"

#include <unistd.h>

#include <mpi.h>

enum { BIG = 1 << 20 };

static int rank, nranks;
static char *buffer;

static void pingpong(size_t bytes, int iters)
{
    for (int i = 0; i < iters; i++) {
        if (rank == 0) {
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buffer, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buffer, (int)bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
}

/* Median over batches of the mean round trip, in microseconds (rank 0). */
static double time_pingpong(const bench_plan_t *plan, size_t bytes, int iters)
{
    double means[64];
    pingpong(bytes, iters / 10 + 1); /* warm up */
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        pingpong(bytes, iters);
        means[b] = (bench_now_us() - t0) / iters;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    return bench_median(means, plan->batches);
}

static double time_get(const bench_plan_t *plan, MPI_Win win, int iters)
{
    double means[64];
    long value = 0;
    MPI_Win_lock_all(0, win);
    for (int b = 0; b < plan->batches && rank == 0; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++) {
            MPI_Get(&value, 1, MPI_LONG, 1, 0, 1, MPI_LONG, win);
            MPI_Win_flush(1, win);
        }
        means[b] = (bench_now_us() - t0) / iters;
    }
    MPI_Win_unlock_all(win);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && value != 4242) {
        fprintf(stderr, "mpi_baselines: MPI_Get read %ld, expected 4242\n", value);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return rank == 0 ? bench_median(means, plan->batches) : 0;
}

static double time_barrier(const bench_plan_t *plan, int iters)
{
    double means[64];
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            MPI_Barrier(MPI_COMM_WORLD);
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

/* Collectives: per-call wall time of a loop closed by a barrier, as in
 * bench/coll. */
enum { COLL_BCAST, COLL_ALLREDUCE, COLL_ALLTOALL };
enum { ALLTOALL_BLOCK = 64 << 10 };
static char *a2a_in, *a2a_out;

static void collective(int which, int iters)
{
    double x = rank + 1.0, sum = 0;
    long word = 42;
    for (int i = 0; i < iters; i++) {
        if (which == COLL_BCAST)
            MPI_Bcast(&word, 1, MPI_LONG, 0, MPI_COMM_WORLD);
        else if (which == COLL_ALLREDUCE)
            MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Alltoall(a2a_in, ALLTOALL_BLOCK, MPI_BYTE, a2a_out, ALLTOALL_BLOCK, MPI_BYTE,
                         MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (which == COLL_ALLREDUCE && iters > 0 && sum != nranks * (nranks + 1) / 2.0) {
        fprintf(stderr, "mpi_baselines: MPI_Allreduce gave %g\n", sum);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

static double time_collective(const bench_plan_t *plan, int which, int iters)
{
    double means[64];
    collective(which, iters / 10 + 1);
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        collective(which, iters);
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

/* Iterations per batch: `full`, or fewer so that one batch takes about
 * 20 ms (decided by rank 0 from a short trial, shared with all ranks).
 * With more ranks than cores MPICH's busy-polling ranks make every
 * operation cost milliseconds, and fixed counts would run for minutes. */
static int calibrate(void (*trial)(int iters), int full)
{
    int trial_iters = full < 10 ? full : 10;
    double t0 = bench_now_us();
    trial(trial_iters);
    double per_iter = (bench_now_us() - t0) / trial_iters;
    int iters = per_iter * full > 20000 ? (int)(20000 / per_iter) + 1 : full;
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return iters;
}

static void trial_small(int iters) { pingpong(8, iters); }
static void trial_big(int iters) { pingpong(BIG, iters); }
static void trial_bcast(int iters) { collective(COLL_BCAST, iters); }
static void trial_allreduce(int iters) { collective(COLL_ALLREDUCE, iters); }
static void trial_alltoall(int iters) { collective(COLL_ALLTOALL, iters); }
static void trial_barrier(int iters)
{
    for (int i = 0; i < iters; i++)
        MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI-IO: every rank writes its 1/N of 64 MiB (8 MiB quick) with
 * MPI_File_write_at_all at its own offset into one file in $BENCH_IO_DIR,
 * else $TMPDIR, else /tmp (deleted on close); timed from a barrier to the
 * return of a barrier after the call, no sync: what bench/io times for
 * mupc.io.write_bw_mbs.  Total bytes per us (MB/s), median of 5 (3). */
static double time_io_write(const bench_plan_t *plan)
{
    size_t total = (plan->quick ? 8u : 64u) << 20, mine = total / (size_t)nranks;
    int runs = plan->quick ? 3 : 5;
    const char *dir = getenv("BENCH_IO_DIR");
    if (!dir || !*dir)
        dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    long pid = (long)getpid();
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    char name[512];
    snprintf(name, sizeof name, "%s/mpi_bench_io_%ld.dat", dir, pid);
    unsigned char *buf = malloc(mine);
    for (size_t i = 0; i < mine; i++)
        buf[i] = (unsigned char)(i * 7 + (size_t)rank);
    MPI_File fh;
    if (MPI_File_open(MPI_COMM_WORLD, name,
                      MPI_MODE_RDWR | MPI_MODE_CREATE | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                      &fh) != MPI_SUCCESS) {
        fprintf(stderr, "mpi_baselines: cannot open %s\n", name);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_File_set_size(fh, 0);
    double t[8];
    for (int r = 0; r < runs; r++) {
        MPI_Status st;
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = bench_now_us();
        MPI_File_write_at_all(fh, (MPI_Offset)rank * (MPI_Offset)mine, buf, (int)mine, MPI_BYTE,
                              &st);
        MPI_Barrier(MPI_COMM_WORLD);
        t[r] = bench_now_us() - t0;
    }
    MPI_File_close(&fh);
    free(buf);
    return (double)total / bench_median(t, runs);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_plan_t plan = bench_plan(argc, argv);
    if (nranks < 2) {
        if (rank == 0)
            fprintf(stderr, "mpi_baselines: needs at least 2 ranks (mpirun -n 2)\n");
        MPI_Finalize();
        return 2;
    }
    buffer = calloc(1, BIG);
    long *exposed;
    MPI_Win win;
    MPI_Win_allocate(sizeof(long), sizeof(long), MPI_INFO_NULL, MPI_COMM_WORLD, &exposed, &win);
    *exposed = 4242;
    MPI_Barrier(MPI_COMM_WORLD);

    double rtt = time_pingpong(&plan, 8, calibrate(trial_small, bench_iters(&plan, 2000)));
    double big_rtt = time_pingpong(&plan, BIG, calibrate(trial_big, bench_iters(&plan, 50)));
    /* MPI_Get: as many iterations as the small ping-pong (same cost class). */
    double get = time_get(&plan, win, calibrate(trial_small, bench_iters(&plan, 1000)));
    double barrier = time_barrier(&plan, calibrate(trial_barrier, bench_iters(&plan, 2000)));
    double bcast = time_collective(&plan, COLL_BCAST,
                                   calibrate(trial_bcast, bench_iters(&plan, 2000)));
    double allreduce = time_collective(&plan, COLL_ALLREDUCE,
                                       calibrate(trial_allreduce, bench_iters(&plan, 2000)));
    double alltoall = 0;
    if (nranks == 4) {
        a2a_in = calloc(4, ALLTOALL_BLOCK);
        a2a_out = calloc(4, ALLTOALL_BLOCK);
        alltoall = time_collective(&plan, COLL_ALLTOALL,
                                   calibrate(trial_alltoall, bench_iters(&plan, 200)));
    }
    double io_write = time_io_write(&plan);
    if (rank == 0) {
        bench_report("mpi.io.write", "bw_mbs", nranks, io_write);
        bench_report("mpi.pingpong.rtt", "us", nranks, rtt);
        bench_report("mpi.pingpong.bw", "mbs", nranks, BIG / (big_rtt / 2)); /* bytes/us = MB/s */
        bench_report("mpi.rma_get", "us", nranks, get);
        bench_report_barrier("mpi.barrier", nranks, barrier);
        bench_report("mpi.bcast_8b", "us", nranks, bcast);
        bench_report("mpi.allreduce_d", "us", nranks, allreduce);
        if (nranks == 4) /* bytes each rank receives from the others, per us = MB/s */
            printf("mpi.alltoall_64k_mbs %.1f\n", 3.0 * ALLTOALL_BLOCK / alltoall);
    }
    MPI_Win_free(&win);
    free(buffer);
    MPI_Finalize();
    return 0;
}
