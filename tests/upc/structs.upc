/* SPDX-License-Identifier: MIT */
/* structs.upc -- shared arrays of structures: whole-struct writes and
 * reads, member reads and writes (`ps[i].b = ...`), `->` through a
 * pointer-to-shared, array members (two-dimensional too), and the address
 * of a member, which has type `shared [] T *` (UPC 1.3 §6.4.4) and the
 * struct's affinity: arithmetic on it stays inside the structure. */
#include <upc.h>
#include <stdio.h>

#define NAME "structs"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

typedef struct { int a; double b; } pair_t;
typedef struct { int id; int v[3]; char tag; } rec_t;
typedef struct { double m[2][3]; } grid_t;
typedef struct { shared int *p[2]; } ptrs_t;
/* a member that is a pointer to a function, in a nested structure, read
 * through a pointer-to-shared (Berkeley bug 2867) */
typedef struct { int (*func)(int, int); } fn_t;
typedef struct { fn_t s; } outer_t;
static int add(int x, int y) { return x + y; }

shared pair_t ps[THREADS];
shared pair_t cp[THREADS];
shared [2] rec_t recs[2 * THREADS];
shared grid_t grids[THREADS];
shared ptrs_t holders[THREADS];
shared int targets[2 * THREADS];
shared int errs[THREADS];
shared outer_t fns[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, right = (MYTHREAD + 1) % THREADS, left = (MYTHREAD + THREADS - 1) % THREADS;
    pair_t v;

    v.a = MYTHREAD;
    v.b = MYTHREAD * 1.5;
    ps[MYTHREAD] = v;                    /* whole-struct write */
    upc_forall (i = 0; i < 2 * THREADS; i++; &recs[i]) {
        rec_t rv;
        rv.id = i;
        rv.v[0] = i; rv.v[1] = 2 * i; rv.v[2] = 3 * i;
        rv.tag = 'x';
        recs[i] = rv;
    }
    upc_barrier;

    for (i = 0; i < THREADS; i++) {
        pair_t w = ps[i];                /* whole-struct read */
        CHECK(w.a == i && w.b == i * 1.5, "whole struct read back");
        CHECK(ps[i].a == i, "member read ps[i].a");
        CHECK(upc_threadof(&ps[i]) == (size_t)i, "ps[i] on thread i");
    }
    upc_barrier;                         /* all reads done before member writes */

    ps[right].b = 100.0 + MYTHREAD;      /* member write, usually remote */
    recs[2 * right + 1].v[2] = -MYTHREAD;
    recs[2 * MYTHREAD].tag = 'y';
    upc_barrier;

    CHECK(ps[MYTHREAD].b == 100.0 + left, "member written by the left neighbour");
    CHECK(ps[MYTHREAD].a == MYTHREAD, "other member unchanged by a member write");
    for (i = 0; i < 2 * THREADS; i++) {
        int writer = (i / 2 + THREADS - 1) % THREADS;
        CHECK(upc_threadof(&recs[i]) == (size_t)(i / 2), "recs[i] on thread i/2");
        CHECK(recs[i].id == i && recs[i].v[0] == i && recs[i].v[1] == 2 * i, "array member values");
        CHECK(recs[i].v[2] == (i % 2 ? -writer : 3 * i), "array member written remotely");
        CHECK(recs[i].tag == (i % 2 ? 'x' : 'y'), "char member");
    }

    {   /* pointer-to-shared to a struct, and the address of a member */
        shared pair_t *pp = &ps[right];
        shared [] double *mb = &ps[right].b;
        shared [] int *mid = &recs[2 * right + 1].id;
        CHECK(pp->a == right && (*pp).b == 100.0 + MYTHREAD, "-> and (*p). on a pointer-to-shared");
        CHECK(*mb == 100.0 + MYTHREAD, "read through &ps[i].b");
        CHECK(upc_threadof(mb) == (size_t)right && upc_threadof(mid) == (size_t)right,
              "the address of a member has the struct's affinity");
        CHECK(*mid == 2 * right + 1, "read through &recs[i].id");
        CHECK(sizeof(ps[0]) == sizeof(pair_t), "sizeof a shared struct element");
        /* arithmetic on a member's address stays in the structure, whatever
         * the structure's block size: &recs[i].v[0] + 2 is &recs[i].v[2] */
        shared [] int *v0 = &recs[2 * right + 1].v[0];
        CHECK(upc_threadof(&recs[2 * right + 1].v[0] + 2) == (size_t)right &&
                  &recs[2 * right + 1].v[0] + 2 == &recs[2 * right + 1].v[2] &&
                  (&recs[2 * right + 1].v[2] - &recs[2 * right + 1].v[0]) == 2 &&
                  *(v0 + 1) == 2 * (2 * right + 1),
              "&s[i].v[0] + 2 on the structure's thread");
        CHECK(upc_blocksizeof(*&recs[0].id) == 0, "*&s.member has block size 0");
    }
    grids[MYTHREAD].m[1][2] = MYTHREAD + 0.5; /* a two-dimensional member, by row and column */
    holders[MYTHREAD].p[0] = &targets[0];
    /* a pointer-to-shared stored in a member array is a value of its own
     * type: arithmetic on it follows the cyclic layout it points into */
    CHECK(upc_threadof(holders[MYTHREAD].p[0] + 1) == (size_t)(1 % THREADS) &&
              holders[MYTHREAD].p[0] + 1 == &targets[1] && upc_blocksizeof(*holders[MYTHREAD].p[0]) == 1,
          "s.p[0] + 1 for a pointer-to-shared member");
    upc_barrier;
    CHECK(grids[right].m[1][2] == right + 0.5 && upc_threadof(&grids[right].m[1][2]) == (size_t)right,
          "grids[i].m[1][2] on thread i");
    upc_barrier;

    cp[MYTHREAD] = ps[right];            /* shared-to-shared struct assignment */
    upc_barrier;                         /* copies done before ps changes */
    ps[MYTHREAD].a += 5;                 /* compound assignment on a member */
    upc_barrier;
    for (i = 0; i < THREADS; i++) {
        int src = (i + 1) % THREADS;
        CHECK(cp[i].a == src && cp[i].b == 100.0 + i, "struct copied between shared elements");
        CHECK(ps[i].a == i + 5, "ps[i].a += 5");
    }

    fns[MYTHREAD].s.func = add; /* an address in this process only */
    upc_barrier;
    {
        shared outer_t *mine = &fns[MYTHREAD], *next = &fns[(MYTHREAD + 1) % THREADS];
        shared [] fn_t *inner = &next->s;
        CHECK(mine->s.func == add && mine->s.func(2, 3) == 5,
              "a function pointer member read through a pointer-to-shared");
        CHECK(inner->func == next->s.func, "the same member read through its own pointer");
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
