/* SPDX-License-Identifier: MIT */
/*
 * test_cache.c -- the remote reference cache seen from UPC programs:
 *  - a random mix of relaxed reads and writes (some bypassing the cache
 *    through upc_memget/upc_memput) in phases separated by barriers,
 *    every read checked against a model of the array; thread 0 prints a
 *    digest of the final array, which tests/scripts/cache_modes.sh
 *    compares between cache geometries and cache = off;
 *  - false sharing: every thread writes its own bytes of one line;
 *  - strict accesses see fresh data; lock-protected updates through the
 *    cache lose nothing;
 *  - the statistics count a vector read as a few misses and many hits,
 *    and a read from a thread of this node (shm) not at all.
 * Passes with the cache on or off, shm on or off, on simulated nodes.
 */
#include "check.h"

#include <stdint.h>
#include <string.h>
#include <upc_castable.h>

#define N_PER 1024 /* longs per thread in the random-mix array */
#define PHASES 8
#define FALSE_SHARING_BYTES 256
#define LOCK_ROUNDS 100
#define VEC 512

MUPC_SHARED_ARRAY(arr, long, N_PER, 16, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(bytes, unsigned char, FALSE_SHARING_BYTES, FALSE_SHARING_BYTES,
                  MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(flag, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(x, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(counter, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(vec, long, VEC, VEC, MUPC_PER_THREAD)

/* ---- random mix against a model ---- */

static uint64_t mix(uint64_t a)
{
    a ^= a >> 33;
    a *= 0xff51afd7ed558ccdull;
    a ^= a >> 33;
    return a;
}

/* Who writes element i in phase p: a thread, or THREADS for nobody. */
static int writer(size_t i, int p) { return (int)(mix(i * 131 + (uint64_t)p) % (uint64_t)(THREADS + 1)); }
static long written_value(size_t i, int p) { return (long)(i * 1000003u + (size_t)p * 7919u + 1); }

/* The element's value once phase p is over (p = -1: the initial value). */
static long model(size_t i, int p)
{
    for (; p >= 0; p--)
        if (writer(i, p) < THREADS)
            return written_value(i, p);
    return (long)i * 3;
}

/* The elements the mix uses: all of arr up to 16 threads; past that the
 * sampled threads' (check.h), so that each rank caches five threads, not
 * all of them (at 1,024 threads a rank caching every other one ran the
 * machine out of memory), and each thread's loops stay N_PER * 5 long
 * instead of growing with THREADS. */
static int picks[SAMPLED_THREADS_MAX], npicks;

static size_t mix_elements(void)
{
    npicks = sampled_threads(picks);
    return THREADS <= SAMPLED_THREADS_MAX ? (size_t)N_PER * THREADS : (size_t)N_PER * npicks;
}

/* The index into arr of the mix's j-th element. */
static size_t mix_element(size_t j)
{
    if (THREADS <= SAMPLED_THREADS_MAX)
        return j;
    return (size_t)picks[j % (size_t)npicks] + (size_t)THREADS * (j / (size_t)npicks);
}

static void random_mix(void)
{
    size_t n = (size_t)N_PER * THREADS, m = mix_elements();
    for (size_t i = MYTHREAD; i < n; i += THREADS) /* any initializer will do */
        MUPC_PUT(long, MUPC_ELEM(arr, i), (long)i * 3);
    upc_barrier();
    for (int p = 0; p < PHASES; p++) {
        /* writes: my elements of this phase, in a scrambled order (7919 is
         * prime to m = 1024 * THREADS for THREADS < 7919, and to 1024 * 5) */
        for (size_t k = 0; k < m; k++) {
            size_t i = mix_element((k * 7919 + (size_t)p * 977 + (size_t)MYTHREAD) % m);
            if (writer(i, p) != MYTHREAD)
                continue;
            long v = written_value(i, p);
            if (k % 7 == 0)
                upc_memput(MUPC_ELEM(arr, i), &v, sizeof v); /* bypasses the cache */
            else
                MUPC_PUT(long, MUPC_ELEM(arr, i), v);
        }
        /* reads: elements nobody else writes in this phase */
        for (size_t k = 0; k < m / 2; k++) {
            size_t i = mix_element(
                (size_t)(mix(k * 3 + (uint64_t)p * 1013 + 17 * (uint64_t)MYTHREAD) % m));
            int w = writer(i, p);
            if (w != THREADS && w != MYTHREAD)
                continue;
            long got, want = model(i, p);
            if (k % 5 == 0)
                upc_memget(&got, MUPC_ELEM(arr, i), sizeof got);
            else
                got = MUPC_GET(long, MUPC_ELEM(arr, i));
            CHECK(got == want, "phase %d: element %zu (thread %u) is %ld, want %ld", p, i,
                  MUPC_ELEM(arr, i).thread, got, want);
        }
        upc_barrier();
    }
    if (MYTHREAD == 0) {
        uint64_t digest = 1469598103934665603ull;
        for (size_t j = 0; j < m; j++) {
            size_t i = mix_element(j);
            long v = MUPC_GET(long, MUPC_ELEM(arr, i));
            CHECK(v == model(i, PHASES - 1), "final element %zu is %ld", i, v);
            digest = (digest ^ (uint64_t)v) * 1099511628211ull;
        }
        printf("digest %016llx\n", (unsigned long long)digest);
    }
    upc_barrier();
}

/* ---- false sharing ---- */

static void false_sharing(void)
{
    for (int round = 0; round < 3; round++) {
        for (int j = MYTHREAD; j < FALSE_SHARING_BYTES; j += THREADS)
            MUPC_PUT(uchar, MUPC_ELEM(bytes, j), (unsigned char)(j + round));
        upc_barrier();
        for (int j = 0; j < FALSE_SHARING_BYTES; j++) {
            unsigned char b = MUPC_GET(uchar, MUPC_ELEM(bytes, j));
            CHECK(b == (unsigned char)(j + round), "round %d: byte %d (written by thread %d) "
                  "is %u, want %u", round, j, j % THREADS, b, (unsigned char)(j + round));
        }
        upc_barrier();
    }
}

/* ---- strict accesses see fresh data ---- */

static void strict_sees_fresh_data(void)
{
    if (THREADS == 1)
        return;
    int writer_thread = 1, reader = THREADS >= 3 ? THREADS - 1 : 0;
    mupc_ptr_t px = MUPC_ELEM(x, 0), pf = MUPC_ELEM(flag, 0);
    if (MYTHREAD == 0) {
        MUPC_PUT(long, px, 0);
        MUPC_PUT(long, pf, 0);
    }
    upc_barrier();
    for (long r = 0; r < 20; r++) {
        if (MYTHREAD == reader)
            (void)MUPC_GET(long, px); /* the old value is now cached */
        upc_barrier();
        if (MYTHREAD == writer_thread) {
            MUPC_PUT(long, px, r + 100);     /* cached, dirty */
            MUPC_PUT_STRICT(long, pf, r + 1); /* the fence writes it back first */
        }
        if (MYTHREAD == reader) {
            while (MUPC_GET_STRICT(long, pf) != r + 1)
                ;
            CHECK_EQ_LL(MUPC_GET_STRICT(long, px), r + 100);
            CHECK_EQ_LL(MUPC_GET(long, px), r + 100); /* the strict read invalidated */
        }
        upc_barrier();
    }
}

/* ---- lock-protected read-modify-write through the cache ---- */

static void locked_updates(void)
{
    upc_lock_t l = upc_all_lock_alloc();
    mupc_ptr_t c = MUPC_ELEM(counter, THREADS - 1);
    if (MYTHREAD == 0)
        MUPC_PUT(long, c, 0);
    upc_barrier();
    /* LOCK_ROUNDS a thread up to 20 threads, then 2,048 in all (2 a thread
     * at 1,024): past a few hundred threads on this machine's emulated
     * hosts each hand-over waits for a sleeping waiter's wake-up, and
     * 25,600 of them took most of test_cache's 29 minutes at 512 threads */
    int rounds = per_thread_share(LOCK_ROUNDS, 2048, 2);
    if (rounds > LOCK_ROUNDS)
        rounds = LOCK_ROUNDS;
    for (int i = 0; i < rounds; i++) {
        upc_lock(l);
        MUPC_PUT(long, c, MUPC_GET(long, c) + 1);
        upc_unlock(l);
    }
    upc_barrier();
    CHECK_EQ_LL(MUPC_GET(long, c), (long)rounds * THREADS);
    upc_barrier();
    if (MYTHREAD == 0)
        upc_lock_free(l);
}

/* ---- statistics ---- */

/* mupc_cache_geometry reports what the environment configured (the
 * runtime's defaults when cache_modes.sh sets nothing). */
static size_t env_size(const char *name, size_t dflt)
{
    const char *v = getenv(name);
    return v ? strtoul(v, NULL, 10) : dflt;
}

static void geometry(int on)
{
    mupc_cache_geometry_t g;
    CHECK(mupc_cache_geometry(&g) == on, "mupc_cache_geometry disagrees with mupc_cache_stats");
    if (!on) {
        CHECK(g.line_size == 0 && g.sets == 0, "cache off, yet a geometry");
        return;
    }
    CHECK(g.line_size == env_size("MUPC_CACHE_LINE_SIZE", 1024), "line size %zu", g.line_size);
    CHECK(g.sets == env_size("MUPC_CACHE_SETS", 256), "%zu sets", g.sets);
    CHECK(g.victim_lines == env_size("MUPC_VICTIM_CACHE_LINES", 8), "%zu victim lines",
          g.victim_lines);
}

static void statistics(void)
{
    mupc_cache_stats_t s;
    int on = mupc_cache_stats(&s);
    geometry(on);
    if (!on) {
        CHECK(s.hits == 0 && s.misses == 0, "cache off, yet counters are set");
        return;
    }
    int peer = (MYTHREAD + 1) % THREADS;
    upc_fence; /* empty cache */
    mupc_cache_stats_reset();
    long sum = 0;
    for (int i = 0; i < VEC; i++)
        sum += MUPC_GET(long, MUPC_ELEM(vec, (size_t)peer * VEC + i));
    CHECK_EQ_LL(sum, 0);
    mupc_cache_stats(&s);
    if (upc_thread_info((size_t)peer).guaranteedCastable) {
        /* the peer's segment is mapped here (shm): loads, never the cache */
        CHECK(s.hits + s.misses == 0, "%llu hits + %llu misses on a thread of this node",
              s.hits, s.misses);
        upc_barrier();
        return;
    }
    /* 4 KiB read in order: one miss per line (64 bytes or more) */
    CHECK(s.hits + s.misses == VEC, "%llu hits + %llu misses, want %d accesses", s.hits,
          s.misses, VEC);
    CHECK(s.misses >= 1 && s.misses <= VEC * sizeof(long) / 64 + 1, "%llu misses", s.misses);
    CHECK(s.bytes_fetched >= VEC * sizeof(long), "%llu bytes fetched", s.bytes_fetched);
    upc_fence;
    mupc_cache_stats(&s);
    /* at most one line per miss is still there (conflicts may have evicted some) */
    CHECK(s.invalidations == 1 && s.lines_invalidated >= 1 && s.lines_invalidated <= s.misses,
          "%llu invalidations of %llu lines after %llu misses", s.invalidations,
          s.lines_invalidated, s.misses);
    upc_barrier();
}

int main(void)
{
    random_mix();
    false_sharing();
    strict_sees_fresh_data();
    locked_updates();
    statistics();
    return 0;
}
