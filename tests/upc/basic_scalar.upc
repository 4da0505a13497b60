/* SPDX-License-Identifier: MIT */
/* basic_scalar.upc -- shared scalars of several types (UPC 1.3 §6.5.2:
 * "All shared objects created by non-array static declarators have
 * affinity with thread zero").  Thread 0 writes, barrier, every thread
 * reads; then the last thread updates them and everyone re-reads.
 * No static initializers for shared objects are used here. */
#include <upc.h>
#include <stdio.h>

#define NAME "basic_scalar"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int si;
shared long sl;
shared double sd;
shared char sc;
shared unsigned short sus;
shared long long sll;
shared float sf;
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total;
    static shared int blockscope; /* block-scope static shared object */

    if (MYTHREAD == 0) {
        si = 42;
        sl = 1234567L;
        sd = 2.5;
        sc = 'q';
        sus = 65000;
        sll = 1LL << 40;
        sf = 0.75f;
        blockscope = -7;
    }
    upc_barrier;

    CHECK(si == 42, "shared int read after barrier");
    CHECK(sl == 1234567L, "shared long read after barrier");
    CHECK(sd == 2.5, "shared double read after barrier");
    CHECK(sc == 'q', "shared char read after barrier");
    CHECK(sus == 65000, "shared unsigned short read after barrier");
    CHECK(sll == (1LL << 40), "shared long long read after barrier");
    CHECK(sf == 0.75f, "shared float read after barrier");
    CHECK(blockscope == -7, "block-scope static shared int read after barrier");

    CHECK(upc_threadof(&si) == 0, "upc_threadof(&si) == 0");
    CHECK(upc_threadof(&sl) == 0, "upc_threadof(&sl) == 0");
    CHECK(upc_threadof(&sd) == 0, "upc_threadof(&sd) == 0");
    CHECK(upc_threadof(&blockscope) == 0, "upc_threadof(&blockscope) == 0");
    CHECK(upc_phaseof(&si) == 0, "upc_phaseof(&si) == 0");
    CHECK(sizeof(si) == sizeof(int), "sizeof(shared int) == sizeof(int)");
    CHECK(sizeof sd == sizeof(double), "sizeof sd == sizeof(double)");

    /* shared values in private expressions */
    {
        int p = si * 2 + 1;
        double q = sd + si;
        long r = sl % 1000;
        CHECK(p == 85, "si * 2 + 1 == 85");
        CHECK(q == 44.5, "sd + si == 44.5");
        CHECK(r == 567, "sl % 1000 == 567");
        CHECK((si > 40 ? sc : 'x') == 'q', "shared operands of ?:");
    }
    upc_barrier; /* every thread has read before the values change */

    if (MYTHREAD == THREADS - 1) {
        si = si + 1;
        sl = sl * 2;
        sd = sd / 2;
        sc = sc + 1;
        blockscope = blockscope * 3;
    }
    upc_barrier;

    CHECK(si == 43, "si == 43 after update by last thread");
    CHECK(sl == 2469134L, "sl == 2469134 after update by last thread");
    CHECK(sd == 1.25, "sd == 1.25 after update by last thread");
    CHECK(sc == 'r', "sc == 'r' after update by last thread");
    CHECK(blockscope == -21, "blockscope == -21 after update");

    /* thread 0 may access its own shared scalar through a private pointer */
    if (MYTHREAD == 0) {
        int *lp = (int *)&si;
        CHECK(*lp == 43, "private pointer to si reads 43 on thread 0");
    }

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
