/* SPDX-License-Identifier: MIT */
/*
 * trend_meta.upc -- ti-trend-prof's second bug shape (§5.2.1), for mupc-trend:
 * ITEMS meta-data entries are spread over the threads (item j on thread
 * j % THREADS) and every thread needs all of them.
 *
 *   mupcrun -n 4 examples/trend_meta [--fixed] ITEMS
 *
 * The bug: one upc_all_broadcast per item, so every thread takes part in
 * ITEMS collectives (ITEMS x THREADS collective calls in all, and each
 * waits on the item's owner).  --fixed gathers everything with one
 * upc_all_gather_all (one call per thread).  Every thread checks its copy.
 */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* For the broadcasts: the item being shared, in its owner's slot, and
 * every thread's copy of it. */
shared long slot[THREADS], copy[THREADS];

static long item(size_t j) { return (long)(j * 31 + 5); }

static void *checked_malloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "trend_meta: out of memory\n");
        upc_global_exit(1);
    }
    return p;
}

/* One broadcast per item: the performance bug. */
static void share_by_broadcast(long *meta, size_t items)
{
    for (size_t j = 0; j < items; j++) {
        size_t owner = j % THREADS;
        if (owner == (size_t)MYTHREAD)
            slot[MYTHREAD] = item(j);
        upc_all_broadcast(copy, &slot[owner], sizeof(long), UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* TREND-BUG */
        meta[j] = copy[MYTHREAD];
    }
}

/* This thread's block of an array upc_all_alloc'ed with one block per
 * thread, as a pointer-to-local. */
static long *my_block(shared void *array)
{
    return (long *)((shared long *)array + MYTHREAD);
}

/* Everything in one collective. */
static void share_by_gather(long *meta, size_t items)
{
    size_t per = (items + THREADS - 1) / THREADS, block = per * sizeof(long);
    shared void *src = upc_all_alloc(THREADS, block);
    shared void *dst = upc_all_alloc(THREADS, block * THREADS);
    long *mine = my_block(src);
    for (size_t k = 0; k < per; k++) /* slot k of thread t holds item k * THREADS + t */
        mine[k] = item(k * THREADS + MYTHREAD);
    upc_all_gather_all(dst, src, block, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* TREND-FIX */
    long *all = my_block(dst);
    for (size_t j = 0; j < items; j++)
        meta[j] = all[(j % THREADS) * per + j / THREADS];
    upc_all_free(src);
    upc_all_free(dst);
}

int main(int argc, char **argv)
{
    int fixed = argc > 1 && strcmp(argv[1], "--fixed") == 0;
    size_t items = argc > 1 + fixed ? strtoul(argv[1 + fixed], NULL, 10) : 100;
    if (items == 0) {
        fprintf(stderr, "usage: trend_meta [--fixed] ITEMS (ITEMS > 0)\n");
        return 2;
    }
    long *meta = checked_malloc(items * sizeof *meta);
    if (fixed)
        share_by_gather(meta, items);
    else
        share_by_broadcast(meta, items);
    for (size_t j = 0; j < items; j++)
        if (meta[j] != item(j)) {
            fprintf(stderr, "trend_meta: thread %d: item %zu is %ld, want %ld\n", MYTHREAD, j,
                    meta[j], item(j));
            upc_global_exit(1);
        }
    free(meta);
    upc_barrier;
    if (MYTHREAD == 0)
        printf("trend_meta%s: %zu items on %d threads: OK\n", fixed ? " --fixed" : "", items,
               THREADS);
    return 0;
}
