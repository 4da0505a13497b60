/* SPDX-License-Identifier: MIT */
/* pointer_loops.upc -- pointers-to-shared as loop variables and truth
 * values (UPC 1.3 §6.4.2): in for headers, while conditions, !p, p && q,
 * p ? x : y; a pointer stepped by THREADS visits this thread's elements. */
#include <upc.h>
#include <stdio.h>

shared int a[4 * THREADS];
shared int errs[THREADS];

int main(void)
{
    int errors = 0, n = 0;
    shared int *p, *end = &a[4 * THREADS - 1] + 1;
    for (p = &a[0]; p; p = 0)
        n++;
    if (n != 1)
        errors++, printf("Error: pointer_loops: a pointer as a for condition (thread %d)\n", MYTHREAD);
    n = 0;
    for (p = &a[MYTHREAD]; p < end; p += THREADS) {
        if (upc_threadof(p) != (size_t)MYTHREAD)
            errors++, printf("Error: pointer_loops: p += THREADS left this thread (thread %d)\n", MYTHREAD);
        *p = MYTHREAD;
        n++;
    }
    if (n != 4)
        errors++, printf("Error: pointer_loops: %d steps, want 4 (thread %d)\n", n, MYTHREAD);
    p = &a[0];
    shared int *q = 0;
    if (!p || q || (p && q) || !(p || q) || (q ? 1 : 0))
        errors++, printf("Error: pointer_loops: truth values of pointers (thread %d)\n", MYTHREAD);
    n = 0;
    while (p != end) {
        p++;
        n++;
    }
    if (n != 4 * THREADS)
        errors++, printf("Error: pointer_loops: while (p != end) ran %d times (thread %d)\n", n, MYTHREAD);
    upc_barrier;
    for (int i = 0; i < 4 * THREADS; i++)
        if (a[i] != i % THREADS)
            errors++, printf("Error: pointer_loops: a[%d] = %d (thread %d)\n", i, a[i], MYTHREAD);
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: pointer_loops\n");
    }
    return errors != 0;
}
