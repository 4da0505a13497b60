/* SPDX-License-Identifier: MIT */
/*
 * scale.c -- what a rank costs as the job grows (tests/scripts/scale.sh,
 * make check-scale), beside bench/mpi_scale:
 *   mupc.scale.pss_median_kb   mupc.scale.pss_max_kb
 *       Pss of each thread after start-up, a barrier, a remote read and a
 *       remote write (so the cache and the fence have run), over threads
 *   mupc.scale.fence_one_target_us
 *       thread 0: a relaxed write to the last thread (on another node when
 *       there are several) and upc_fence, per pair, while the last thread
 *       waits in upc_barrier: a round trip to one thread, which with
 *       hundreds of ranks per core is mostly the time the target's
 *       communication pthread sleeps before it looks (its idle sleeps
 *       stretch with the ranks per core, runtime/transport/engine.c)
 *   mupc.scale.fence_one_polling_us
 *       the same while the last thread polls (a loop of strict reads of
 *       its own flag, each a fence that runs progress), so the target
 *       answers as soon as the message is in: the fence's cost, round
 *       trip included
 *   mupc.scale.get_polling_us
 *       a strict read of the last thread while it polls, each alternating
 *       with a write+fence pair: one round trip under the same load, which
 *       the fence after one write must not exceed by much at any THREADS
 *       (medians of 2 x FENCES + 1 single operations, at least 21, each)
 *   mupc.scale.fence_empty_us
 *       thread 0: upc_fence with nothing written since the last one
 *   mupc.scale.cache_misses  thread 0's, with the cache on
 * Usage: mupcrun -n N bench/scale [FENCES (200)]
 * Results are checked.
 */
#include <mupc_upc.h>

#include "pss.h"
#include "timing.h"

MUPC_SHARED_ARRAY(word, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(pss, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(stop, long, 1, 1, MUPC_PER_THREAD)

/* Thread 0: microseconds per pair of a relaxed write to `last` and upc_fence. */
static double fence_after_one_write(int fences, int last)
{
    double t0 = bench_now_us();
    for (int i = 0; i < fences; i++) {
        MUPC_PUT(long, MUPC_ELEM(word, last), i);
        upc_fence;
    }
    return fences > 0 ? (bench_now_us() - t0) / fences : 0;
}

/* Thread 0, the last thread polling: single write+fence pairs alternate
 * with single strict reads of the last thread (one round trip each), so
 * both see the same load from the other ranks; prints the medians.  Each
 * operation is timed on its own: at 1,024 ranks on 2 cores one wait for a
 * core costs tens of ms, and in batches of 5 (as before 2026-11-29) one
 * such wait decided a batch, so the two medians were of a handful of
 * scheduler delays (93 ms against 35 ms in one run, 30 us against 24 us
 * in the one before).  The median of single operations holds as long as
 * most of them run undisturbed. */
static void polled_fence_and_get(int fences, int last)
{
    int n = 2 * fences + 1 > 21 ? 2 * fences + 1 : 21;
    double *fence = malloc(sizeof *fence * (size_t)n), *get = malloc(sizeof *get * (size_t)n);
    if (!fence || !get) {
        fprintf(stderr, "bench/scale: out of memory for %d samples\n", n);
        upc_global_exit(1);
    }
    for (int i = 0; i < n; i++) {
        fence[i] = fence_after_one_write(1, last);
        double t0 = bench_now_us();
        (void)MUPC_GET_STRICT(long, MUPC_ELEM(word, last));
        get[i] = bench_now_us() - t0;
    }
    printf("mupc.scale.fence_one_polling_us %.3f\nmupc.scale.get_polling_us %.3f\n",
           bench_median(fence, n), bench_median(get, n));
    free(fence);
    free(get);
}

int main(int argc, char **argv)
{
    int fences = argc > 1 ? atoi(argv[1]) : 200;
    int next = (MYTHREAD + 1) % THREADS, last = THREADS - 1;
    MUPC_PUT(long, MUPC_ELEM(word, next), MYTHREAD); /* a remote write, */
    upc_barrier();
    long got = MUPC_GET(long, MUPC_ELEM(word, next)); /* a remote read */
    if (got != next - 1 + (next == 0 ? THREADS : 0)) {
        fprintf(stderr, "bench/scale: thread %d read %ld from thread %d\n", MYTHREAD, got, next);
        upc_global_exit(1);
    }
    upc_barrier();
    MUPC_PUT(long, MUPC_ELEM(pss, MYTHREAD), bench_pss_kb());
    upc_barrier();
    if (MYTHREAD == 0) {
        /* nothing written: the fence's own bookkeeping (the median of 15
         * batches: a batch the scheduler interrupted does not count) */
        double batches[15];
        for (int b = 0; b < 15; b++) {
            double t0 = bench_now_us();
            for (int i = 0; i < 100; i++)
                upc_fence;
            batches[b] = (bench_now_us() - t0) / 100;
        }
        double empty = bench_median(batches, 15);
        double fence = fence_after_one_write(fences, last);
        double *all = malloc(sizeof *all * (size_t)THREADS), max = 0;
        for (int t = 0; t < THREADS; t++) {
            all[t] = (double)MUPC_GET_STRICT(long, MUPC_ELEM(pss, t));
            max = all[t] > max ? all[t] : max;
        }
        mupc_cache_stats_t s;
        int cached = mupc_cache_stats(&s);
        printf("mupc.scale.pss_median_kb %.0f\nmupc.scale.pss_max_kb %.0f\n"
               "mupc.scale.fence_one_target_us %.3f\nmupc.scale.fence_empty_us %.3f\n",
               bench_median(all, THREADS), max, fence, empty);
        if (cached)
            printf("mupc.scale.cache_misses %llu\n", s.misses);
        free(all);
    }
    upc_barrier();
    /* again, with the target polling (it says so first: stop[0]) */
    if (MYTHREAD == 0) {
        while (last != 0 && !MUPC_GET_STRICT(long, MUPC_ELEM(stop, 0)))
            ;
        polled_fence_and_get(fences, last);
        MUPC_PUT(long, MUPC_ELEM(word, last), fences - 1); /* what the check below expects */
        upc_fence;
        MUPC_PUT_STRICT(long, MUPC_ELEM(stop, last), 1);
    } else if (MYTHREAD == last) {
        MUPC_PUT_STRICT(long, MUPC_ELEM(stop, 0), 1);
        while (!MUPC_GET_STRICT(long, MUPC_ELEM(stop, last)))
            ;
    }
    upc_barrier();
    if (MYTHREAD == last && fences > 0 &&
        MUPC_GET(long, MUPC_ELEM(word, last)) != fences - 1) {
        fprintf(stderr, "bench/scale: the last fenced write did not arrive\n");
        upc_global_exit(1);
    }
    return 0;
}
