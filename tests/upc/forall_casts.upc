/* SPDX-License-Identifier: MIT */
/* forall_casts.upc -- a upc_forall affinity that is written with UPC
 * syntax itself: a cast to `shared void *` (UPC 1.3 §6.6.2: a
 * pointer-to-shared affinity), written out and through a macro, and
 * declarations after such loops (a typedef of a shared type and a static
 * shared object at file scope, which the token pass must still see as
 * file-scope declarations). */
#include <upc.h>
#include <stdio.h>

#define NAME "forall_casts"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)
#define AFFINITY(x) ((shared void *)&(x))

shared int a[8 * THREADS];
shared [3] double b[3 * THREADS];
shared int errs[THREADS];

static int errors;

static int fill(void)
{
    int i, mine = 0;
    upc_forall (i = 0; i < 8 * THREADS; i++; (shared void *)&a[i]) {
        CHECK(upc_threadof(&a[i]) == (size_t)MYTHREAD, "a cast affinity runs the owner's iterations");
        a[i] = i;
        mine++;
    }
    upc_forall (i = 0; i < 3 * THREADS; i++; AFFINITY(b[i])) {
        CHECK(upc_threadof(&b[i]) == (size_t)MYTHREAD, "a macro's cast affinity runs the owner's iterations");
        b[i] = 0.5 * i;
    }
    upc_forall (i = 0; i < THREADS; i++; continue)
        mine += 0;
    return mine;
}

/* file-scope declarations after the loops above (and `shared` repeated through a typedef) */
typedef shared [2] int pair_t;
static shared pair_t pairs[2 * THREADS]; /* shared repeated through the typedef (C99 §6.7.3) */

int main(void)
{
    CHECK(fill() == 8, "each thread runs 8 of the 8*THREADS iterations");
    pairs[2 * MYTHREAD] = MYTHREAD;
    upc_barrier;
    for (int i = 0; i < 8 * THREADS; i++)
        CHECK(a[i] == i, "every element written once");
    for (int i = 0; i < 3 * THREADS; i++)
        CHECK(b[i] == 0.5 * i, "every blocked element written once");
    CHECK(upc_blocksizeof(pairs) == 2, "a typedef after the loops keeps its block size");
    CHECK(pairs[2 * ((MYTHREAD + 1) % THREADS)] == (MYTHREAD + 1) % THREADS, "a static shared array after the loops");

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
