/* SPDX-License-Identifier: MIT */
/*
 * coll.c -- collectives and non-blocking overlap, to set against
 * bench/mpi_baselines' MPI_Bcast, MPI_Allreduce and MPI_Alltoall.
 *
 *   mupcrun -n N bench/coll [--quick]
 *     mupc.coll.broadcast_8b_us        upc_all_broadcast of 8 bytes from thread 0,
 *                                      UPC_IN_MYSYNC | UPC_OUT_MYSYNC (like MPI_Bcast)
 *     mupc.coll.broadcast_8b_allsync_us  the same with the default ALLSYNC flags
 *     mupc.coll.reduce_d_us            upc_all_reduceD, UPC_ADD over one double per
 *                                      thread, to thread 0, MYSYNC
 *   (with N != 2 the names carry _Nt before the unit)
 *   with 4 threads also
 *     mupc.coll.exchange_64k_mbs       upc_all_exchange of 64 KiB blocks, MYSYNC: bytes
 *                                      each thread receives from the others per second
 *   with 2 threads also
 *     mupc.nb.overlap_pct              share of a 4 MiB upc_memget_nb (thread 0 reads
 *                                      thread 1) hidden behind computation of 1.2 x
 *                                      the get's time: (get + compute - both) / get
 * Every loop ends with a barrier, so the figures are per call on the
 * slowest thread.  Results are checked.  Medians over batches.
 */
#include <upc_collective.h>
#include <upc_nb.h>

#include "upc_timing.h"

#define NB_BYTES (4u << 20)
#define EXCHANGE_BLOCK (64u << 10)

static const upc_flag_t mysync = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;

static void fail(const char *what, double got, double want)
{
    fprintf(stderr, "bench/coll: %s: got %g, expected %g\n", what, got, want);
    upc_global_exit(1);
}

/* ---- broadcast and reduce ---- */

typedef struct bcast_arg {
    mupc_ptr_t dst, src;
    upc_flag_t flags;
} bcast_arg_t;

static void bcast_op(void *p)
{
    bcast_arg_t *a = p;
    upc_all_broadcast(a->dst, a->src, 8, a->flags);
}

static void reduce_op(void *p)
{
    bcast_arg_t *a = p;
    upc_all_reduceD(a->dst, a->src, UPC_ADD, (size_t)THREADS, 1, NULL, a->flags);
}

static void broadcast_and_reduce(const bench_plan_t *plan)
{
    bcast_arg_t a = {upc_all_alloc((size_t)THREADS, 8), upc_all_alloc((size_t)THREADS, 8),
                     mysync};
    double *src = mupc_local_addr(mupc_ptr_index(a.src, (size_t)MYTHREAD, 8, 1));
    *src = MYTHREAD == 0 ? 42.5 : MYTHREAD + 1.0;
    upc_barrier();
    int iters = bench_iters(plan, 2000);
    double bcast = bench_time_calls(plan, iters, bcast_op, &a);
    double got = *(double *)mupc_local_addr(mupc_ptr_index(a.dst, (size_t)MYTHREAD, 8, 1));
    if (got != 42.5)
        fail("broadcast value", got, 42.5);
    a.flags = 0;
    double bcast_all = bench_time_calls(plan, iters / 4 + 1, bcast_op, &a);
    a.flags = mysync;
    upc_barrier();
    *src = MYTHREAD + 1.0;
    upc_barrier();
    double reduce = bench_time_calls(plan, iters, reduce_op, &a);
    if (MYTHREAD == 0) {
        double sum = *(double *)mupc_local_addr(a.dst), want = THREADS * (THREADS + 1) / 2.0;
        if (sum != want)
            fail("reduce sum", sum, want);
        bench_report("mupc.coll.broadcast_8b", "us", THREADS, bcast);
        bench_report("mupc.coll.broadcast_8b_allsync", "us", THREADS, bcast_all);
        bench_report("mupc.coll.reduce_d", "us", THREADS, reduce);
    }
    upc_all_free(a.dst);
    upc_all_free(a.src);
}

/* ---- exchange ---- */

static void exchange_op(void *p)
{
    bcast_arg_t *a = p;
    upc_all_exchange(a->dst, a->src, EXCHANGE_BLOCK, mysync);
}

