/* SPDX-License-Identifier: MIT */
/* pointers.upc -- pointers-to-shared (UPC 1.3 §6.4.2 arithmetic,
 * difference and equality, §6.4.3 casts, §7.2.3 upc_threadof /
 * upc_phaseof / upc_resetphase / upc_addrfield). */
#include <upc.h>
#include <stdio.h>
#include <stddef.h>

#define NAME "pointers"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int a[16 * THREADS];    /* at least 16 elements even for THREADS == 1 */
shared [4] int b4[8 * THREADS]; /* at least 8 elements */
shared int loc[2 * THREADS];
shared int *shared sp;               /* a shared pointer-to-shared, on thread 0 */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total;
    shared int *p, *q;
    shared [4] int *pb, *r;

    p = &a[0];
    p += 3;
    CHECK(p == &a[3], "p += 3 gives &a[3]");
    CHECK(upc_threadof(p) == (size_t)(3 % THREADS), "upc_threadof(&a[0] + 3)");
    p++;
    CHECK(p == &a[4] && p == a + 4, "p++ gives &a[4] (== a + 4)");
    if (MYTHREAD == 0) {
        *p = 44;      /* a[4] */
        p[2] = 66;    /* a[6] */
        *(a + 7) = 77;
    }
    q = &a[10];
    CHECK(q - p == 6 && p - q == -6, "pointer difference &a[10] - &a[4] == 6");
    CHECK(p != q && !(p == q), "== and != on different elements");
    CHECK(p < q && q > p && p <= p && q >= p, "relational operators on &a[4], &a[10]");
    q = p - 1;
    CHECK(q == &a[3] && --q == &a[2], "pointer decrement");
    CHECK(p, "non-null pointer-to-shared is true");

    /* blocked pointer arithmetic: thread and phase per §6.4.2 */
    pb = &b4[0];
    pb += 5;
    CHECK(pb == &b4[5], "&b4[0] + 5 == &b4[5]");
    CHECK(upc_threadof(pb) == (size_t)(1 % THREADS) && upc_phaseof(pb) == 1,
          "&b4[5] has thread 1 mod THREADS and phase 1");
    CHECK(pb - &b4[0] == 5, "&b4[5] - &b4[0] == 5");
    pb = &b4[2];
    r = upc_resetphase(pb);
    CHECK(upc_phaseof(r) == 0, "upc_resetphase gives phase 0");
    CHECK(upc_threadof(r) == upc_threadof(pb) && upc_addrfield(r) == upc_addrfield(pb),
          "upc_resetphase keeps thread and address");
    CHECK(r == pb && !(r != pb), "pointers with equal thread/address compare equal whatever the phase");
    CHECK(upc_phaseof(pb) == 2, "&b4[2] has phase 2");

    /* generic pointer-to-shared keeps the phase (§6.4.3) */
    {
        shared void *gv = &a[5];
        shared int *back = (shared int *)gv;
        shared void *gv2 = pb;
        shared [4] int *pb2 = (shared [4] int *)gv2;
        CHECK(back == &a[5] && upc_threadof(gv) == (size_t)(5 % THREADS),
              "shared int * -> shared void * -> shared int *");
        CHECK(upc_phaseof(gv2) == 2, "shared void * keeps the phase");
        CHECK(pb2 == pb && upc_phaseof(pb2) == 2, "shared void * -> shared [4] int * keeps phase 2");
        /* a cast between different block sizes gives phase 0 */
        back = (shared int *)&b4[6];
        CHECK(upc_phaseof(back) == 0 && upc_threadof(back) == upc_threadof(&b4[6]) &&
                  upc_addrfield(back) == upc_addrfield(&b4[6]),
              "(shared int *)&b4[6]: same thread and address, phase 0");
    }

    /* null pointer-to-shared */
    {
        shared int *np = NULL;
        shared void *gn = 0;
        CHECK(np == 0 && !np && gn == 0, "null pointer-to-shared");
        CHECK((int *)np == NULL, "null pointer-to-shared cast to pointer-to-local is null");
        np = &a[1];
        CHECK(np != 0 && np, "non-null compares unequal to 0");
    }

    /* pointer-to-local to shared data with local affinity */
    {
        int *lp = (int *)&loc[MYTHREAD];
        int *lp2 = (int *)&loc[MYTHREAD + THREADS];
        *lp = 100 + MYTHREAD;
        *lp2 = 200 + MYTHREAD;
        CHECK(loc[MYTHREAD] == 100 + MYTHREAD, "write through pointer-to-local, read through shared");
        CHECK((ptrdiff_t)upc_addrfield(&loc[MYTHREAD + THREADS]) -
                  (ptrdiff_t)upc_addrfield(&loc[MYTHREAD]) ==
              (lp2 - lp) * (ptrdiff_t)sizeof(int),
              "addrfield difference matches pointer-to-local difference");
    }

    if (MYTHREAD == 0)
        sp = &a[THREADS - 1];
    upc_barrier;

    CHECK(a[4] == 44 && a[6] == 66 && a[7] == 77, "writes through p, p[2], *(a + 7)");
    CHECK(sp == &a[THREADS - 1] && upc_threadof(sp) == (size_t)(THREADS - 1),
          "shared pointer-to-shared read by every thread");
    for (i = 0; i < THREADS; i++) {
        CHECK(loc[i] == 100 + i && loc[i + THREADS] == 200 + i,
              "values stored through other threads' pointers-to-local");
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
