/* SPDX-License-Identifier: MIT */
/*
 * waits.c -- collective calls whose time is mostly waiting: what more
 * UPC threads than cores cost on one node.
 *
 *   mupcrun -n N bench/waits PREFIX [--quick]
 *
 * run-bench runs it at 3 and 4 threads on one node twice, with the
 * default settings (PREFIX mupc.waits: on-node shared memory, waits
 * sleep on bells) and with shm = off (PREFIX mupc.waits_msg: the message
 * path, whose waits poll), and marks each default figure against the
 * message path's; and from 1 to 8 threads for the oversubscription sweep
 * (make bench writes the figures to bench/results/).  Per call, on
 * the slowest thread (each batch ends with a barrier), median of batches:
 *   PREFIX.all_alloc_free_Nt_us       upc_all_alloc + upc_all_free
 *   PREFIX.all_lock_alloc_free_Nt_us  upc_all_lock_alloc + upc_all_lock_free
 *   PREFIX.gather_all_Nt_us           upc_all_gather_all of 8 bytes, ALLSYNC
 *   PREFIX.broadcast_allsync_Nt_us    upc_all_broadcast of 8 bytes, ALLSYNC
 *   PREFIX.exchange_64k_Nt_mbs        upc_all_exchange of 64 KiB blocks,
 *                                     MYSYNC: MB each thread receives per s
 *   PREFIX.barrier_Nt_us              upc_barrier
 * (with 2 threads the names have no _Nt).  Results are checked.
 */
#include <upc_collective.h>

#include "upc_timing.h"

#include <stdint.h>

#define EXCHANGE_BLOCK (64u << 10)

static const char *prefix;

static void fail(const char *what, double got, double want)
{
    fprintf(stderr, "bench/waits: %s: got %g, expected %g\n", what, got, want);
    upc_global_exit(1);
}

static void report(const char *name, const char *unit, double value)
{
    char full[128];
    snprintf(full, sizeof full, "%s.%s", prefix, name);
    if (MYTHREAD == 0)
        bench_report(full, unit, THREADS, value);
}

/* ---- the calls ---- */

static void alloc_free_op(void *arg)
{
    (void)arg;
    upc_all_free(upc_all_alloc((size_t)THREADS, 64));
}

static void lock_alloc_free_op(void *arg)
{
    (void)arg;
    upc_all_lock_free(upc_all_lock_alloc());
}

typedef struct moving {
    mupc_ptr_t dst, src;
    size_t nbytes;
    upc_flag_t flags;
} moving_t;

static void gather_all_op(void *arg)
{
    moving_t *m = arg;
    upc_all_gather_all(m->dst, m->src, m->nbytes, m->flags);
}

static void broadcast_op(void *arg)
{
    moving_t *m = arg;
    upc_all_broadcast(m->dst, m->src, m->nbytes, m->flags);
}

static void exchange_op(void *arg)
{
    moving_t *m = arg;
    upc_all_exchange(m->dst, m->src, m->nbytes, m->flags);
}

static void barrier_op(void *arg)
{
    (void)arg;
    upc_barrier();
}

/* ---- each figure, with its result checked ---- */

static void heap_calls(const bench_plan_t *plan)
{
    int iters = bench_iters(plan, 400);
    report("all_alloc_free", "us", bench_time_calls(plan, iters, alloc_free_op, NULL));
    report("all_lock_alloc_free", "us", bench_time_calls(plan, iters, lock_alloc_free_op, NULL));
}

/* Thread t's 8-byte word of an array of THREADS words, one per thread. */
static int64_t *word_of(mupc_ptr_t a, int t)
{
    return mupc_local_addr(mupc_ptr_index(a, (size_t)t, 8, 1));
}

static void gather_all(const bench_plan_t *plan)
{
    /* src: one word per thread; dst: THREADS words on every thread */
    moving_t m = {upc_all_alloc((size_t)THREADS, 8 * (size_t)THREADS),
                  upc_all_alloc((size_t)THREADS, 8), 8, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};
    *word_of(m.src, MYTHREAD) = 1000 + MYTHREAD;
    upc_barrier();
    report("gather_all", "us", bench_time_calls(plan, bench_iters(plan, 400), gather_all_op, &m));
    int64_t *mine = mupc_local_addr(
        mupc_ptr_add(m.dst, (ptrdiff_t)MYTHREAD * 8 * THREADS, 1, 8 * (size_t)THREADS));
    for (int t = 0; t < THREADS; t++)
        if (mine[t] != 1000 + t)
            fail("gathered word", (double)mine[t], 1000 + t);
    upc_all_free(m.dst);
    upc_all_free(m.src);
}

static void broadcast(const bench_plan_t *plan)
{
    moving_t m = {upc_all_alloc((size_t)THREADS, 8), upc_all_alloc((size_t)THREADS, 8), 8,
                  UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC};
    *word_of(m.src, MYTHREAD) = MYTHREAD == 0 ? 4242 : -1;
    upc_barrier();
    report("broadcast_allsync", "us",
           bench_time_calls(plan, bench_iters(plan, 400), broadcast_op, &m));
    if (*word_of(m.dst, MYTHREAD) != 4242)
        fail("broadcast word", (double)*word_of(m.dst, MYTHREAD), 4242);
    upc_all_free(m.dst);
    upc_all_free(m.src);
}

static void exchange(const bench_plan_t *plan)
{
    size_t area = (size_t)THREADS * EXCHANGE_BLOCK;
    moving_t m = {upc_all_alloc((size_t)THREADS, area), upc_all_alloc((size_t)THREADS, area),
                  EXCHANGE_BLOCK, UPC_IN_MYSYNC | UPC_OUT_MYSYNC};
    unsigned char *in = mupc_local_addr(mupc_ptr_add(m.src, (ptrdiff_t)(MYTHREAD * area), 1, area));
    for (size_t i = 0; i < area; i++)
        in[i] = (unsigned char)(MYTHREAD * 16 + i / EXCHANGE_BLOCK);
    upc_barrier();
    double us = bench_time_calls(plan, bench_iters(plan, 100), exchange_op, &m);
    unsigned char *out =
        mupc_local_addr(mupc_ptr_add(m.dst, (ptrdiff_t)(MYTHREAD * area), 1, area));
    for (int t = 0; t < THREADS; t++)
        if (out[(size_t)t * EXCHANGE_BLOCK + 7] != (unsigned char)(t * 16 + MYTHREAD))
            fail("exchanged byte", out[(size_t)t * EXCHANGE_BLOCK + 7], t * 16 + MYTHREAD);
    /* bytes per microsecond = MB/s */
    report("exchange_64k", "mbs", (double)(THREADS - 1) * EXCHANGE_BLOCK / us);
    upc_all_free(m.dst);
    upc_all_free(m.src);
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (MYTHREAD == 0)
            fprintf(stderr, "usage: mupcrun -n N bench/waits PREFIX [--quick]\n");
        return 2;
    }
    prefix = argv[1];
    bench_plan_t plan = bench_plan(argc, argv);
    heap_calls(&plan);
    gather_all(&plan);
    broadcast(&plan);
    exchange(&plan);
    report("barrier", "us", bench_time_calls(&plan, bench_iters(&plan, 2000), barrier_op, NULL));
    return 0;
}
