/* SPDX-License-Identifier: MIT */
/*
 * histogram.upc -- the MuPC report §7.1.1: random updates to a cyclic shared table.
 *
 *   mupcrun -n 4 examples/histogram [--racy] [SIZE [PERCENT]]
 *
 * `shared int table[SIZE]` is distributed cyclically (block size 1), so
 * (THREADS-1)/THREADS of uniformly random updates are remote.  Each thread
 * makes SIZE*PERCENT/100 updates at locations drawn in advance from its
 * own generator, seeded by MYTHREAD, so thread 0 can replay every thread's
 * sequence and rebuild the exact histogram.  Defaults: 8192 bins, 50%
 * (about a second with 4 threads on 2 cores, where a remote atomic costs
 * a few hundred microseconds).
 *
 * By default an update is a UPC atomic add (<upc_atomic.h>) and every bin
 * must match exactly.  --racy runs the report's kernel, `table[loc]++` as
 * a relaxed get and put, which loses updates when threads collide (and, with the cache
 * on, whenever a thread increments a stale cached copy); see check_racy for
 * what still holds.  Time is thread 0's, barrier to barrier, so it covers
 * the slowest thread.
 */
#include <upc.h>
#include <upc_atomic.h>
#include <mupc.h> /* libmupc's mupc_segment_size */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SIZE (1UL << 28)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* splitmix64: small, fast, and the same sequence on every thread. */
static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The `count` locations thread `t` updates (the report's "pre-computed
 * random numbers"). */
static size_t *locations(int t, size_t count, size_t size)
{
    size_t *loc = malloc((count ? count : 1) * sizeof *loc);
    if (!loc) {
        fprintf(stderr, "histogram: out of memory\n");
        upc_global_exit(1);
    }
    uint64_t state = 0x5eed0000ULL + (uint64_t)t;
    for (size_t k = 0; k < count; k++)
        loc[k] = (size_t)(next_random(&state) % size);
    return loc;
}

/* Bins with affinity to thread t: t, t+THREADS, ... */
static size_t bins_of(int t, size_t size)
{
    return (size_t)t < size ? (size - (size_t)t + THREADS - 1) / THREADS : 0;
}

static void update_atomic(upc_atomicdomain_t *domain, shared int *table, const size_t *loc,
                          size_t count)
{
    const int one = 1;
    for (size_t k = 0; k < count; k++)
        upc_atomic_relaxed(domain, NULL, UPC_ADD, &table[loc[k]], &one, NULL);
}

/* The report's kernel: table[loc]++ with relaxed accesses. */
static void update_racy(shared int *table, const size_t *loc, size_t count)
{
    for (size_t k = 0; k < count; k++)
        table[loc[k]]++;
}

/* The expected histogram from every thread's sequence; *remote gets the
 * number of updates that hit another thread's bin. */
static int *expected_counts(size_t size, size_t count, size_t *remote)
{
    int *want = calloc(size, sizeof *want);
    *remote = 0;
    for (int t = 0; t < THREADS; t++) {
        size_t *loc = locations(t, count, size);
        for (size_t k = 0; k < count; k++) {
            want[loc[k]]++;
            *remote += loc[k] % THREADS != (size_t)t;
        }
        free(loc);
    }
    return want;
}

/* The whole table on thread 0: one upc_memget per thread, whose bins are
 * contiguous in its own segment. */
static int *read_table(shared int *table, size_t size)
{
    int *got = malloc(size * sizeof *got), *part = malloc(bins_of(0, size) * sizeof *part);
    for (int t = 0; t < THREADS; t++) {
        size_t n = bins_of(t, size);
        if (n)
            upc_memget(part, &table[t], n * sizeof *part);
        for (size_t k = 0; k < n; k++)
            got[(size_t)t + k * THREADS] = part[k];
    }
    free(part);
    return got;
}

static void fail(size_t i, int got, int want, const char *why)
{
    fprintf(stderr, "histogram: bin %zu: got %d, expected %d (%s): check FAILED\n", i, got,
            want, why);
    upc_global_exit(1);
}

static void check_exact(const int *got, const int *want, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (got[i] != want[i])
            fail(i, got[i], want[i], "atomic updates must all count");
}

/* Racy updates: every value written to a bin is 1 + a value read from it,
 * and a read returns 0 or a value some earlier update wrote, so a bin's
 * value is the length of a chain of distinct updates to it.  Hence a bin
 * nobody updated stays 0 and an updated one ends between 1 and its
 * expected count (the cache writes back only dirty bytes, so updates to
 * neighbouring bins cannot clobber it).  Returns the updates lost. */
static size_t check_racy(const int *got, const int *want, size_t size)
{
    size_t lost = 0;
    for (size_t i = 0; i < size; i++) {
        if (want[i] == 0 ? got[i] != 0 : got[i] < 1 || got[i] > want[i])
            fail(i, got[i], want[i], "racy updates must give 1..expected, 0 if none");
        lost += (size_t)(want[i] - got[i]);
    }
    return lost;
}

static void report(shared int *table, size_t size, size_t count, int percent, int racy,
                   double elapsed)
{
    size_t remote, total = count * (size_t)THREADS, lost = 0;
    int *want = expected_counts(size, count, &remote), *got = read_table(table, size);
    if (racy)
        lost = check_racy(got, want, size);
    else
        check_exact(got, want, size);
    printf("histogram%s: %d UPC threads, %zu bins, %d%% updates (%zu in all): %.3f s "
           "(%.2f us/update), remote %.1f%%",
           racy ? " --racy" : "", THREADS, size, percent, total, elapsed,
           total ? elapsed * 1e6 / total : 0.0, total ? 100.0 * remote / total : 0.0);
    if (racy)
        printf(", %zu lost updates (%.1f%%)", lost, total ? 100.0 * lost / total : 0.0);
    printf(", check OK\n");
    free(want);
    free(got);
}

/* A decimal number without sign or junk, in lo..hi; -1 otherwise. */
static long parse(const char *s, long lo, long hi)
{
    char *end;
    if (*s < '0' || *s > '9')
        return -1;
    unsigned long v = strtoul(s, &end, 10);
    return *end || v < (unsigned long)lo || v > (unsigned long)hi ? -1 : (long)v;
}

/* Prints "histogram: WHAT[ 'ARG']" and the usage line (thread 0); returns 2. */
static int usage(const char *what, const char *arg)
{
    if (MYTHREAD == 0)
        fprintf(stderr,
                "histogram: %s%s%s%s\nusage: histogram [--racy] [SIZE [PERCENT]]  "
                "(SIZE 1..%lu bins, default 8192; PERCENT 1..100, default 50)\n",
                what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "", MAX_SIZE);
    return 2;
}

int main(int argc, char **argv)
{
    int racy = argc > 1 && strcmp(argv[1], "--racy") == 0, a = 1 + racy;
    if (argc > a + 2)
        return usage("unexpected argument", argv[a + 2]);
    long size = argc > a ? parse(argv[a], 1, (long)MAX_SIZE) : 1L << 13;
    long percent = argc > a + 1 ? parse(argv[a + 1], 1, 100) : 50;
    if (size < 0)
        return usage("bad SIZE", argv[a]);
    if (percent < 0)
        return usage("bad PERCENT", argv[a + 1]);
    if (bins_of(0, (size_t)size) * sizeof(int) > mupc_segment_size() / 2)
        return usage("SIZE too big for the shared segment (raise segment_size in mupc.conf)",
                     NULL);

    size_t count = (size_t)size * (size_t)percent / 100;
    shared int *table = upc_all_alloc((size_t)size, sizeof(int)); /* shared int [size] */
    long i;
    upc_forall (i = 0; i < size; i++; &table[i])
        table[i] = 0;
    upc_atomicdomain_t *domain = upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD, 0);
    size_t *loc = locations(MYTHREAD, count, (size_t)size);
    upc_barrier;

    double t0 = now();
    if (racy)
        update_racy(table, loc, count);
    else
        update_atomic(domain, table, loc, count);
    upc_barrier; /* every update applied */
    double elapsed = now() - t0;

    if (MYTHREAD == 0)
        report(table, (size_t)size, count, (int)percent, racy, elapsed);
    free(loc);
    upc_barrier;
    upc_all_atomicdomain_free(domain);
    upc_all_free(table);
    return 0;
}
