/* SPDX-License-Identifier: MIT */
/* dynamic.upc -- dynamic shared memory (UPC 1.3 §7.2.2): upc_all_alloc
 * (collective, same pointer on every thread), upc_global_alloc (one
 * thread, pointer shared through a shared pointer), upc_alloc (space
 * with affinity to the caller), upc_free and upc_all_free.
 * upc_all_alloc(n, b) / upc_global_alloc(n, b) give space laid out as
 * `shared [b] char[n*b]`. */
#include <upc.h>
#include <stdio.h>

#define NAME "dynamic"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define N 6
shared int *shared first;            /* thread 0's upc_all_alloc result */
shared [5] int *shared gp;           /* the upc_global_alloc result */
shared [] int *shared mine[THREADS]; /* each thread's upc_alloc result */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, right = (MYTHREAD + 1) % THREADS;
    shared int *da;
    shared [] int *la;
    shared char *tmp;

    /* cyclic int array of N*THREADS elements: one int per block */
    da = (shared int *)upc_all_alloc(N * THREADS, sizeof(int));
    CHECK(da != 0, "upc_all_alloc returned non-null");
    if (MYTHREAD == 0)
        first = da;
    upc_forall (i = 0; i < N * THREADS; i++; &da[i]) {
        CHECK(upc_threadof(&da[i]) == (size_t)(i % THREADS), "upc_all_alloc'd da[i] on thread i % THREADS");
        da[i] = 3 * i;
    }

    /* blocked array of 5 ints per thread from one thread */
    if (MYTHREAD == THREADS - 1)
        gp = (shared [5] int *)upc_global_alloc(THREADS, 5 * sizeof(int));

    /* 10 ints with affinity to this thread */
    la = (shared [] int *)upc_alloc(10 * sizeof(int));
    CHECK(la != 0, "upc_alloc returned non-null");
    CHECK(upc_threadof(la) == (size_t)MYTHREAD, "upc_alloc space has affinity to the caller");
    for (i = 0; i < 10; i++)
        la[i] = 100 * MYTHREAD + i;
    mine[MYTHREAD] = la;

    upc_barrier;

    CHECK(da == first, "upc_all_alloc returns the same pointer on every thread");
    for (i = 0; i < N * THREADS; i++)
        CHECK(da[i] == 3 * i, "da[i] read back by every thread");
    CHECK(gp != 0, "upc_global_alloc returned non-null");
    for (i = 0; i < 5; i++) {
        CHECK(upc_threadof(&gp[5 * MYTHREAD + i]) == (size_t)MYTHREAD, "gp block i on thread i");
        gp[5 * MYTHREAD + i] = 7 * MYTHREAD + i;
    }
    for (i = 0; i < 10; i++) {
        CHECK(mine[right][i] == 100 * right + i, "neighbour's upc_alloc'd data");
        CHECK(upc_threadof(&mine[right][i]) == (size_t)right, "upc_alloc'd data stays on its owner");
    }

    upc_barrier;

    for (i = 0; i < 5 * THREADS; i++)
        CHECK(gp[i] == 7 * (i / 5) + i % 5, "gp[i] written by its owner");

    /* a second collective allocation, released collectively */
    tmp = (shared char *)upc_all_alloc(THREADS, 1);
    CHECK(tmp != 0, "second upc_all_alloc");
    tmp[MYTHREAD] = (char)('a' + MYTHREAD);

    upc_barrier;   /* everyone is done with da, gp and la */

    CHECK(tmp[right] == (char)('a' + right), "neighbour's char in the second allocation");
    upc_free(la);
    if (MYTHREAD == 0)
        upc_free(da);
    if (MYTHREAD == THREADS - 1)
        upc_free(gp);
    upc_free((shared void *)0);  /* freeing the null pointer-to-shared has no effect */
    upc_free(NULL);              /* so does NULL, converted to a pointer-to-shared */
    CHECK(upc_threadof(NULL) == 0 && upc_phaseof(NULL) == 0 && upc_addrfield(NULL) == 0,
          "upc_threadof/phaseof/addrfield(NULL) are 0");
    upc_barrier;   /* tmp read on every thread before it is freed */
    upc_all_free(tmp);

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
