/* SPDX-License-Identifier: MIT */
/* pointer_arith.upc -- p + n and p++ on pointers-to-shared of every layout
 * (UPC 1.3 §6.4.2), and reads and writes through them: translated code
 * does this arithmetic inline and reaches data on the node with plain
 * loads and stores, so every result is compared with the same element
 * reached another way (&X[k + n], indexed from the array's start) and
 * with the value its owner wrote there.  translator.sh also runs it on
 * two simulated nodes (the runtime's path) and with checks = bounds. */
#include <upc.h>
#include <stdio.h>

#define CHECK(cond, what)                                                            \
    do {                                                                             \
        if (!(cond) && errors++ < 10)                                                \
            printf("Error: pointer_arith: %s (thread %d, %s:%d)\n", what, MYTHREAD, \
                   __FILE__, __LINE__);                                              \
    } while (0)

#define PER 12 /* elements per thread of each array */
shared int cyc[PER * THREADS];
shared [3] int blk3[PER * THREADS];
shared [4] long blk4[PER * THREADS];
shared [] int ind[PER * 4];
shared int errs[THREADS];
static int errors;

static int same(shared void *a, shared void *b)
{
    return upc_threadof(a) == upc_threadof(b) && upc_phaseof(a) == upc_phaseof(b) &&
           upc_addrfield(a) == upc_addrfield(b);
}

/* For every pair (k, k + n) of elements of an N-element array X: the
 * pointer &X[k] + n is &X[k + n], reads the value k + n and, for one k,
 * steps through the array with ++.  PT is X's pointed-to type. */
