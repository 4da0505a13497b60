/* SPDX-License-Identifier: MIT */
/*
 * matrix.c -- the performance matrix of the MuPC report (Tables 8.1 and 8.2): the
 * cost per dword of seven fine-grained access patterns, read and write, on
 * this machine at this THREADS.  Run it once with the cache off and once
 * with it on:
 *
 *   MUPC_CACHE=off mupcrun -n 4 bench/matrix [--quick]
 *   MUPC_CACHE=on  mupcrun -n 4 bench/matrix [--quick]
 *   MUPC_CACHE=off mupcrun -n 2 bench/matrix --local-only [--quick]
 *
 * Every thread owns WORDS dwords of `data`; the patterns (all accesses are
 * relaxed 8-byte gets or puts through the runtime, as a translator emits):
 *   stream    thread 0 alone, random dwords of thread 1 (the others wait):
 *             the nominal latency; stream_stride1 is the same in order
 *   baseline  every thread, random dwords of random other threads
 *   coalesce  every thread, runs of RUN accesses with irregular strides of
 *             1-4 dwords from a random start on a random other thread
 *   vector    every thread, runs of VECTOR consecutive dwords from a random
 *             start on a random other thread
 *   local     every thread, random dwords with local affinity
 *   ring      every thread, random dwords of its right neighbour, at once
 *   flush     every thread but 0, random dwords of thread 0, at once
 * Output: mupc.<pattern>.<read|write>.<nocache|cache>_us_per_dword (with
 * _<N>t before _us when THREADS is not 2), the mean over the threads that
 * access, median over batches.  Writes are
 * timed up to a fence, so they are complete at their targets.  With the
 * cache off it also prints mupc.local.get_ns and mupc.private.get_ns: the
 * same random reads of local shared data and of a private array (their
 * difference is the runtime's cost of a shared access).  --local-only runs
 * just the local reads (run-bench measures what checks = bounds costs with
 * it).  Every read is checked: data holds its own global index.
 */
#include <mupc_upc.h>

#include "timing.h"

#include <stdint.h>

enum {
    WORDS = 512 * 1024, /* 4 MiB per thread: 16x the default cache per remote thread */
    RUN = 32,           /* coalesce: accesses per cluster */
    VECTOR = 256,       /* vector: dwords per run (2 KiB) */
    LOCAL_SCALE = 50    /* local and private accesses are this much cheaper: more of them */
};

MUPC_SHARED_ARRAY(data, long, WORDS, WORDS, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(cost, double, 1, 1, MUPC_PER_THREAD)

typedef enum { STREAM, STREAM_STRIDE1, BASELINE, COALESCE, VECTOR_RUNS, LOCAL, RING, FLUSH } kind_t;

static const char *const kind_name[] = {"stream", "stream_stride1", "baseline", "coalesce",
                                        "vector",  "local",          "ring",     "flush"};

/* The accesses of one pattern on one thread: data[thread * WORDS + offset]. */
typedef struct plan {
    size_t n;
    uint32_t *thread, *offset;
} plan_t;

static uint64_t rng_state;
static uint64_t next_random(void) /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}
static uint32_t random_below(uint64_t n) { return (uint32_t)(next_random() % n); }
static uint32_t random_other_thread(void)
{
    return (uint32_t)((MYTHREAD + 1 + random_below((uint64_t)THREADS - 1)) % THREADS);
}

static int takes_part(kind_t k, int t)
{
    switch (k) {
    case STREAM:
    case STREAM_STRIDE1: return t == 0;
    case FLUSH: return t != 0;
    default: return 1;
    }
}

/* Fills the first n accesses of pattern k for the calling thread. */
static void make_plan(plan_t *p, kind_t k, size_t n)
{
    p->n = n;
    for (size_t i = 0; i < n;) {
        uint32_t t = random_other_thread(), at = random_below(WORDS - VECTOR * 4);
        size_t run = k == COALESCE ? RUN : k == VECTOR_RUNS ? VECTOR : 1;
        for (size_t j = 0; j < run && i < n; j++, i++) {
            switch (k) {
            case STREAM: t = 1; break;
            case STREAM_STRIDE1: t = 1, at = (uint32_t)(i % WORDS); break;
            case LOCAL: t = (uint32_t)MYTHREAD; break;
            case RING: t = (uint32_t)((MYTHREAD + 1) % THREADS); break;
            case FLUSH: t = 0; break;
            case COALESCE: at += 1 + random_below(4); break;
            case VECTOR_RUNS: at += j > 0; break;
            default: break;
            }
            p->thread[i] = t;
            p->offset[i] = at;
        }
    }
}

static void fail(const char *what, long got, long want)
{
    fprintf(stderr, "bench/matrix: %s: read %ld, expected %ld\n", what, got, want);
    upc_global_exit(1);
}

/* Performs the plan once; returns microseconds per dword.  data[g] == g
 * always: writes store the value already there, so reads stay checkable. */
