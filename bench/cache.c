/* SPDX-License-Identifier: MIT */
/*
 * cache.c -- the remote reference cache's figures (run with the cache on;
 * bench/core, run with it off, gives mupc.get.latency_us to compare with).
 *
 *   mupcrun -n 2 bench/cache [--quick]
 *
 * Thread 0 measures while the others wait at a barrier:
 *   mupc.local.hot_get_ns  8-byte relaxed get of data with local affinity,
 *                          through the same API (mupc_get_long)
 *   mupc.cache.hit_ns      8-byte relaxed remote get that hits the cache
 *   mupc.cache.miss_us     8-byte relaxed remote get that fetches a line
 *   mupc.vector.cached_us_per_dword
 *                          the MuPC report's "vector" pattern: consecutive remote
 *                          dwords, VECTOR of them, cold cache each batch
 * Each figure is the median over batches; values read are checked.
 */
#include <mupc_upc.h>

#include "timing.h"

enum { VECTOR = 64 * 1024, HOT = 8 };

MUPC_SHARED_ARRAY(vec, long, VECTOR, VECTOR, MUPC_PER_THREAD)

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "bench/cache: %s: read %ld, expected %ld\n", what, got, want);
    upc_global_exit(1);
}

/* Mean ns of relaxed 8-byte gets cycling over HOT consecutive elements of
 * `owner`'s part of vec (one line): after the first pass, all hits. */
static double hot_get_ns(const bench_plan_t *plan, int owner, int iters)
{
    double means[64];
    mupc_ptr_t p[HOT];
    for (int k = 0; k < HOT; k++)
        p[k] = MUPC_ELEM(vec, (size_t)owner * VECTOR + (size_t)k);
    for (int b = 0; b < plan->batches; b++) {
        long sum = 0;
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            sum += MUPC_GET(long, p[i % HOT]);
        means[b] = (bench_now_us() - t0) * 1000.0 / iters;
        long want = 0;
        for (int i = 0; i < iters; i++)
            want += (long)owner * VECTOR + i % HOT;
        if (sum != want)
            fail("hot get", sum, want);
    }
    return bench_median(means, plan->batches);
}

/* One cold 8-byte get per batch entry: a miss that fetches a line. */
static double miss_us(const bench_plan_t *plan, int iters)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        double total = 0;
        for (int i = 0; i < iters; i++) {
            upc_fence; /* cold cache */
            mupc_ptr_t p = MUPC_ELEM(vec, (size_t)VECTOR + (size_t)(i * 997) % VECTOR);
            double t0 = bench_now_us();
            long v = MUPC_GET(long, p);
            total += bench_now_us() - t0;
            if (v != (long)VECTOR + (long)((size_t)(i * 997) % VECTOR))
                fail("miss get", v, (long)VECTOR + (long)((size_t)(i * 997) % VECTOR));
        }
        means[b] = total / iters;
    }
    return bench_median(means, plan->batches);
}

static double vector_us_per_dword(const bench_plan_t *plan, int n)
{
    double means[64];
    for (int b = 0; b < plan->batches; b++) {
        upc_fence; /* cold cache: the pattern's reuse is spatial only */
        long sum = 0;
        double t0 = bench_now_us();
        for (int i = 0; i < n; i++)
            sum += MUPC_GET(long, MUPC_ELEM(vec, (size_t)VECTOR + (size_t)i));
        means[b] = (bench_now_us() - t0) / n;
        long want = (long)n * VECTOR + (long)n * (n - 1) / 2;
        if (sum != want)
            fail("vector", sum, want);
    }
    return bench_median(means, plan->batches);
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    for (int i = 0; i < VECTOR; i++) /* element value = its global index */
        MUPC_PUT(long, MUPC_ELEM(vec, (size_t)MYTHREAD * VECTOR + (size_t)i),
                 (long)MYTHREAD * VECTOR + i);
    upc_barrier();
    mupc_cache_stats_t stats;
    if (MYTHREAD == 0) {
        if (THREADS < 2 || !mupc_cache_stats(&stats)) {
            fprintf(stderr, "bench/cache: needs 2 or more threads and cache = on\n");
            upc_global_exit(2);
        }
        int iters = bench_iters(&plan, 2000000);
        printf("mupc.local.hot_get_ns %.3f\n", hot_get_ns(&plan, 0, iters));
        printf("mupc.cache.hit_ns %.3f\n", hot_get_ns(&plan, 1, iters));
        printf("mupc.cache.miss_us %.3f\n", miss_us(&plan, bench_iters(&plan, 200)));
        printf("mupc.vector.cached_us_per_dword %.4f\n",
               vector_us_per_dword(&plan, plan.quick ? VECTOR / 8 : VECTOR));
        mupc_cache_stats(&stats);
        printf("cache: %llu hits, %llu misses, %llu bytes fetched\n", stats.hits, stats.misses,
               stats.bytes_fetched);
        fflush(stdout);
    }
    upc_barrier();
    return 0;
}
