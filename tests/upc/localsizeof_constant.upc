/* SPDX-License-Identifier: MIT */
/* localsizeof_constant.upc -- upc_localsizeof is an integer constant (UPC
 * 1.3 §6.4.1.1), also of a type with no THREADS in a dimension in the
 * dynamic THREADS environment (the bound for THREADS = 1: every thread's
 * part fits in it), so it may be a block size (Berkeley's bug2960); with
 * static THREADS (translator.sh compiles this with -T 2 too) a `shared [*]`
 * type name takes the block size its declaration would. */
#include <upc.h>
#include <stdio.h>

#define NAME "localsizeof_constant"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

typedef shared [1] float T2[100];
typedef shared [] short T3[4321];
shared [upc_localsizeof(T2)] char tmp2[THREADS]; /* a block size: a constant */
shared [upc_localsizeof(T3)] char tmp3[THREADS];
shared [8] int (*r)[20];
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    CHECK(upc_blocksizeof(tmp2) == upc_localsizeof(T2), "upc_localsizeof(T2) as a block size");
    CHECK(upc_localsizeof(T2) >= sizeof(float) * upc_affinitysize(100, 1, 0), "upc_localsizeof(T2) bounds thread 0's part");
    CHECK(upc_localsizeof(T2) <= sizeof(T2), "upc_localsizeof(T2) at most the whole");
    CHECK(upc_localsizeof(T3) == sizeof(short) * 4321, "upc_localsizeof(T3), all on one thread");
    CHECK(upc_localsizeof(*r) >= sizeof(int) * upc_affinitysize(20, 8, 0), "upc_localsizeof(*r) bounds thread 0's part");
#if __UPC_STATIC_THREADS__
    CHECK(upc_localsizeof(shared [*] int [78]) == sizeof(int) * ((78 + THREADS - 1) / THREADS),
          "upc_localsizeof of a [*] type name: one block of ceil(78 / THREADS)");
    CHECK(upc_blocksizeof(shared [*] int [90]) == (90 + THREADS - 1) / THREADS, "upc_blocksizeof of a [*] type name");
#endif
    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