#define WALK(X, PT, T, N)                                                                 \
    do {                                                                              \
        for (int k = 0; k < (N); k++)                                                 \
            for (int n = -k; k + n < (N); n++) {                                      \
                PT *p = &X[k];                                                  \
                PT *q = p + n;                                                  \
                CHECK(same(q, &X[k + n]), #X ": &X[k] + n is not &X[k + n]");        \
                if ((k + n) % 5 == MYTHREAD % 5)                                      \
                    CHECK(*q == (T)(k + n), #X ": *(&X[k] + n) is not X[k + n]");     \
                if (n > 0)                                                            \
                    CHECK(&p[n] == q && p[n] == X[k + n], #X ": p[n] differs");       \
                CHECK(q - p == n && p - q == -n, #X ": (p + n) - p is not n");        \
                CHECK((n > 0) == (q > p) && (n < 0) == (q < p) && (n >= 0) == (q >= p) && \
                          (n == 0) == (q == p) && (n != 0) == (q != p),                \
                      #X ": p + n compares wrongly with p");                          \
            }                                                                         \
        PT *s = &X[0];                                                          \
        for (int i = 0; i < (N); i++, s++)                                            \
            CHECK(same(s, &X[i]) && *s == (T)i, #X ": p++ walks off the elements"); \
    } while (0)

int main(void)
{
    int n = PER * THREADS;
    upc_forall (int i = 0; i < n; i++; &cyc[i])
        cyc[i] = i;
    upc_forall (int i = 0; i < n; i++; &blk3[i])
        blk3[i] = i;
    upc_forall (int i = 0; i < n; i++; &blk4[i])
        blk4[i] = i;
    if (MYTHREAD == 0)
        for (int i = 0; i < PER * 4; i++)
            ind[i] = i;
    upc_barrier;
    WALK(cyc, shared int, int, n);
    WALK(blk3, shared [3] int, int, n);
    WALK(blk4, shared [4] long, long, n);
    WALK(ind, shared [] int, int, PER * 4);

    /* p[x * 4 + j] on a [4] layout: block x's element j from a pointer at
     * the start of a block (thread 0 or 1), or in the middle of one; j
     * past the block and x past the last thread too */
    static const int starts[] = {0, 4, 1, 6};
    for (int s = 0; s < 4; s++) {
        int off = starts[s] % n;
        shared [4] long *b4 = &blk4[off];
        for (int x = 0; x * 4 < n; x++)
            for (int j = 0; j < 6; j++)
                if (off + x * 4 + j < n)
                    CHECK(same(&b4[x * 4 + j], &blk4[off + x * 4 + j]) &&
                              b4[4 * x + j] == off + x * 4 + j && (j || b4[x * 4] == off + x * 4),
                          "blk4: p[x * 4 + j] is not element j of block x");
    }

    /* A pointer from upc_all_alloc that starts on another thread and phase:
     * writes through p + n land where element k + n lives. */
    shared [3] int *d = upc_all_alloc(THREADS * 4, 3 * sizeof(int));
    shared [3] int *from = d + 4; /* thread 1 % THREADS, phase 1 */
    int len = 12 * THREADS - 4;
    for (int i = MYTHREAD; i < len; i += THREADS)
        from[i] = 1000 + i;
    if (MYTHREAD == 0)
        for (int i = 0; i < 4; i++)
            d[i] = 996 + i;
    upc_barrier;
    for (int i = 0; i < len; i++)
        CHECK(d[i + 4] == 1000 + i && same(from + i, &d[i + 4]),
              "upc_all_alloc'd pointer: from[i] is not d[i + 4]");
    upc_barrier;
    /* compound assignment and ++ through a pointer into the next thread's block */
    shared [3] int *next = d + 3 * ((MYTHREAD + 1) % THREADS);
    next[1] += 5;
    (*next)++;
    upc_barrier;
    shared [3] int *own = d + 3 * MYTHREAD;
    CHECK(own[1] == 996 + 3 * MYTHREAD + 1 + 5, "p[1] += 5 from the previous thread");
    CHECK(own[0] == 996 + 3 * MYTHREAD + 1, "(*p)++ from the previous thread");
    upc_barrier;
    upc_all_free(d);

    /* the own-element idiom through a pointer: c[x * THREADS + MYTHREAD]
     * from a pointer on thread 0, and from one on thread 1 % THREADS */
    shared int *c = upc_all_alloc(PER * THREADS, sizeof(int));
    upc_forall (int i = 0; i < PER * THREADS; i++; &c[i])
        c[i] = i;
    upc_barrier;
    shared int *c1 = c + 1;
    for (int x = 0; x < PER - 1; x++) {
        CHECK(c[x * THREADS + MYTHREAD] == x * THREADS + MYTHREAD &&
                  same(&c[x * THREADS + MYTHREAD], c + (x * THREADS + MYTHREAD)),
              "c[x * THREADS + MYTHREAD] from thread 0");
        CHECK(c1[x * THREADS + MYTHREAD] == 1 + x * THREADS + MYTHREAD &&
                  same(&c1[MYTHREAD + THREADS * x], &c[1 + x * THREADS + MYTHREAD]),
              "c1[x * THREADS + MYTHREAD] from thread 1");
    }
    /* c[MYTHREAD] (X = 0), also of structures and through c + 1 */
    CHECK(c[MYTHREAD] == MYTHREAD && upc_threadof(&c[MYTHREAD]) == (size_t)MYTHREAD &&
              c1[MYTHREAD] == MYTHREAD + 1 && same(&c1[MYTHREAD], &c[MYTHREAD + 1]),
          "c[MYTHREAD] is not this thread's first element");
    shared struct pair { int a; double v[3]; } *pairs = upc_all_alloc(THREADS, sizeof(struct pair));
    pairs[MYTHREAD].v[2] = MYTHREAD + 0.5;
    upc_barrier;
    for (int t = 0; t < THREADS; t++)
        CHECK(pairs[t].v[2] == t + 0.5 && upc_threadof(&pairs[t].v[1]) == (size_t)t,
              "pairs[MYTHREAD].v[2] written elsewhere");
    upc_barrier;
    /* whole structures, read from and written to the next thread */
    struct pair mine = {MYTHREAD, {1, 2, MYTHREAD + 0.25}};
    pairs[(MYTHREAD + 1) % THREADS] = mine;
    upc_barrier;
    struct pair got = pairs[MYTHREAD];
    int writer = (MYTHREAD + THREADS - 1) % THREADS;
    CHECK(got.a == writer && got.v[0] == 1 && got.v[2] == writer + 0.25,
          "a structure written by the previous thread");
    upc_barrier;
    upc_all_free(pairs);
    upc_all_free(c);

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: pointer_arith\n");
    return total != 0;
}