static double run_plan(const plan_t *p, int write, const char *what)
{
    long sum = 0, want = 0;
    double t0 = bench_now_us();
    for (size_t i = 0; i < p->n; i++) {
        long g = (long)p->thread[i] * WORDS + p->offset[i];
        if (write)
            MUPC_PUT(long, MUPC_ELEM(data, g), g);
        else
            sum += MUPC_GET(long, MUPC_ELEM(data, g));
    }
    if (write)
        upc_fence; /* the writes are complete at their targets */
    double us = (bench_now_us() - t0) / (double)p->n;
    for (size_t i = 0; !write && i < p->n; i++)
        want += (long)p->thread[i] * WORDS + p->offset[i];
    if (sum != want)
        fail(what, sum, want);
    return us;
}

/* Median over batches of the mean over the threads that take part. */
static double measure(const bench_plan_t *bp, kind_t k, int write, plan_t *p)
{
    double batch[64];
    int part = takes_part(k, MYTHREAD), members = 0;
    for (int t = 0; t < THREADS; t++)
        members += takes_part(k, t);
    for (int b = 0; b < bp->batches; b++) {
        upc_fence; /* cold cache: each batch starts the same */
        upc_barrier();
        double mine = part ? run_plan(p, write, kind_name[k]) : 0;
        MUPC_PUT(double, MUPC_ELEM(cost, MYTHREAD), mine);
        upc_barrier();
        double total = 0;
        for (int t = 0; MYTHREAD == 0 && t < THREADS; t++)
            total += MUPC_GET(double, MUPC_ELEM(cost, t));
        batch[b] = total / members;
    }
    return bench_median(batch, bp->batches);
}

/* Random reads of a private array, with the same offsets as `local`. */
static double private_get_ns(const bench_plan_t *bp, const plan_t *local)
{
    long *priv = malloc(WORDS * sizeof *priv);
    double batch[64];
    for (long i = 0; i < WORDS; i++)
        priv[i] = i;
    for (int b = 0; b < bp->batches; b++) {
        long sum = 0, want = 0;
        double t0 = bench_now_us();
        for (size_t i = 0; i < local->n; i++)
            sum += ((volatile long *)priv)[local->offset[i]];
        batch[b] = (bench_now_us() - t0) * 1000.0 / (double)local->n;
        for (size_t i = 0; i < local->n; i++)
            want += local->offset[i];
        if (sum != want)
            fail("private", sum, want);
    }
    free(priv);
    return bench_median(batch, bp->batches);
}

/* mupc.<pattern>.<read|write>.<mode>_us_per_dword, with _<N>t before
 * _us when THREADS is not 2 (as bench_report names figures). */
static void report(const char *pattern, const char *rw, const char *mode, double us)
{
    char threads[16] = "";
    if (THREADS != 2)
        snprintf(threads, sizeof threads, "_%dt", THREADS);
    printf("mupc.%s.%s.%s%s_us_per_dword %.4f\n", pattern, rw, mode, threads, us);
}

int main(int argc, char **argv)
{
    bench_plan_t bp = bench_plan(argc, argv);
    bp.batches = bp.quick ? 1 : 5;
    int local_only = 0;
    for (int i = 1; i < argc; i++)
        local_only |= strcmp(argv[i], "--local-only") == 0;
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/matrix: needs at least 2 threads (mupcrun -n 2)\n");
        return 2;
    }
    long *mine = mupc_local_addr(MUPC_ELEM(data, (size_t)MYTHREAD * WORDS));
    for (long i = 0; i < WORDS; i++)
        mine[i] = (long)MYTHREAD * WORDS + i;
    rng_state = 0x9e3779b97f4a7c15ull * (uint64_t)(MYTHREAD + 1);
    mupc_cache_stats_t stats;
    const char *mode = mupc_cache_stats(&stats) ? "cache" : "nocache";
    size_t remote_n = (size_t)bench_iters(&bp, 20000), local_n = remote_n * LOCAL_SCALE;
    plan_t p = {0, malloc(local_n * sizeof *p.thread), malloc(local_n * sizeof *p.offset)};
    upc_barrier();

    for (kind_t k = local_only ? LOCAL : STREAM; k <= (local_only ? LOCAL : FLUSH); k++) {
        make_plan(&p, k, k == LOCAL ? local_n : remote_n);
        for (int write = 0; write <= !local_only; write++) {
            double us = measure(&bp, k, write, &p);
            if (MYTHREAD == 0)
                report(kind_name[k], write ? "write" : "read", mode, us);
            if (MYTHREAD == 0 && k == LOCAL && !write && strcmp(mode, "nocache") == 0) {
                bench_report("mupc.local.get", "ns", THREADS, us * 1000.0);
                bench_report("mupc.private.get", "ns", THREADS, private_get_ns(&bp, &p));
            }
            fflush(stdout);
        }
    }
    upc_barrier();
    return 0;
}
