/* SPDX-License-Identifier: MIT */
/*
 * core.c -- the core runtime's figures, to set against bench/mpi_baselines.
 *
 *   mupcrun -n N bench/core [--quick]
 *
 * Thread 0 works on thread 1's data while the other threads wait at a
 * barrier (so their pthreads idle the way a real program's would):
 *   mupc.get.latency_us   8-byte relaxed remote get (synchronous)
 *   mupc.put.issue_us     8-byte relaxed remote put, amortized over a
 *                         stream of 10000 followed by upc_fence
 *   mupc.memget.bw_mbs    1 MiB upc_memget
 * then every thread runs barriers:
 *   mupc.barrier.us       upc_barrier
 * With N != 2 threads the names carry _Nt before the unit
 * (mupc.get.latency_4t_us, mupc.barrier_4t_us).  Every figure is the
 * median over batches; each result read back is checked.
 */
#include <mupc_upc.h>

#include "timing.h"

enum { BIG = 1 << 20, PUT_STREAM = 10000, PUT_SLOTS = 1024 };

MUPC_SHARED_ARRAY(word, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(slots, long, PUT_SLOTS, PUT_SLOTS, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(bulk, char, BIG, BIG, MUPC_PER_THREAD)

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "bench/core: %s: read %ld, expected %ld\n", what, got, want);
    upc_global_exit(1);
}

static double bench_get(const bench_plan_t *plan, int iters)
{
    double means[64];
    mupc_ptr_t target = MUPC_ELEM(word, 1);
    for (int b = 0; b < plan->batches; b++) {
        long sum = 0;
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            sum += MUPC_GET(long, target);
        means[b] = (bench_now_us() - t0) / iters;
        if (sum != 4242L * iters)
            fail("remote get", sum / iters, 4242);
    }
    return bench_median(means, plan->batches);
}

static double bench_put(const bench_plan_t *plan)
{
    double means[64];
    int stream = bench_iters(plan, PUT_STREAM);
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < stream; i++)
            MUPC_PUT(long, MUPC_ELEM(slots, PUT_SLOTS + i % PUT_SLOTS), i);
        upc_fence;
        means[b] = (bench_now_us() - t0) / stream;
    }
    long last = stream - 1;
    long got = MUPC_GET(long, MUPC_ELEM(slots, PUT_SLOTS + last % PUT_SLOTS));
    if (got != last)
        fail("remote put", got, last);
    return bench_median(means, plan->batches);
}

static double bench_memget(const bench_plan_t *plan, int iters)
{
    double means[64];
    char *local = malloc(BIG);
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            upc_memget(local, MUPC_ELEM(bulk, BIG), BIG);
        means[b] = BIG / ((bench_now_us() - t0) / iters); /* bytes/us = MB/s */
    }
    if (local[BIG - 1] != 1)
        fail("upc_memget", local[BIG - 1], 1);
    free(local);
    return bench_median(means, plan->batches);
}

static double bench_barrier(const bench_plan_t *plan, int iters)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            upc_barrier();
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/core: needs at least 2 threads (mupcrun -n 2)\n");
        return 2;
    }
    MUPC_PUT(long, MUPC_ELEM(word, MYTHREAD), 4242);
    memset(mupc_local_addr(MUPC_ELEM(bulk, (size_t)MYTHREAD * BIG)), 1, BIG);
    upc_barrier();

    double get = 0, put = 0, bw = 0;
    if (MYTHREAD == 0) {
        get = bench_get(&plan, bench_iters(&plan, 2000));
        put = bench_put(&plan);
        bw = bench_memget(&plan, bench_iters(&plan, 20));
    }
    upc_barrier();
    double barrier = bench_barrier(&plan, bench_iters(&plan, THREADS > 2 ? 200 : 2000));
    if (MYTHREAD == 0) {
        bench_report("mupc.get.latency", "us", THREADS, get);
        bench_report("mupc.put.issue", "us", THREADS, put);
        bench_report("mupc.memget.bw", "mbs", THREADS, bw);
        bench_report_barrier("mupc.barrier", THREADS, barrier);
    }
    return 0;
}
