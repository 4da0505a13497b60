/* SPDX-License-Identifier: MIT */
/* blocked_array.upc -- layout qualifiers (UPC 1.3 §6.5.1.1, §6.5.2.1):
 * shared [4] (definite), shared [*] (block size computed as
 * ceil(elements / THREADS)), shared [] (indefinite: all on thread 0),
 * and a block size that does not divide the array.  Element i of a
 * definitely blocked array with block size B is on thread
 * (i / B) mod THREADS with phase i mod B.  upc_forall uses
 * pointer-to-shared affinity expressions (§6.6.2). */
#include <upc.h>
#include <stdio.h>

#define NAME "blocked_array"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared [4] double b[4 * THREADS];
shared [*] int c[8 * THREADS];     /* block size (8*THREADS + THREADS-1)/THREADS = 8 */
shared [] long d[16];              /* indefinite block size: all on thread 0 */
shared [3] short e[5 * THREADS];   /* last block may be partial */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, nb = 0, nd = 0;

    upc_forall (i = 0; i < 4 * THREADS; i++; &b[i]) {
        CHECK(i / 4 == MYTHREAD, "upc_forall(&b[i]) ran on the owner of block i/4");
        b[i] = i * 0.5 + MYTHREAD;
        nb++;
    }
    CHECK(nb == 4, "each thread owns 4 elements of b");

    upc_forall (i = 0; i < 8 * THREADS; i++; &c[i])
        c[i] = 100 * MYTHREAD + i;

    upc_forall (i = 0; i < 16; i++; &d[i]) {
        CHECK(MYTHREAD == 0, "upc_forall(&d[i]) runs only on thread 0");
        d[i] = 1000L + i;
        nd++;
    }
    CHECK(nd == (MYTHREAD == 0 ? 16 : 0), "iterations over the indefinite array");

    upc_forall (i = 0; i < 5 * THREADS; i++; &e[i])
        e[i] = (short)(10 * i + MYTHREAD);

    upc_barrier;

    for (i = 0; i < 4 * THREADS; i++) {
        CHECK(b[i] == i * 0.5 + i / 4, "b[i] written by its owner");
        CHECK(upc_threadof(&b[i]) == (size_t)(i / 4), "upc_threadof(&b[i]) == i/4");
        CHECK(upc_phaseof(&b[i]) == (size_t)(i % 4), "upc_phaseof(&b[i]) == i%4");
    }
    for (i = 0; i < 8 * THREADS; i++) {
        CHECK(c[i] == 100 * (i / 8) + i, "c[i] written by its owner ([*] block size 8)");
        CHECK(upc_threadof(&c[i]) == (size_t)(i / 8), "upc_threadof(&c[i]) == i/8");
        CHECK(upc_phaseof(&c[i]) == (size_t)(i % 8), "upc_phaseof(&c[i]) == i%8");
    }
    for (i = 0; i < 16; i++) {
        CHECK(d[i] == 1000L + i, "d[i] written by thread 0");
        CHECK(upc_threadof(&d[i]) == 0, "indefinite block size: everything on thread 0");
        CHECK(upc_phaseof(&d[i]) == 0, "indefinite block size: phase always 0");
    }
    for (i = 0; i < 5 * THREADS; i++) {
        CHECK(e[i] == 10 * i + (i / 3) % THREADS, "e[i] written by its owner");
        CHECK(upc_threadof(&e[i]) == (size_t)((i / 3) % THREADS), "upc_threadof(&e[i]) == (i/3)%THREADS");
        CHECK(upc_phaseof(&e[i]) == (size_t)(i % 3), "upc_phaseof(&e[i]) == i%3");
    }

    /* within one block, elements are consecutive in the owner's space */
    for (i = 0; i + 1 < 4 * THREADS; i++)
        if ((i + 1) % 4 != 0)
            CHECK(upc_addrfield(&b[i + 1]) - upc_addrfield(&b[i]) == sizeof(double),
                  "addrfield step within a block of b is sizeof(double)");
    for (i = 0; i + 1 < 16; i++)
        CHECK(upc_addrfield(&d[i + 1]) - upc_addrfield(&d[i]) == sizeof(long),
              "addrfield step in the indefinite array is sizeof(long)");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
