/* SPDX-License-Identifier: MIT */
/* compound.upc -- compound assignment, increment and decrement on shared
 * lvalues (C99 §6.5.16.2, §6.5.2.4, §6.5.3.1 applied to shared-qualified
 * objects, UPC 1.3 §6.4): each operator's result value and the stored
 * value, on a local and on a remote element, and a subscript with a side
 * effect that must be evaluated exactly once. */
#include <upc.h>
#include <stdio.h>

#define NAME "compound"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int a[4 * THREADS];
shared double dv[THREADS];
shared int errs[THREADS];

static int calls; /* private: one per thread */
static int f(int v) { calls++; return v; }

/* Runs the sequence on element k (owned by this thread alone in the test). */
static int exercise(int k)
{
    int errors = 0, r;
    a[k] = 5;
    r = (a[k] += 3);  CHECK(r == 8 && a[k] == 8, "a[k] += 3");
    r = a[k]++;       CHECK(r == 8 && a[k] == 9, "a[k]++ yields old value");
    r = ++a[k];       CHECK(r == 10 && a[k] == 10, "++a[k] yields new value");
    r = (a[k] *= 2);  CHECK(r == 20 && a[k] == 20, "a[k] *= 2");
    r = (a[k] -= 4);  CHECK(r == 16 && a[k] == 16, "a[k] -= 4");
    r = (a[k] /= 2);  CHECK(r == 8 && a[k] == 8, "a[k] /= 2");
    r = (a[k] %= 5);  CHECK(r == 3 && a[k] == 3, "a[k] %= 5");
    r = (a[k] <<= 2); CHECK(r == 12 && a[k] == 12, "a[k] <<= 2");
    r = (a[k] |= 1);  CHECK(r == 13 && a[k] == 13, "a[k] |= 1");
    r = (a[k] ^= 3);  CHECK(r == 14 && a[k] == 14, "a[k] ^= 3");
    r = (a[k] &= 6);  CHECK(r == 6 && a[k] == 6, "a[k] &= 6");
    r = (a[k] >>= 1); CHECK(r == 3 && a[k] == 3, "a[k] >>= 1");
    r = a[k]--;       CHECK(r == 3 && a[k] == 2, "a[k]-- yields old value");
    r = --a[k];       CHECK(r == 1 && a[k] == 1, "--a[k] yields new value");

    calls = 0;
    a[f(k)] += 1;
    CHECK(calls == 1, "a[f()] += 1 evaluates f() exactly once");
    CHECK(a[k] == 2, "a[f()] += 1 stores into a[k]");
    calls = 0;
    a[f(k)]++;
    CHECK(calls == 1 && a[k] == 3, "a[f()]++ evaluates f() once and increments");
    calls = 0;
    --a[f(k)];
    CHECK(calls == 1 && a[k] == 2, "--a[f()] evaluates f() once and decrements");

    {   /* through a pointer-to-shared */
        shared int *p = &a[k];
        *p += 10;
        p[0]++;
        (*p) *= 3;
        CHECK(a[k] == 39, "compound assignment through a pointer-to-shared");
        calls = 0;
        *(p + f(0)) -= 9;
        CHECK(calls == 1 && a[k] == 30, "*(p + f(0)) -= 9 evaluates f() once");
    }
    return errors;
}

int main(void)
{
    int errors = 0;
    int i, total, right = (MYTHREAD + 1) % THREADS;

    /* a[MYTHREAD] is local; a[2*THREADS + right] is on thread `right`
     * (remote when THREADS > 1) and only this thread touches it. */
    errors += exercise(MYTHREAD);
    errors += exercise(2 * THREADS + right);

    dv[MYTHREAD] = 1.5;
    dv[MYTHREAD] *= 4;
    dv[MYTHREAD] += 0.5;
    dv[MYTHREAD]++;
    CHECK(dv[MYTHREAD] == 7.5, "compound assignment on shared double");

    a[THREADS + MYTHREAD] = a[3 * THREADS + MYTHREAD] = 7;
    CHECK(a[THREADS + MYTHREAD] == 7, "chained assignment between shared elements");

    upc_barrier;
    for (i = 0; i < THREADS; i++) {
        CHECK(a[i] == 30, "final value of the local element of each thread");
        CHECK(a[2 * THREADS + i] == 30, "final value of each remotely updated element");
        CHECK(a[THREADS + i] == 7 && a[3 * THREADS + i] == 7, "chained assignment values");
        CHECK(dv[i] == 7.5, "dv[i] == 7.5 seen from every thread");
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
