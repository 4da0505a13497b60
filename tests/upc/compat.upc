/* SPDX-License-Identifier: MIT */
/* compat.upc -- what older UPC programs and other implementations' users
 * rely on: UPC 1.2's upc_local_alloc and Berkeley/GCC UPC's upc_poll; an
 * implicit conversion from shared void * to a pointer with block size 1
 * gives phase 0, as a cast does (UPC 1.3 §6.4.3; Berkeley bug89); a file
 * with many implicit conversions from shared void * (each one a parse
 * error the translator turns into a cast) translates whole (bug595); a
 * parameter that points to a function taking pointers-to-shared (the MuPC
 * collectives reference implementation's upc_all_sort); C code that uses
 * shared, strict and relaxed as ordinary names (Berkeley bug899, Mesa's
 * headers). */
#include <upc.h>
#include <stdio.h>

#define NAME "compat"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int errs[THREADS];
strict shared int flag;

static int compare(shared void *x, shared void *y) { return *(shared int *)x - *(shared int *)y; }
static int apply(shared void *x, shared void *y, int (*func)(shared void *, shared void *))
{
    return func(x, y);
}
typedef int (*compare_t)(shared const void *, shared const void *, ...);

struct state { int shared; int strict; };
static int plus(struct state *shared, int relaxed) { return shared->shared + shared->strict + relaxed; }
static int alone(int shared) { return (shared) + (int)sizeof(shared) * 0 + ((shared)); }

int main(void)
{
    int errors = 0;
    shared [] int *r0, *r1, *r2, *r3, *r4, *r5, *r6, *r7, *r8, *r9, *r10, *r11, *r12, *r13, *r14, *r15, *r16, *r17, *r18, *r19, *r20, *r21, *r22, *r23, *r24;

    shared [] double *mine = upc_local_alloc(4, sizeof(double));
    CHECK(mine != NULL && upc_threadof(mine) == (size_t)MYTHREAD, "upc_local_alloc has affinity to the caller");
    for (int i = 0; i < 4; i++)
        mine[i] = i;
    CHECK(mine[3] == 3.0, "upc_local_alloc gives room for nblocks * nbytes");
    upc_free(mine);

    shared [10] int *blocked = upc_all_alloc(THREADS, 10 * sizeof(int));
    shared [10] int *at1 = &blocked[1];
    shared void *v = at1;
    shared int *cyclic = v; /* implicit: phase 0 */
    CHECK(upc_phaseof(at1) == 1, "the blocked pointer has phase 1");
    CHECK(upc_phaseof(cyclic) == 0, "an implicit conversion to block size 1 gives phase 0");
    CHECK(upc_phaseof((shared int *)v) == 0, "so does the cast");
    upc_barrier;
    if (MYTHREAD == 0)
        upc_free(blocked);

    r0 = upc_alloc(sizeof(int));
    r1 = upc_alloc(sizeof(int));
    r2 = upc_alloc(sizeof(int));
    r3 = upc_alloc(sizeof(int));
    r4 = upc_alloc(sizeof(int));
    r5 = upc_alloc(sizeof(int));
    r6 = upc_alloc(sizeof(int));
    r7 = upc_alloc(sizeof(int));
    r8 = upc_alloc(sizeof(int));
    r9 = upc_alloc(sizeof(int));
    r10 = upc_alloc(sizeof(int));
    r11 = upc_alloc(sizeof(int));
    r12 = upc_alloc(sizeof(int));
    r13 = upc_alloc(sizeof(int));
    r14 = upc_alloc(sizeof(int));
    r15 = upc_alloc(sizeof(int));
    r16 = upc_alloc(sizeof(int));
    r17 = upc_alloc(sizeof(int));
    r18 = upc_alloc(sizeof(int));
    r19 = upc_alloc(sizeof(int));
    r20 = upc_alloc(sizeof(int));
    r21 = upc_alloc(sizeof(int));
    r22 = upc_alloc(sizeof(int));
    r23 = upc_alloc(sizeof(int));
    r24 = upc_alloc(sizeof(int));
    CHECK(upc_threadof(r0) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r0);
    CHECK(upc_threadof(r1) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r1);
    CHECK(upc_threadof(r2) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r2);
    CHECK(upc_threadof(r3) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r3);
    CHECK(upc_threadof(r4) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r4);
    CHECK(upc_threadof(r5) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r5);
    CHECK(upc_threadof(r6) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r6);
    CHECK(upc_threadof(r7) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r7);
    CHECK(upc_threadof(r8) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r8);
    CHECK(upc_threadof(r9) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r9);
    CHECK(upc_threadof(r10) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r10);
    CHECK(upc_threadof(r11) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r11);
    CHECK(upc_threadof(r12) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r12);
    CHECK(upc_threadof(r13) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r13);
    CHECK(upc_threadof(r14) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r14);
    CHECK(upc_threadof(r15) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r15);
    CHECK(upc_threadof(r16) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r16);
    CHECK(upc_threadof(r17) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r17);
    CHECK(upc_threadof(r18) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r18);
    CHECK(upc_threadof(r19) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r19);
    CHECK(upc_threadof(r20) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r20);
    CHECK(upc_threadof(r21) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r21);
    CHECK(upc_threadof(r22) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r22);
    CHECK(upc_threadof(r23) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r23);
    CHECK(upc_threadof(r24) == (size_t)MYTHREAD, "upc_alloc through an implicit conversion");
    upc_free(r24);

    errs[MYTHREAD] = 10 * MYTHREAD;
    upc_barrier;
    int (*cmp)(shared void *, shared void *) = compare;
    CHECK(apply(&errs[THREADS - 1], &errs[0], cmp) == 10 * (THREADS - 1),
          "a function-pointer parameter taking pointers-to-shared");
    struct state st = {1, 2};
    st.shared += 10;
    CHECK(plus(&st, 100) == 113, "shared, strict and relaxed as names of a parameter and members");
    CHECK(alone(21) == 42, "(shared) and sizeof(shared) with shared a parameter's name");
    compare_t unused = 0;
    CHECK(unused == 0, "a variadic function-pointer type with pointers-to-shared");
    upc_barrier;

    if (MYTHREAD == 0)
        flag = 1;
    for (int spins = 0; !flag && spins < 100000000; spins++)
        upc_poll();
    CHECK(flag == 1, "upc_poll in a wait loop");

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