static void exchange(const bench_plan_t *plan)
{
    size_t area = (size_t)THREADS * EXCHANGE_BLOCK;
    bcast_arg_t a = {upc_all_alloc((size_t)THREADS, area), upc_all_alloc((size_t)THREADS, area),
                     mysync};
    unsigned char *in = mupc_local_addr(mupc_ptr_add(a.src, (ptrdiff_t)(MYTHREAD * area), 1, area));
    for (size_t i = 0; i < area; i++)
        in[i] = (unsigned char)(MYTHREAD * 16 + i / EXCHANGE_BLOCK);
    upc_barrier();
    double us = bench_time_calls(plan, bench_iters(plan, 200), exchange_op, &a);
    unsigned char *out = mupc_local_addr(mupc_ptr_add(a.dst, (ptrdiff_t)(MYTHREAD * area), 1, area));
    for (int t = 0; t < THREADS; t++)
        if (out[(size_t)t * EXCHANGE_BLOCK + 7] != (unsigned char)(t * 16 + MYTHREAD))
            fail("exchanged byte", out[(size_t)t * EXCHANGE_BLOCK + 7], t * 16 + MYTHREAD);
    if (MYTHREAD == 0) /* bytes per microsecond = MB/s */
        printf("mupc.coll.exchange_64k_mbs %.1f\n", (double)(THREADS - 1) * EXCHANGE_BLOCK / us);
    upc_all_free(a.dst);
    upc_all_free(a.src);
}

/* ---- non-blocking overlap ---- */

static volatile double sink;

/* About `us` microseconds of arithmetic that touches no shared data. */
static void compute(long rounds)
{
    double x = 1.0;
    for (long i = 0; i < rounds; i++)
        x = x * 1.0000001 + 1e-9;
    sink = x;
}

static double median_us(const bench_plan_t *plan, int what, char *buf, mupc_ptr_t src,
                        long rounds)
{
    double t[64];
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        if (what == 0) {
            upc_memget(buf, src, NB_BYTES);
        } else if (what == 1) {
            compute(rounds);
        } else {
            upc_handle_t h = upc_memget_nb(buf, src, NB_BYTES);
            compute(rounds);
            upc_sync(h);
        }
        t[b] = bench_now_us() - t0;
    }
    return bench_median(t, plan->batches);
}

static void overlap(const bench_plan_t *plan)
{
    mupc_ptr_t data = upc_all_alloc((size_t)THREADS, NB_BYTES);
    mupc_ptr_t src = mupc_ptr_add(data, (ptrdiff_t)NB_BYTES, 1, NB_BYTES); /* on thread 1 */
    memset(mupc_local_addr(mupc_ptr_add(data, (ptrdiff_t)(MYTHREAD * NB_BYTES), 1, NB_BYTES)),
           MYTHREAD + 1, NB_BYTES);
    upc_barrier();
    if (MYTHREAD == 0) {
        char *buf = malloc(NB_BYTES);
        double get = median_us(plan, 0, buf, src, 0);
        /* computation of 1.2 x the blocking get: long enough to hide it,
         * scaled linearly (doubling overshot to anywhere up to 2.4 x) */
        long rounds = 100000;
        rounds = (long)((double)rounds * 1.2 * get / median_us(plan, 1, buf, src, rounds)) + 1;
        double comp = median_us(plan, 1, buf, src, rounds);
        double both = median_us(plan, 2, buf, src, rounds);
        if (buf[NB_BYTES - 1] != 2)
            fail("memget_nb last byte", buf[NB_BYTES - 1], 2);
        double hidden = (get + comp - both) / get * 100;
        printf("mupc.nb.get_4m_us %.1f\nmupc.nb.compute_us %.1f\nmupc.nb.both_us %.1f\n", get,
               comp, both);
        printf("mupc.nb.overlap_pct %.1f\n", hidden < 0 ? 0 : hidden > 100 ? 100 : hidden);
        free(buf);
    }
    upc_barrier();
    upc_all_free(data);
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/coll: needs at least 2 threads (mupcrun -n 2)\n");
        return 2;
    }
    broadcast_and_reduce(&plan);
    if (THREADS == 4)
        exchange(&plan);
    if (THREADS == 2)
        overlap(&plan);
    return 0;
}
