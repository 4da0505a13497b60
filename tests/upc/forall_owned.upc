/* SPDX-License-Identifier: MIT */
/* forall_owned.upc -- upc_forall loops the translator runs over their
 * owned iterations only, with a[i] read and written as private memory
 * (translator/rewrite_forall.c): integer affinity from a negative lo,
 * cyclic, blocked (block 3, lo not 0, hi not a multiple, `<=`, `++i`,
 * `i += 1`), [*], a same-layout array of another type, pointer-to-shared
 * affinity from a pointer not at thread 0, phase 0, a nested upc_forall
 * (the inner one runs every iteration, UPC 1.3 §6.6.2, also through a
 * function), continue and break, a body that changes i (the general
 * loop), and i's value after the loop.  Each loop records the iterations
 * it ran, compared with a plain for loop over the affinity test; the
 * data is compared element by element after a barrier. */
#include <upc.h>
#include <stdio.h>

#define NAME "forall_owned"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define N 16
#define MAXI (N * 4 + 16)

shared int cy[N * THREADS];
shared int cy2[N * THREADS];
shared double cyd[N * THREADS];
shared [3] int bl[N * THREADS];
shared [3] long bl2[N * THREADS];
shared [*] int st[13 * THREADS];
shared [3] int jb[N * THREADS];
strict shared int sa[N * THREADS];
typedef struct { int x, y; } pair_t;
shared pair_t pr[N * THREADS];
shared int errs[THREADS];
int global_hi;

static int errors;
static int ran[MAXI + 32]; /* ran[i - lo]: how often iteration i ran here */

static void clear(void)
{
    for (int k = 0; k < MAXI + 32; k++)
        ran[k] = 0;
}

/* ran[] against `mine(i)` for i in [lo, hi) */
#define EXPECT_RAN(lo, hi, mine, what)                                        \
    do {                                                                      \
        for (long i_ = (lo); i_ < (hi); i_++) {                               \
            long i = i_;                                                      \
            CHECK(ran[i_ - (lo)] == ((mine) ? 1 : 0), what);                  \
            (void)i;                                                          \
        }                                                                     \
    } while (0)

static int int_owner(long i) { return (int)(((i % THREADS) + THREADS) % THREADS); }

static void integer_affinity(void)
{
    clear();
    upc_forall (int i = -7; i < 3 * THREADS + 2; i++; i)
        ran[i + 7]++;
    EXPECT_RAN(-7, 3 * THREADS + 2, int_owner(i) == MYTHREAD, "integer affinity from a negative lo");
    clear();
    upc_forall (long i = 2; i <= N * THREADS - 1; ++i; i) {
        cy[i] = (int)(3 * i);
        cy2[i] = cy[i] + 1;
        ran[i - 2]++;
    }
    EXPECT_RAN(2, N * THREADS, int_owner(i) == MYTHREAD, "integer affinity with cyclic arrays");
    if (MYTHREAD == 0) {
        cy[0] = 0;
        cy[1] = 3;
        cy2[0] = 1;
        cy2[1] = 4;
    }
}

static void cyclic(void)
{
    clear();
    size_t i;
    upc_forall (i = 1; i < N * THREADS; i += 1; &cy[i]) {
        cy[i] += 1;
        cyd[i] = 0.5 * cy2[i];
        cy2[i]++;
        ran[i - 1]++;
    }
    CHECK(i == (size_t)N * THREADS, "i after a cyclic loop");
    EXPECT_RAN(1, N * THREADS, upc_threadof(&cy[i]) == (size_t)MYTHREAD, "cyclic &a[i]");
}

static void blocked(void)
{
    int lo = 2, hi = N * THREADS - 4, i;
    clear();
    upc_forall (i = lo; i < hi; i++; &bl[i]) {
        bl[i] = i * 10;
        bl2[i] = (long)bl[i] + 1;
        ran[i - lo]++;
    }
    CHECK(i == (hi > lo ? hi : lo), "i after a blocked loop");
    EXPECT_RAN(lo, hi, upc_threadof(&bl[i]) == (size_t)MYTHREAD, "blocked &a[i] from lo 2");
    clear();
    upc_forall (i = 1; i <= hi; ++i; bl + i)
        ran[i - 1]++;
    CHECK(i == hi + 1, "i after a `<=` loop");
    EXPECT_RAN(1, hi + 1, upc_threadof(&bl[i]) == (size_t)MYTHREAD, "blocked a + i with <=");
    upc_forall (i = 9; i < 4; i++; &bl[i])
        CHECK(0, "an empty loop runs nothing");
    CHECK(i == 9, "i after an empty loop");
}

static void star(void)
{
    clear();
    upc_forall (int i = 0; i < 13 * THREADS; i++; &st[i]) {
        st[i] = i + 100;
        ran[i]++;
    }
    EXPECT_RAN(0, 13 * THREADS, upc_threadof(&st[i]) == (size_t)MYTHREAD, "[*] array");
}

