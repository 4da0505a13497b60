/* SPDX-License-Identifier: MIT */
/* barriers.upc -- synchronization statements (UPC 1.3 §6.6.1):
 * upc_barrier, upc_barrier with an expression (same value on every
 * thread), split-phase upc_notify / upc_wait with local work between
 * them, upc_fence, and a strict flag handoff between thread 0 and thread
 * THREADS-1 (memory model, §5.1.2.3 / Appendix B: a strict write orders
 * the relaxed writes before it; a strict read orders the accesses after it). */
#include <upc.h>
#include <stdio.h>
#include <time.h>

#define NAME "barriers"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define ROUNDS 5
shared int slot[THREADS];
strict shared int flag;
shared [] int payload[4];        /* relaxed data, all on thread 0 (indefinite block size:
                                    no THREADS needed in the dimension) */
shared int rflag;                /* relaxed flag, used with upc_fence */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, r, total, left = (MYTHREAD + THREADS - 1) % THREADS;
    long work = 0;
    time_t start;

    for (r = 0; r < ROUNDS; r++) {
        slot[MYTHREAD] = 100 * r + MYTHREAD;
        upc_barrier;
        CHECK(slot[left] == 100 * r + left, "left neighbour's slot after upc_barrier");
        upc_barrier r;           /* expression: same value on every thread */
    }

    upc_barrier 42;
    upc_barrier (ROUNDS * 3 + 1);

    /* split phase: write, notify, private work, wait, read */
    for (r = 0; r < ROUNDS; r++) {
        slot[MYTHREAD] = 1000 + 10 * r + MYTHREAD;
        upc_notify;
        for (i = 0; i < 1000; i++)
            work += i % 7;       /* purely local work between notify and wait */
        upc_wait;
        CHECK(slot[left] == 1000 + 10 * r + left, "neighbour's slot after upc_notify/upc_wait");
        upc_notify r + 7;        /* matching expressions on notify and wait */
        upc_wait r + 7;
    }
    CHECK(work == ROUNDS * 2997L, "local work between upc_notify and upc_wait");

    /* strict flag handoff: thread 0 -> thread THREADS-1 */
    if (MYTHREAD == 0) {
        payload[0] = 1234;       /* relaxed writes ... */
        payload[1] = 5678;
        flag = 1;                /* ... complete before this strict write */
    }
    if (MYTHREAD == THREADS - 1) {
        start = time(NULL);
        while (flag != 1) {      /* strict reads */
            if (time(NULL) - start > 10) {
                CHECK(0, "timed out waiting for the strict flag");
                break;
            }
        }
        CHECK(payload[0] == 1234 && payload[1] == 5678, "relaxed data visible after strict flag handoff");
    }
    upc_barrier;

    /* upc_fence between relaxed writes and a relaxed flag */
    if (MYTHREAD == 0) {
        payload[2] = 91;
        upc_fence;
        rflag = 1;
    }
    if (MYTHREAD == THREADS - 1) {
        start = time(NULL);
        while (*(strict shared int *)&rflag != 1) {
            if (time(NULL) - start > 10) {
                CHECK(0, "timed out waiting for the fenced flag");
                break;
            }
        }
        upc_fence;
        CHECK(payload[2] == 91, "data written before upc_fence visible once the flag is seen");
    }
    upc_fence;                   /* a fence on every thread is harmless */

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
