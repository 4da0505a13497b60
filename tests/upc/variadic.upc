/* SPDX-License-Identifier: MIT */
/* variadic.upc -- pointers-to-shared through a variadic function's
 * arguments: va_arg(ap, T) with T a pointer-to-shared of several layouts,
 * written either way round (`int shared *`), and a pointer to one
 * (Berkeley bug 137).  Each is compared with the pointer passed. */
#include <upc.h>
#include <stdarg.h>
#include <stdio.h>

#define NAME "variadic"

shared int si[THREADS];
shared [4] int blocked[4 * THREADS];
shared long got[THREADS];

static int take(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    got[MYTHREAD] = va_arg(ap, int); /* va_arg converted as it is stored */
    int x = (int)got[MYTHREAD];
    shared int *p = va_arg(ap, int shared *);
    shared [] int *q = va_arg(ap, shared [] int *);
    shared [4] int *r = va_arg(ap, shared [4] int *);
    shared void **pp = va_arg(ap, shared void **);
    va_end(ap);
    int next = (MYTHREAD + 1) % THREADS;
    return x == n && p == &si[next] && q == (shared [] int *)&si[next] && r == &blocked[5] &&
           *pp == (shared void *)&si[next] && *p == next + 1;
}

int main(void)
{
    si[MYTHREAD] = MYTHREAD + 1;
    upc_barrier;
    int next = (MYTHREAD + 1) % THREADS;
    shared void *v = &si[next];
    int ok = take(7, 7, &si[next], (shared [] int *)&si[next], &blocked[5], &v);
    if (!ok)
        printf("Error: %s: a pointer-to-shared changed through va_arg (thread %d)\n", NAME, (int)MYTHREAD);
    upc_barrier;
    if (ok)
        printf("Success: %s\n", NAME);
    return !ok;
}