/* dst[i] = 3 * src[i] + i over owned iterations of src, for a dst that
 * starts where src does (privatized with it) or elsewhere (dst[i] is then
 * another thread's element: the general path); every element checked */
static void copy_scaled(shared [3] int *src, shared [3] int *dst, int n, const char *what)
{
    upc_forall (int i = 0; i < n; i++; &src[i])
        dst[i] = 3 * src[i] + i;
    upc_barrier;
    for (int i = 0; i < n; i++)
        CHECK(dst[i] == 3 * src[i] + i, what);
    upc_barrier;
}

/* other pointers of the affinity's layout: same start, or not */
static void pointer_pairs(void)
{
    int n = 9 * THREADS + 2;
    shared [3] int *a = upc_all_alloc(3 * THREADS + 2, 3 * sizeof(int));
    shared [3] int *b = upc_all_alloc(3 * THREADS + 2, 3 * sizeof(int));
    upc_forall (int i = 0; i < n + 4; i++; &a[i])
        a[i] = 7 * i + 1;
    upc_barrier;
    copy_scaled(a, b, n, "dst[i] from src[i], both at thread 0 phase 0");
    copy_scaled(a + 4, b + 4, n, "dst[i] from src[i], both at the same thread and phase");
    copy_scaled(a, b + 1, n, "dst[i] from src[i], dst a phase further");
    copy_scaled(a + 3, b, n, "dst[i] from src[i], dst a thread before");
    upc_barrier;
    upc_all_free(a);
    upc_all_free(b);
}

/* affinity through pointers that do not start at thread 0, phase 0 */
static void pointers(void)
{
    shared [3] long *p = &bl2[4];
    int n = N * THREADS - 4 - 2;
    clear();
    upc_forall (int i = 0; i < n; i++; &p[i]) {
        p[i] *= 2;
        ran[i]++;
    }
    EXPECT_RAN(0, n, upc_threadof(&p[i]) == (size_t)MYTHREAD, "blocked pointer affinity");
    shared int *q = &cy2[THREADS > 1 ? 1 : 0] + THREADS; /* thread 1 at 2 or more threads */
    clear();
    upc_forall (int i = -1; i < N * THREADS - THREADS - 1; i++; q + i) {
        q[i] += 1000;
        ran[i + 1]++;
    }
    EXPECT_RAN(-1, N * THREADS - THREADS - 1, upc_threadof(q + i) == (size_t)MYTHREAD,
               "cyclic pointer affinity from a negative lo");
    pointer_pairs();
}

static int inner_runs;
static void inner(int n)
{
    upc_forall (int j = 0; j < n; j++; &cy[j])
        inner_runs++;
}

static void nested(void)
{
    int outer = 0, runs = 0;
    inner_runs = 0;
    upc_forall (int i = 0; i < N * THREADS; i++; &bl[i]) {
        outer++;
        upc_forall (int j = 0; j < 2 * THREADS + 1; j++; &cy[j])
            runs++;
        inner(THREADS);
    }
    int mine = 0;
    for (int i = 0; i < N * THREADS; i++)
        mine += upc_threadof(&bl[i]) == (size_t)MYTHREAD;
    CHECK(outer == mine, "the outer loop runs its owned iterations");
    CHECK(runs == outer * (2 * THREADS + 1), "a nested upc_forall runs every iteration");
    CHECK(inner_runs == outer * THREADS, "a upc_forall called from one runs every iteration");
    inner_runs = 0;
    inner(2 * THREADS);
    CHECK(inner_runs == 2, "the same function's loop, not nested, runs its owned iterations");
}

static void jumps(void)
{
    int i, limit = 2 * THREADS + 4;
    clear();
    upc_forall (i = 0; i < N * THREADS; i++; &bl[i]) {
        if (i % 5 == 0)
            continue;
        if (i > limit)
            break;
        ran[i]++;
    }
    int first = -1; /* the first owned i past the limit: where break left i */
    for (int k = limit + 1; k < N * THREADS && first < 0; k++)
        if (upc_threadof(&bl[k]) == (size_t)MYTHREAD && k % 5 != 0)
            first = k;
    CHECK(i == (first < 0 ? N * THREADS : first), "i after break");
    EXPECT_RAN(0, N * THREADS, upc_threadof(&bl[i]) == (size_t)MYTHREAD && i % 5 != 0 && i <= limit,
               "continue and break");
    /* the same with a privatized access, and breaks of an inner switch and loop */
    clear();
    upc_forall (i = 0; i < N * THREADS; i++; &jb[i]) {
        if (i % 5 == 0)
            continue;
        switch (i % 2) {
        case 0:
            break;
        default:
            jb[i] = -1;
            break;
        }
        while (1)
            break;
        if (i > limit)
            break;
        jb[i] = i + 1;
        ran[i]++;
    }
    CHECK(i == (first < 0 ? N * THREADS : first), "i after break, privatized");
    EXPECT_RAN(0, N * THREADS, upc_threadof(&jb[i]) == (size_t)MYTHREAD && i % 5 != 0 && i <= limit,
               "continue and break, privatized");
}

