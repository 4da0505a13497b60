/* SPDX-License-Identifier: MIT */
/* cyclic_array.upc -- a shared array with the default block size 1
 * (UPC 1.3 §6.5.1.1, §6.5.2.1: element i has affinity to thread
 * i mod THREADS) written by its owners through upc_forall with an
 * integer affinity expression (§6.6.2), then read by every thread. */
#include <upc.h>
#include <stdio.h>

#define NAME "cyclic_array"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define N 10
shared int a[N * THREADS];
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, mine = 0, all = 0, shifted = 0;

    /* integer affinity: iteration i runs on thread i % THREADS */
    upc_forall (i = 0; i < N * THREADS; i++; i) {
        CHECK(i % THREADS == MYTHREAD, "upc_forall integer affinity ran on wrong thread");
        CHECK(upc_threadof(&a[i]) == (size_t)MYTHREAD, "owner of a[i] in upc_forall");
        a[i] = 1000 * i + MYTHREAD;
        mine++;
    }
    CHECK(mine == N, "each thread runs N iterations of upc_forall(...; i)");

    /* affinity continue: every thread runs every iteration */
    upc_forall (i = 0; i < N * THREADS; i++; continue)
        all++;
    CHECK(all == N * THREADS, "upc_forall(...; continue) runs all iterations");

    /* integer affinity expression other than the index (non-negative) */
    upc_forall (i = 0; i < N * THREADS; i++; i + 1) {
        CHECK((i + 1) % THREADS == MYTHREAD, "upc_forall affinity i + 1");
        shifted++;
    }
    CHECK(shifted == N, "upc_forall(...; i + 1) iteration count");

    upc_barrier;

    for (i = 0; i < N * THREADS; i++) {
        CHECK(a[i] == 1000 * i + i % THREADS, "a[i] holds the value its owner wrote");
        CHECK(upc_threadof(&a[i]) == (size_t)(i % THREADS), "upc_threadof(&a[i]) == i % THREADS");
        CHECK(upc_phaseof(&a[i]) == 0, "upc_phaseof(&a[i]) == 0 for block size 1");
    }
    CHECK(upc_phaseof(&a) == 0, "upc_phaseof(&a) == 0");
    CHECK(upc_threadof(&a[0]) == 0, "a[0] is on thread 0");

    /* the C99 declaration form of upc_forall; a thread's elements are
     * distinct objects on that thread with consistent address fields */
    upc_forall (int j = 0; j < N * THREADS; j++; &a[j]) {
        CHECK(upc_threadof(&a[j]) == (size_t)MYTHREAD, "pointer affinity &a[j]");
        if (j + THREADS < N * THREADS)
            CHECK(upc_addrfield(&a[j + THREADS]) != upc_addrfield(&a[j]),
                  "distinct local elements have distinct address fields");
    }

    upc_barrier; /* all reads done before the next writes */
    upc_forall (i = 0; i < N * THREADS; i++; i)
        a[i] = -i;
    upc_barrier;
    for (i = N * THREADS - 1; i >= 0; i--)
        CHECK(a[i] == -i, "a[i] == -i after second upc_forall");

    /* this thread's k-th element, written in the idiom's four orders (mupcc
     * addresses it without dividing by THREADS) */
    upc_barrier;
    for (int k = 0; k < N; k++) {
        CHECK(&a[k * THREADS + MYTHREAD] == &a[MYTHREAD + THREADS * k] &&
                  upc_threadof(&a[THREADS * k + MYTHREAD]) == (size_t)MYTHREAD &&
                  upc_phaseof(&a[MYTHREAD + k * THREADS]) == 0,
              "a[k * THREADS + MYTHREAD] is this thread's element k");
        a[k * THREADS + MYTHREAD] = 100 * MYTHREAD + k;
    }
    upc_barrier;
    for (i = 0; i < N * THREADS; i++)
        CHECK(a[i] == 100 * (i % THREADS) + i / THREADS, "elements written through the idiom");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
