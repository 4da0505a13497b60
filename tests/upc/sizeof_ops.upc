/* SPDX-License-Identifier: MIT */
/* sizeof_ops.upc -- upc_localsizeof, upc_blocksizeof, upc_elemsizeof
 * (UPC 1.3 §6.4.1), sizeof on shared arrays (not a constant for a
 * definitely blocked array in the dynamic THREADS environment, §6.4.1.1),
 * the [*] block size rule (§6.5.1.1) and upc_affinitysize (§7.2.3.5).
 * upc_localsizeof is only an upper bound that "may include an unspecified
 * amount of padding", so it is checked with >=. */
#include <upc.h>
#include <stdio.h>

#define NAME "sizeof_ops"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int a[10 * THREADS];
shared [4] double b[4 * THREADS];
shared [*] int c[8 * THREADS];     /* block size 8 */
shared [] long d[16];
shared [3] short e[5 * THREADS];
shared int m[THREADS][8];
shared int s;
shared size_t lsz[THREADS];
shared int errs[THREADS];

/* upc_blocksizeof and upc_elemsizeof give integer constants */
enum { BS_B = upc_blocksizeof(b), BS_D = upc_blocksizeof(d), ES_B = upc_elemsizeof(b) };
/* upc_localsizeof too, even of a THREADS-sized array (§6.4.1.1) */
static char local_copy[upc_localsizeof(a)];
enum { LS_A = upc_localsizeof(a), LS_S = upc_localsizeof(s) };

static int calls;
static int f(void) { return ++calls; }

