/* SPDX-License-Identifier: MIT */
/*
 * test_memory_model.c -- the promises of mupc.h: puts are applied in
 * issue order per target; a strict write is visible to a third thread
 * that sees a later strict flag; after a barrier every put from before it
 * is visible everywhere, including puts sent to a third thread.
 */
#include "check.h"

#define SLOTS 512

MUPC_SHARED_ARRAY(cells, long, SLOTS, SLOTS, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(flag, long, 1, 1, MUPC_PER_THREAD)

int main(void)
{
    int to = (MYTHREAD + 1) % THREADS;
    /* 1. Same location, many relaxed puts, then my own relaxed get: the
     *    last one wins and I see it (per-target order). */
    for (long v = 1; v <= 2000; v++)
        MUPC_PUT(long, MUPC_ELEM(cells, (size_t)to * SLOTS), v);
    CHECK(MUPC_GET(long, MUPC_ELEM(cells, (size_t)to * SLOTS)) == 2000, "own put order");
    upc_barrier();

    /* 2. Message passing through a strict flag: thread 0 writes data to
     *    thread 1 (relaxed), then sets a strict flag on thread 2; thread 2
     *    waits for the flag, then reads the data from thread 1. */
    if (THREADS >= 3) {
        if (MYTHREAD == 0) {
            for (int i = 1; i < SLOTS; i++)
                MUPC_PUT(long, MUPC_ELEM(cells, (size_t)1 * SLOTS + i), 77000 + i);
            MUPC_PUT_STRICT(long, MUPC_ELEM(flag, 2), 1);
        } else if (MYTHREAD == 2) {
            while (MUPC_GET_STRICT(long, MUPC_ELEM(flag, 2)) == 0)
                ;
            for (int i = 1; i < SLOTS; i++)
                CHECK(MUPC_GET(long, MUPC_ELEM(cells, (size_t)1 * SLOTS + i)) == 77000 + i,
                      "data before strict flag, slot %d", i);
        }
    }
    upc_barrier();

    /* 3. All-to-all puts, then barrier, then everybody checks everything:
     *    each writer has 8 slots on every thread (so up to SLOTS / 8
     *    writers); past 16 threads, fewer rounds and the sampled threads'
     *    slots are checked (check.h), so the test stays O(THREADS). */
    int writers = THREADS < SLOTS / 8 ? THREADS : SLOTS / 8;
    int checked[SAMPLED_THREADS_MAX], nchecked = sampled_threads(checked);
    int rounds = per_thread_share(20, 320, 1);
    for (int round = 0; round < rounds; round++) {
        for (int t = 0; t < THREADS && MYTHREAD < writers; t++)
            for (int i = 0; i < 8; i++)
                MUPC_PUT(long, MUPC_ELEM(cells, (size_t)t * SLOTS + 8 * MYTHREAD + i),
                         round * 100 + MYTHREAD * 10 + i);
        upc_barrier();
        for (int k = 0; k < nchecked; k++)
            for (int w = 0; w < writers; w++)
                for (int i = 0; i < 8; i++)
                    CHECK(MUPC_GET(long, MUPC_ELEM(cells, (size_t)checked[k] * SLOTS + 8 * w + i)) ==
                              round * 100 + w * 10 + i,
                          "round %d: thread %d slot from %d", round, checked[k], w);
        upc_barrier();
    }
    if (MYTHREAD == 0)
        printf("test_memory_model: %d threads OK\n", THREADS);
    return 0;
}
