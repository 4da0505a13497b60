/* SPDX-License-Identifier: MIT */
/* version_loops.upc -- counted loops over an indefinite layout (a
 * `shared []` pointer, an array member of a shared structure) whose
 * accesses the translator runs as plain loads and stores when the whole
 * range is mapped here (translator/rewrite_version.c): this thread's
 * data and a neighbour's, stores, reads, compound assignments and ++,
 * structure members, an index set (or declared) from i by an earlier
 * statement, a decreasing index, `<=`, structures copied whole, a loop
 * that runs no iteration over a null pointer, an access under `if` (not
 * copied), a bound read from memory the loop does not store, and loops
 * that must not be copied (a call, an unsigned 32-bit index, a store of
 * a structure holding a pointer-to-shared, a character or union-member
 * read of data the loop stores, a case label in the body).  Every result is checked against values the
 * program computes without shared data.  translator.sh checks which loops
 * of a similar program are copied, and runs this one on two simulated
 * nodes and with checks = bounds (no loop is then copied). */
#include <upc.h>
#include <stdio.h>
#include <string.h>

#define N 64

#define CHECK(cond, what)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            errors++;                                                                         \
            printf("Error: version_loops: %s (thread %d, %s:%d)\n", what, MYTHREAD, __FILE__, \
                   __LINE__);                                                                 \
        }                                                                                     \
    } while (0)

typedef struct { double re, im; } cplx;
typedef struct { cplx cell[N]; } block_t;
typedef struct { shared [] double *arr; } dir_t;

shared block_t blocks[THREADS], copies[THREADS];
shared dir_t dirs[THREADS], swap[THREADS];
shared int errs[THREADS];

static int errors;
static int calls;
int bound = N; /* a bound in memory: the loops below store no int there */

static double twice(double x) /* a call: its loop is not copied */
{
    calls++;
    return 2 * x;
}

/* Element i of thread t's row: distinct everywhere. */
static double value(int t, int i) { return 1000.0 * t + i; }

static void fill_own_row(shared [] double *mine)
{
    int i;
    for (i = 0; i < N; i++)
        mine[i] = value(MYTHREAD, i) - 1;
    for (i = 0; i < N; i++)
        mine[i] += 1; /* a compound assignment */
    double sum = 0, want = 0;
    for (i = 0; i < N; i++) {
        sum += mine[i];
        want += value(MYTHREAD, i);
    }
    CHECK(sum == want, "own row: stores, += and reads");
}

static void read_neighbour(void)
{
    int t = (MYTHREAD + 1) % THREADS, i;
    shared [] double *row = dirs[t].arr;
    double sum = 0, want = 0;
    for (i = 0; i < N; i++) /* through a pointer read from shared memory */
        sum += dirs[t].arr[i] * 2 + row[N - 1 - i];
    for (i = 0; i < N; i++)
        want += value(t, i) * 3;
    CHECK(sum == want, "a neighbour's row, forwards and backwards");
    double ends = 0;
    for (i = 1; i <= N - 2; i++) /* `<=`, a stencil reaching both ends */
        ends += row[i - 1] - row[i + 1];
    CHECK(ends == value(t, 0) + value(t, 1) - value(t, N - 2) - value(t, N - 1), "a stencil with <=");
}

static void structure_members(shared block_t *b)
{
    int i, ii, off = 3;
    for (i = 0; i < N; i++) {
        b[MYTHREAD].cell[i].re = i;
        b[MYTHREAD].cell[i].im = -i;
    }
    double re = 0, im = 0;
    for (i = 0; i < N - off; i++) {
        ii = i + off; /* an index set from i before the access */
        re += b[MYTHREAD].cell[ii].re;
        im += blocks[MYTHREAD].cell[ii].im;
    }
    double want = (double)(N - 1) * N / 2 - (double)(off - 1) * off / 2;
    CHECK(re == want && im == -want, "array members of a shared structure, derived index");
    CHECK(ii == N - 1, "the derived index's value after the loop");
    re = 0;
    for (i = 0; i < N - off; i++) {
        const long jj = 2L * (i + off) - i - off; /* declared in the body */
        re += b[MYTHREAD].cell[jj].re;
    }
    CHECK(re == want, "an index declared in the body");
    for (i = 0; i < N; i++)
        copies[MYTHREAD].cell[i] = b[MYTHREAD].cell[i]; /* structures copied whole */
    re = im = 0;
    for (i = 0; i < N; i++) {
        re += copies[MYTHREAD].cell[i].re;
        im += copies[MYTHREAD].cell[i].im;
    }
    CHECK(re == (double)(N - 1) * N / 2 && im == -re, "structures copied whole");
}