/* a body that changes i: the loop keeps the general form */
static void changes_index(void)
{
    int i, runs = 0, expected = 0;
    clear();
    upc_forall (i = 0; i < N * THREADS; i++; &cy[i]) {
        ran[i]++;
        runs++;
        i += 2;
    }
    for (int k = 0; k < N * THREADS; k++)
        if (upc_threadof(&cy[k]) == (size_t)MYTHREAD) {
            CHECK(ran[k] == 1, "a body that changes i: iteration ran");
            expected++;
            k += 2;
        } else {
            CHECK(ran[k] == 0, "a body that changes i: iteration skipped");
        }
    CHECK(runs == expected, "a body that changes i runs the same iterations as the plain loop");
}

static void bump_hi(void) { global_hi++; }

/* other index types, a strict array (skipped, not privatized), an array
 * of structures, a bound the body changes through a call (general loop) */
static void more_types(void)
{
    clear();
    upc_forall (unsigned u = 3; u < N * THREADS; u++; u) {
        sa[u] = (int)u;
        ran[u - 3]++;
    }
    EXPECT_RAN(3, N * THREADS, int_owner(i) == MYTHREAD, "unsigned index, integer affinity");
    clear();
    long long k;
    upc_forall (k = 0; k < 2LL * THREADS + 1; k++; &pr[k]) {
        pr[k].x = (int)k;
        ran[k]++;
    }
    CHECK(k == 2LL * THREADS + 1, "a long long index after the loop");
    EXPECT_RAN(0, 2 * THREADS + 1, upc_threadof(&pr[i]) == (size_t)MYTHREAD, "structure elements");
    int runs = 0, expected = 0;
    global_hi = N * THREADS;
    int end = global_hi;
    upc_forall (int i = 0; i < global_hi; i++; &cy[i]) {
        if (i == 0)
            bump_hi();
        runs++;
    }
    for (int i = 0; i < end + 1; i++)
        expected += upc_threadof(&cy[i]) == (size_t)MYTHREAD;
    CHECK(runs == expected, "a bound the body changes is read at every iteration");
    global_hi = end;
}

static void check_data(void)
{
    for (int i = 0; i < N * THREADS; i++) {
        int c = 3 * i + 1;               /* integer_affinity, then cyclic's += 1 */
        int c2 = 3 * i + 1 + 1;          /* cy2 = cy + 1, then cyclic's ++ */
        if (i == 0)
            c = 0, c2 = 1;               /* i = 0 is outside cyclic()'s loop */
        CHECK(cyd[i] == (i == 0 ? 0.0 : 0.5 * (c2 - 1)), "cyd[i]");
        int q0 = (THREADS > 1 ? 1 : 0) + THREADS - 1; /* q[-1] */
        if (i >= q0 && i < q0 + N * THREADS - THREADS)
            c2 += 1000;
        CHECK(cy[i] == c, "cy[i]");
        CHECK(cy2[i] == c2, "cy2[i]");
        int in = i >= 2 && i < N * THREADS - 4;
        CHECK(bl[i] == (in ? i * 10 : 0), "bl[i]");
        long b2 = in ? i * 10L + 1 : 0;
        if (i >= 4 && i < N * THREADS - 2)
            b2 *= 2;
        CHECK(bl2[i] == b2, "bl2[i]");
    }
    for (int i = 0; i < 13 * THREADS; i++)
        CHECK(st[i] == i + 100, "st[i]");
    for (int i = 3; i < N * THREADS; i++)
        CHECK(sa[i] == i, "sa[i]");
    int limit = 2 * THREADS + 4; /* jumps() */
    for (int i = 0; i < N * THREADS; i++) {
        int first = -1; /* the owner's first i past the limit, where it broke off */
        for (int k = limit + 1; k < N * THREADS && first < 0; k++)
            if (upc_threadof(&jb[k]) == upc_threadof(&jb[i]) && k % 5 != 0)
                first = k;
        int want = i % 5 == 0 || (first >= 0 && i > first) ? 0 : i <= limit ? i + 1 : i % 2 ? -1 : 0;
        CHECK(jb[i] == want, "jb[i]");
    }
    for (int i = 0; i < 2 * THREADS + 1; i++)
        CHECK(pr[i].x == i, "pr[i].x");
}

int main(void)
{
    integer_affinity();
    upc_barrier;
    cyclic();
    blocked();
    star();
    upc_barrier;
    pointers();
    nested();
    jumps();
    changes_index();
    more_types();
    upc_barrier;
    check_data();

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
