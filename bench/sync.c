/* SPDX-License-Identifier: MIT */
/*
 * sync.c -- heap, lock and atomic figures, to set against
 * bench/mpi_baselines.
 *
 *   mupcrun -n 2 bench/sync [--quick]
 *     mupc.alloc.global_us      upc_global_alloc + upc_free, from thread 1
 *                               (the allocator lives on thread 0)
 *     mupc.lock.uncontended_us  upc_lock + upc_unlock by thread 0 of a lock
 *                               hosted on thread 1
 *     mupc.atomic.fadd_us       remote fetch-and-add (upc_atomic_relaxed,
 *                               UPC_ADD, UPC_INT64) on thread 1's data
 *   mupcrun -n 4 bench/sync [--quick]
 *     mupc.alloc.all_us         upc_all_alloc, every thread
 *     mupc.lock.contended_us    every thread hammers one lock: wall time
 *                               per acquisition
 * Medians over batches; results are checked.
 */
#include <mupc_upc.h>
#include <upc_atomic.h>

#include "timing.h"

MUPC_SHARED_ARRAY(counter, int64_t, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(handle, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)

static void fail(const char *what, long long got, long long want)
{
    fprintf(stderr, "bench/sync: %s: got %lld, expected %lld\n", what, got, want);
    upc_global_exit(1);
}

static void report(const char *name, double value)
{
    printf("%s %.3f\n", name, value);
    fflush(stdout);
}

/* ---- two threads: thread 0 (or 1) works, the other idles at a barrier ---- */

static double global_alloc(const bench_plan_t *plan, int iters)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            upc_free(upc_global_alloc(THREADS, 64));
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

static double lock_uncontended(const bench_plan_t *plan, int iters, upc_lock_t l)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++) {
            upc_lock(l);
            upc_unlock(l);
        }
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

static double atomic_fadd(const bench_plan_t *plan, int iters)
{
    double means[64];
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD, 0);
    int64_t one = 1, old = -1, before = MUPC_GET(llong, MUPC_ELEM(counter, 1));
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            upc_atomic_relaxed(d, &old, UPC_ADD, MUPC_ELEM(counter, 1), &one, NULL);
        means[b] = (bench_now_us() - t0) / iters;
    }
    long long want = before + (long long)plan->batches * iters;
    if (old + 1 != want)
        fail("fetch-and-add total", old + 1, want);
    return bench_median(means, plan->batches);
}

static void two_threads(const bench_plan_t *plan)
{
    if (MYTHREAD == 1)
        MUPC_PUT(pts, MUPC_ELEM(handle, 0), upc_global_lock_alloc());
    upc_barrier();
    upc_lock_t remote_lock = MUPC_GET(pts, MUPC_ELEM(handle, 0));
    double alloc = 0, lock = 0, fadd = 0;
    if (MYTHREAD == 1)
        alloc = global_alloc(plan, bench_iters(plan, 2000));
    upc_barrier();
    if (MYTHREAD == 0)
        lock = lock_uncontended(plan, bench_iters(plan, 2000), remote_lock);
    upc_barrier();
    /* collective domain allocation inside: every thread takes part */
    if (MYTHREAD == 0)
        fadd = atomic_fadd(plan, bench_iters(plan, 2000));
    else
        upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD, 0);
    upc_barrier();
    if (MYTHREAD == 1)
        report("mupc.alloc.global_us", alloc);
    upc_barrier();
    if (MYTHREAD == 0) {
        report("mupc.lock.uncontended_us", lock);
        report("mupc.atomic.fadd_us", fadd);
    }
}

/* ---- four threads: everyone at once ---- */

static double all_alloc(const bench_plan_t *plan, int iters)
{
    double means[64];
    mupc_ptr_t *blocks = malloc(sizeof *blocks * (size_t)iters);
    for (int b = 0; b < plan->batches; b++) {
        upc_barrier();
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            blocks[i] = upc_all_alloc(THREADS, 64);
        means[b] = (bench_now_us() - t0) / iters;
        for (int i = 0; i < iters; i++)
            upc_all_free(blocks[i]);
    }
    free(blocks);
    return bench_median(means, plan->batches);
}

static double lock_contended(const bench_plan_t *plan, int iters, upc_lock_t l)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        if (MYTHREAD == 0)
            MUPC_PUT(llong, MUPC_ELEM(counter, 0), 0);
        upc_barrier();
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++) {
            upc_lock(l);
            mupc_ptr_t c = MUPC_ELEM(counter, 0);
            MUPC_PUT(llong, c, MUPC_GET(llong, c) + 1);
            upc_unlock(l);
        }
        upc_barrier();
        means[b] = (bench_now_us() - t0) / ((double)iters * THREADS);
        long long total = MUPC_GET(llong, MUPC_ELEM(counter, 0));
        if (total != (long long)iters * THREADS)
            fail("contended lock counter", total, (long long)iters * THREADS);
        upc_barrier(); /* everyone has read it before thread 0 resets it */
    }
    return bench_median(means, plan->batches);
}

static void many_threads(const bench_plan_t *plan)
{
    double alloc = all_alloc(plan, bench_iters(plan, 100));
    upc_lock_t l = upc_all_lock_alloc();
    double lock = lock_contended(plan, bench_iters(plan, 200), l);
    if (MYTHREAD == 0) {
        char name[64];
        snprintf(name, sizeof name, "mupc.alloc.all%s_us", THREADS == 4 ? "" : "_nt");
        report(name, alloc);
        snprintf(name, sizeof name, "mupc.lock.contended%s_us", THREADS == 4 ? "" : "_nt");
        report(name, lock);
    }
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/sync: needs at least 2 threads (mupcrun -n 2 or -n 4)\n");
        return 2;
    }
    if (THREADS == 2)
        two_threads(&plan);
    else
        many_threads(&plan);
    return 0;
}
