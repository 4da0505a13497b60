/* SPDX-License-Identifier: MIT */
/*
 * test_barrier.c -- barriers under skew: anonymous, named, mixed, split
 * phase with work in between, and the fence every barrier implies; a
 * thread computing between notify and wait while the others' waits finish.
 */
#include "check.h"

#include <unistd.h>

#define ROUNDS 300

/* two per thread: a neighbour can be one split phase ahead, never two */
MUPC_SHARED_ARRAY(counter, long, 2, 2, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(board, long, 64, 64, MUPC_PER_THREAD)

int main(void)
{
    /* 1. Every thread bumps the slot k of the k-th thread after it (of the
     *    64 after it in bigger jobs: every thread's, up to 64 threads);
     *    after each barrier all writes of the round are visible. */
    int fan = THREADS < 64 ? THREADS : 64;
    for (int r = 1; r <= ROUNDS; r++) {
        for (int k = 0; k < fan; k++)
            MUPC_PUT(long, MUPC_ELEM(board, (size_t)((MYTHREAD + k) % THREADS) * 64 + k),
                     (long)r * 1000 + MYTHREAD);
        if (r % 7 == MYTHREAD % 7)
            usleep(200); /* skew */
        switch (r % 3) {
        case 0: upc_barrier(); break;
        case 1: upc_barrier(r); break; /* named, all agree */
        default: upc_barrier(MYTHREAD == 0 ? r : r); break;
        }
        for (int k = 0; k < fan; k++) {
            int t = (MYTHREAD - k + THREADS) % THREADS;
            long v = MUPC_GET(long, MUPC_ELEM(board, (size_t)MYTHREAD * 64 + k));
            CHECK(v == (long)r * 1000 + t, "round %d: slot of thread %d is %ld", r, t, v);
        }
        upc_barrier();
    }
    /* 2. Anonymous and named mixed: an anonymous barrier matches any name. */
    for (int r = 0; r < 50; r++) {
        if (MYTHREAD % 2)
            upc_barrier();
        else
            upc_barrier(12345);
    }
    /* 3. Split phase with work between notify and wait. */
    for (int r = 1; r <= ROUNDS; r++) {
        MUPC_PUT(long, MUPC_ELEM(counter, 2 * ((MYTHREAD + 1) % THREADS) + r % 2), (long)r);
        upc_notify(r);
        volatile double x = 0;
        for (int i = 0; i < 1000 * (MYTHREAD + 1); i++)
            x += i * 0.5;
        upc_wait(r);
        long v = MUPC_GET(long, MUPC_ELEM(counter, 2 * MYTHREAD + r % 2));
        CHECK(v == r, "split round %d: counter %ld", r, v);
    }
    /* 4. upc_fence between puts and a strict read of one's own writes. */
    /* slot 1: the neighbour read it in round 299, before our last phase */
    MUPC_PUT(long, MUPC_ELEM(counter, 2 * ((MYTHREAD + 1) % THREADS) + 1), -7);
    upc_fence;
    CHECK(MUPC_GET_STRICT(long, MUPC_ELEM(counter, 2 * ((MYTHREAD + 1) % THREADS) + 1)) == -7,
          "fence");
    upc_barrier();
    /* 4. Between its notify and its wait, thread 0 (a node's leader with
     *    shm) waits for a strict flag the last thread sets after its own
     *    wait: legal, since every thread has notified (UPC 1.3 §6.6.1), so
     *    the other threads' waits must complete while thread 0 computes. */
    mupc_ptr_t flag = MUPC_ELEM(counter, 0);
    if (MYTHREAD == 0)
        MUPC_PUT_STRICT(long, flag, 0);
    upc_barrier();
    for (int r = 0; r < 20 && THREADS > 1; r++) {
        upc_notify();
        if (MYTHREAD == 0) {
            while (MUPC_GET_STRICT(long, flag) != r + 1)
                ;
        }
        upc_wait();
        if (MYTHREAD == THREADS - 1)
            MUPC_PUT_STRICT(long, flag, r + 1);
        upc_barrier();
    }
    upc_barrier();
    if (MYTHREAD == 0)
        printf("test_barrier: %d threads OK\n", THREADS);
    return 0;
}
