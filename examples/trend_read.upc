/* SPDX-License-Identifier: MIT */
/*
 * trend_read.upc -- ti-trend-prof's first bug shape (§2, §5.1), for mupc-trend:
 * thread 0 fills a table (as if it had read it from a file), then every
 * thread scans the whole table for the entries it owns.
 *
 *   mupcrun -n 4 examples/trend_read [--fixed] SIZE
 *
 * The bug: the scan reads the table on thread 0 element by element, one
 * remote reference each, (1 - 1/THREADS) x SIZE per thread on average and
 * (THREADS - 1) x SIZE in all.  --fixed copies the table once with
 * upc_memget (one transfer per thread) and scans the private copy.  Each
 * thread checks the sum of the entries it owns.
 */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long entry(size_t i) { return (long)(i * 7 % 1000); }

/* Sum of the entries this thread owns (i % THREADS == MYTHREAD), read one
 * by one from thread 0's table: the performance bug. */
static long scan_remote(shared [] long *table, size_t size)
{
    long sum = 0;
    for (size_t i = 0; i < size; i++) {
        long v = table[i]; /* TREND-BUG */
        if (i % THREADS == (size_t)MYTHREAD)
            sum += v;
    }
    return sum;
}

/* The same from one bulk copy. */
static long scan_copy(shared [] long *table, size_t size)
{
    long *copy = malloc(size * sizeof *copy), sum = 0;
    if (!copy) {
        fprintf(stderr, "trend_read: out of memory\n");
        upc_global_exit(1);
    }
    upc_memget(copy, table, size * sizeof *copy); /* TREND-FIX */
    for (size_t i = 0; i < size; i++)
        if (i % THREADS == (size_t)MYTHREAD)
            sum += copy[i];
    free(copy);
    return sum;
}

int main(int argc, char **argv)
{
    int fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
    size_t size = argc > 1 + fixed ? strtoul(argv[1 + fixed], NULL, 10) : 1000;
    if (size == 0) {
        fprintf(stderr, "usage: trend_read [--fixed] SIZE (SIZE > 0)\n");
        return 2;
    }
    shared [] long *table = upc_all_alloc(1, size * sizeof(long)); /* all on thread 0 */
    if (MYTHREAD == 0) {
        long *mine = (long *)table;
        for (size_t i = 0; i < size; i++)
            mine[i] = entry(i);
    }
    upc_barrier;
    long sum = fixed ? scan_copy(table, size) : scan_remote(table, size), want = 0;
    for (size_t i = MYTHREAD; i < size; i += THREADS)
        want += entry(i);
    if (sum != want) {
        fprintf(stderr, "trend_read: thread %d: sum %ld, want %ld\n", MYTHREAD, sum, want);
        upc_global_exit(1);
    }
    upc_barrier;
    if (MYTHREAD == 0)
        printf("trend_read%s: %zu entries on %d threads: OK\n", fixed ? " --fixed" : "", size,
               THREADS);
    upc_barrier;
    upc_all_free(table);
    return 0;
}