static void increments(shared [] double *mine)
{
    int i;
    for (i = 0; i < N; i++)
        mine[i]++;
    for (i = 0; i < bound; i++)
        --mine[i];
    int odd = 0;
    for (i = 0; i < N; i++) {
        if (i % 2) /* under if: not copied, still correct */
            mine[i] = -1;
        odd += mine[i] < 0;
    }
    CHECK(odd == N / 2, "an access under if");
    for (i = 0; i < N; i++)
        mine[i] = value(MYTHREAD, i);
    double sum = 0, want = 0;
    for (i = 0; i < N; i++) {
        sum += mine[i];
        want += value(MYTHREAD, i);
    }
    CHECK(sum == want, "++ and -- on each element");
}

/* A structure holding a pointer-to-shared stored in the loop: every
 * iteration after the first reads through the new pointer. */
static void pointer_changed(shared [] double *mine)
{
    shared [] double *other = (shared [] double *)upc_alloc(N * sizeof(double));
    int i;
    for (i = 0; i < N; i++)
        other[i] = -value(MYTHREAD, i);
    swap[MYTHREAD].arr = other;
    double sum = 0, want = value(MYTHREAD, 0);
    for (i = 0; i < N; i++) {
        sum += dirs[MYTHREAD].arr[i];
        dirs[MYTHREAD] = swap[MYTHREAD];
    }
    for (i = 1; i < N; i++)
        want -= value(MYTHREAD, i);
    CHECK(sum == want, "a structure with a pointer-to-shared stored in the loop");
    dirs[MYTHREAD].arr = mine;
    upc_free(other);
}

/* Reads that a store in the loop changes although their types differ: a
 * character read of an int, one union member read while another is
 * stored (each must be read again); a body variable named as the index;
 * a loop entered through a case label of a switch around it. */
static void aliasing(shared [] double *mine, int jump)
{
    shared [] double *pick[2] = {mine, mine + 1};
    int sel[1] = {0}, i;
    unsigned char *byte = (unsigned char *)sel;
    double sum = 0, want = value(MYTHREAD, 0);
    for (i = 0; i < N - 1; i++) {
        sum += pick[byte[0]][i];
        sel[0] = 1; /* from the second iteration on: mine[i + 1] */
    }
    for (i = 1; i < N - 1; i++)
        want += value(MYTHREAD, i + 1);
    CHECK(sum == want, "a character read of an int the loop stores");
    union { int k; float f; } u = {.k = 0}, *pu = &u;
    float one; /* the float whose bits are the int 1 */
    int bits = 1;
    memcpy(&one, &bits, sizeof one);
    sum = 0;
    for (i = 0; i < N - 1; i++) {
        sum += pick[pu->k][i];
        pu->f = one;
    }
    CHECK(sum == want, "a union member read while another is stored");
    sum = 0;
    for (i = 0; i < N; i++) {
        int i = 3;
        sum += mine[i];
    }
    CHECK(sum == N * value(MYTHREAD, 3), "a body variable named as the index");
    sum = 0;
    i = 0;
    switch (jump) {
    case 0:
        for (i = 0; i < N; i++) {
        case 1:
            sum += mine[i];
        }
    }
    CHECK(sum == want + value(MYTHREAD, 1), "a loop entered through a case label"); /* all N */
}

static void not_copied(shared [] double *mine)
{
    int i;
    calls = 0;
    double sum = 0, want = 0;
    for (i = 0; i < N; i++)
        sum += twice(mine[i]);
    for (i = 0; i < N; i++)
        want += 2 * value(MYTHREAD, i);
    CHECK(sum == want && calls == N, "a loop with a call");
    unsigned u;
    sum = 0;
    for (u = 0; u < N; u++)
        sum += mine[u];
    CHECK(sum == want / 2, "an unsigned 32-bit index");
    shared [] double *none = 0;
    for (i = 5; i < 5; i++)
        none[i] = 1; /* no iteration: the null pointer is not used */
    for (i = 0; i < 0; i++)
        sum += dirs[MYTHREAD].arr[i] + none[i];
    CHECK(sum == want / 2, "no iteration");
}

int main(void)
{
    shared [] double *mine = (shared [] double *)upc_alloc(N * sizeof(double));
    dirs[MYTHREAD].arr = mine;
    fill_own_row(mine);
    upc_barrier;
    read_neighbour();
    structure_members(blocks);
    upc_barrier;
    increments(mine);
    pointer_changed(mine);
    aliasing(mine, MYTHREAD % 2);
    not_copied(mine);

    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) { /* one line: the threads' lines could run together */
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: version_loops\n");
    }
    upc_barrier;
    upc_free(mine);
    return errors != 0;
}
