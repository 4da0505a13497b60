/* SPDX-License-Identifier: MIT */
/* library_constants.upc -- the library's constants as UPC 1.3 defines
 * them, and a pointer-to-shared converted to an integer:
 * - the collectives' synchronization flags are distinct positive integer
 *   constants usable in #if (required library §7.3.1), and ALLSYNC given
 *   explicitly means what leaving it out means;
 * - upc_atomichint_t and the UPC_ATOMIC_HINT_* constants (optional library
 *   §7.6.3) are there at translation time;
 * - a cast of a pointer-to-shared to an integer type is accepted (C99
 *   §6.3.2.3 makes it implementation-defined): null gives 0, equal
 *   pointers give equal integers, and the low bits keep the alignment. */
#include <upc.h>
#include <upc_collective.h>
#include <upc_atomic.h>
#include <stdint.h>
#include <stdio.h>

#define NAME "library_constants"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#if !(UPC_IN_ALLSYNC > 0 && UPC_IN_MYSYNC > 0 && UPC_IN_NOSYNC > 0 && UPC_OUT_ALLSYNC > 0 && \
      UPC_OUT_MYSYNC > 0 && UPC_OUT_NOSYNC > 0)
#error the synchronization flags must be positive constants usable in #if
#endif

shared long src[THREADS];
shared long sum;
shared double cells[4 * THREADS];
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    const upc_flag_t flags[] = {UPC_IN_ALLSYNC, UPC_IN_MYSYNC, UPC_IN_NOSYNC,
                                UPC_OUT_ALLSYNC, UPC_OUT_MYSYNC, UPC_OUT_NOSYNC};
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < i; j++)
            CHECK(flags[i] != flags[j], "synchronization flags are distinct");

    src[MYTHREAD] = MYTHREAD + 1;
    upc_all_reduceL(&sum, src, UPC_ADD, THREADS, 1, NULL, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
    CHECK(sum == (long)THREADS * (THREADS + 1) / 2, "reduce with explicit ALLSYNC flags");
    upc_all_reduceL(&sum, src, UPC_MAX, THREADS, 1, NULL, UPC_IN_ALLSYNC);
    CHECK(sum == THREADS, "reduce with UPC_IN_ALLSYNC alone");

    upc_atomichint_t hint = UPC_ATOMIC_HINT_LATENCY;
    CHECK(UPC_ATOMIC_HINT_DEFAULT != UPC_ATOMIC_HINT_THROUGHPUT, "atomic hints are distinct");
    upc_atomicdomain_t *domain = upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD, hint);
    CHECK(domain != NULL, "a domain allocated with a hint");
    upc_all_atomicdomain_free(domain);

    shared double *p = &cells[MYTHREAD], *null = NULL;
    uintptr_t a = (uintptr_t)p, b = (uintptr_t)(shared void *)&cells[MYTHREAD];
    unsigned long long c = (unsigned long long)&cells[THREADS + MYTHREAD];
    CHECK((uintptr_t)null == 0, "a null pointer-to-shared converts to 0");
    CHECK(a == b, "equal pointers-to-shared convert to equal integers");
    CHECK(a % _Alignof(double) == 0, "the integer keeps the element's alignment");
    CHECK(c != a, "different elements convert to different integers");
    CHECK((long)(intptr_t)p == (long)a, "signed and unsigned conversions agree");

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