int main(void)
{
    int errors = 0;
    int i, t, total;

    CHECK(BS_B == 4 && BS_D == 0 && ES_B == sizeof(double), "constant uses of the UPC size operators");

    CHECK(upc_blocksizeof(a) == 1, "upc_blocksizeof: no layout qualifier gives 1");
    CHECK(upc_blocksizeof(b) == 4, "upc_blocksizeof(b) == 4");
    CHECK(upc_blocksizeof(c) == 8, "upc_blocksizeof of [*] array of 8*THREADS == 8");
    CHECK(upc_blocksizeof(d) == 0, "upc_blocksizeof of indefinite array == 0");
    CHECK(upc_blocksizeof(e) == 3, "upc_blocksizeof(e) == 3");
    CHECK(upc_blocksizeof(s) == 1, "upc_blocksizeof(shared scalar) == 1");
    CHECK(upc_blocksizeof(shared [7] char) == 7, "upc_blocksizeof(type-name)");

    CHECK(upc_elemsizeof(a) == sizeof(int), "upc_elemsizeof(a)");
    CHECK(upc_elemsizeof(b) == sizeof(double), "upc_elemsizeof(b)");
    CHECK(upc_elemsizeof(d) == sizeof(long), "upc_elemsizeof(d)");
    CHECK(upc_elemsizeof(m) == sizeof(int), "upc_elemsizeof of a 2-D array is the scalar size");
    CHECK(upc_elemsizeof(s) == sizeof(int), "upc_elemsizeof(scalar) == sizeof");
    CHECK(upc_elemsizeof(shared double) == sizeof(double), "upc_elemsizeof(type-name)");

    CHECK(upc_localsizeof(a) >= 10 * sizeof(int), "upc_localsizeof(a) >= 10 ints");
    /* *&a is a: the THREADS dimension counts (Berkeley bug3057/bug3058) */
    CHECK(sizeof(*&a) == 10 * THREADS * sizeof(int), "sizeof(*&a) counts THREADS");
    CHECK(sizeof(*&m) == sizeof m, "sizeof(*&m) == sizeof m");
    CHECK(upc_localsizeof(*&a) == upc_localsizeof(a), "upc_localsizeof(*&a) == upc_localsizeof(a)");
    CHECK(sizeof(shared int [10 * THREADS]) == sizeof a, "sizeof of the array's type name counts THREADS");
    CHECK(&m[0 * THREADS + MYTHREAD][0] == &m[MYTHREAD][0],
          "m[X * THREADS + MYTHREAD] of an array of rows is row X * THREADS + MYTHREAD");
    CHECK(LS_A == upc_localsizeof(a) && sizeof local_copy == upc_localsizeof(a) && LS_S >= sizeof(int),
          "upc_localsizeof is an integer constant");
    CHECK(upc_localsizeof(b) >= 4 * sizeof(double), "upc_localsizeof(b) >= 4 doubles");
    CHECK(upc_localsizeof(c) >= 8 * sizeof(int), "upc_localsizeof(c) >= 8 ints");
    CHECK(upc_localsizeof(d) >= 16 * sizeof(long), "upc_localsizeof(d) >= 16 longs");
    CHECK(upc_localsizeof(s) >= sizeof(int), "upc_localsizeof(scalar)");
    CHECK(upc_localsizeof(m[0]) >= (8 + THREADS - 1) / THREADS * sizeof(int),
          "upc_localsizeof of a row: at least each thread's share of its 8 ints");

    /* operands are not evaluated */
    calls = 0;
    CHECK(upc_localsizeof(a[f()]) >= sizeof(int) && upc_blocksizeof(a[f()]) == 1 &&
              upc_elemsizeof(a[f()]) == sizeof(int) && sizeof(a[f()]) == sizeof(int),
          "size operators on a[f()]");
    CHECK(calls == 0, "operands of the size operators are not evaluated");

    /* sizeof of type names written with shared: a pointer-to-shared has
     * one size whatever it points to; a shared scalar type is its C size */
    CHECK(sizeof(shared int *) == sizeof(shared [4] double *) && sizeof(shared void *) == sizeof(a + 1),
          "sizeof(shared T *) is the size of a pointer-to-shared");
    CHECK(sizeof(shared int) == sizeof(int) && sizeof(strict shared double) == sizeof(double),
          "sizeof(shared T) == sizeof(T)");
    CHECK(sizeof(shared int *[3]) == 3 * sizeof(shared int *), "sizeof an array of pointers-to-shared");

    /* sizeof: run-time values where THREADS is involved */
    CHECK(sizeof(a) == 10 * THREADS * sizeof(int), "sizeof(a) == 10*THREADS*sizeof(int)");
    CHECK(sizeof(a) / sizeof(a[0]) == 10 * (size_t)THREADS, "sizeof(a)/sizeof(a[0])");
    CHECK(sizeof(b) / sizeof(b[0]) == 4 * (size_t)THREADS, "sizeof(b)/sizeof(b[0])");
    CHECK(sizeof(c) == 8 * THREADS * sizeof(int), "sizeof([*] array)");
    CHECK(sizeof(d) == 16 * sizeof(long), "sizeof(indefinite array) is a constant 16 longs");
    CHECK(sizeof(m) / sizeof(m[0]) == (size_t)THREADS, "sizeof(m)/sizeof(m[0]) == THREADS");
    CHECK(sizeof(m[0]) == 8 * sizeof(int), "sizeof(m[0]) == 8 ints");
    CHECK(sizeof(s) == sizeof(int), "sizeof(shared int scalar)");

    /* upc_affinitysize agrees with the layout of e and b; upc_localsizeof(e)
     * is at least the largest per-thread part of e */
    for (t = 0; t < THREADS; t++) {
        size_t want = 0;
        for (i = 0; i < 5 * THREADS; i++)
            if ((i / 3) % THREADS == t)
                want += sizeof(short);
        CHECK(upc_affinitysize(sizeof(e), upc_blocksizeof(e) * upc_elemsizeof(e), t) == want,
              "upc_affinitysize for e");
        CHECK(upc_localsizeof(e) >= want, "upc_localsizeof(e) >= the part of e on any thread");
        CHECK(upc_affinitysize(sizeof(b), 4 * sizeof(double), t) == 4 * sizeof(double),
              "upc_affinitysize for b");
        CHECK(upc_affinitysize(sizeof(d), 0, t) == (t == 0 ? sizeof(d) : 0),
              "upc_affinitysize for an indefinite block size");
    }

    /* upc_localsizeof has the same value on every thread */
    lsz[MYTHREAD] = upc_localsizeof(e);
    upc_barrier;
    for (t = 0; t < THREADS; t++)
        CHECK(lsz[t] == upc_localsizeof(e), "upc_localsizeof(e) equal on all threads");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
