/* SPDX-License-Identifier: MIT */
/* hoist_reads.upc -- a pointer-to-shared stored in shared memory and read
 * in a loop (u[MYTHREAD].arr[i], NAS MG's pattern) is read once per loop
 * by the translator when the loop cannot change it; every loop here that
 * CAN change it (a store of a pointer-to-shared, an index the loop
 * assigns, a call, a store through a local pointer to the index, a
 * character store) must see each new value, and a loop that runs no
 * iteration must read nothing (its pointer is null).  translator.sh checks
 * which loops of a similar program are hoisted (strict accesses too). */
#include <upc.h>
#include <stdio.h>

#define N 8

typedef struct {
    shared [] double *arr;
} dir_t;

shared dir_t dirs[THREADS];       /* each thread's row, reached through a pointer */
shared dir_t spare[THREADS];      /* a second row per thread */
shared int errs[THREADS];

static int errors;
shared [] double *global_row; /* a private pointer-to-shared of static storage */

static void expect(double got, double want, const char *what)
{
    if (got != want) {
        errors++;
        printf("Error: hoist_reads: %s: %g, want %g (thread %d)\n", what, got, want, MYTHREAD);
    }
}

/* The sum over the threads of spare[t].arr[3]. */
static double across_threads(void)
{
    return 103.0 * THREADS + 1000.0 * THREADS * (THREADS - 1) / 2;
}

static void retarget_global(void) /* a call changing global_row */
{
    global_row = spare[MYTHREAD].arr;
}

static void retarget(void) /* a call: the loop around it may not keep the old pointer */
{
    dirs[MYTHREAD].arr = spare[MYTHREAD].arr;
}

int main(void)
{
    shared [] double *mine = (shared [] double *)upc_alloc(N * sizeof(double));
    shared [] double *other = (shared [] double *)upc_alloc(N * sizeof(double));
    for (int i = 0; i < N; i++) {
        mine[i] = i;
        other[i] = 100 + i + (i == 3 ? 1000 * MYTHREAD : 0); /* [3] tells the threads apart */
    }
    dirs[MYTHREAD].arr = mine;
    spare[MYTHREAD].arr = other;
    upc_barrier;

    /* invariant: hoisted (nested loops, while, do, a body without braces) */
    double sum = 0;
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < N; i++)
            sum += dirs[MYTHREAD].arr[i];
    expect(sum, 3 * 28, "nested for");
    shared dir_t *row = &dirs[MYTHREAD];
    int i = 0;
    sum = 0;
    while (i < N)
        sum += row->arr[i++];
    expect(sum, 28, "while through p->arr");
    i = 0, sum = 0;
    do {
        sum += (*row).arr[i];
        dirs[MYTHREAD].arr[i] = 2 * dirs[MYTHREAD].arr[i]; /* a double store: still hoisted */
    } while (++i < N);
    expect(sum, 28, "do through (*p).arr");
    expect(mine[N - 1], 2 * (N - 1), "stores through the hoisted pointer");

    /* a loop inside a upc_forall body (which the translator may emit twice) */
    upc_barrier;
    sum = 0;
    upc_forall (int t = 0; t < THREADS; t++; t)
        for (int j = 0; j < N; j++)
            sum += dirs[MYTHREAD].arr[j];
    expect(sum, 2 * 28, "a loop in a upc_forall body");

    /* the loop stores a pointer-to-shared: every read sees the new one */
    sum = 0;
    for (i = 0; i < N; i++) {
        sum += dirs[MYTHREAD].arr[0];
        dirs[MYTHREAD].arr = i % 2 ? mine : other;
    }
    expect(sum, 0 + 100 + 0 + 100 + 0 + 100 + 0 + 100, "a pointer stored in the loop");
    dirs[MYTHREAD].arr = mine;

    /* the index is assigned in the loop */
    upc_barrier;
    sum = 0;
    int k;
    for (k = 0; k < THREADS; k++)
        sum += spare[k].arr[3];
    expect(sum, across_threads(), "an index the loop assigns");
    sum = 0;
    for (int j = 0; j < THREADS; j++)
        sum += spare[j].arr[3];
    expect(sum, across_threads(), "an index declared in the loop");
    upc_barrier;
    int which = 0;
    sum = 0;
    for (i = 0; i < 4; i++) {
        which = i % 2;
        sum += which ? spare[MYTHREAD].arr[0] : dirs[MYTHREAD].arr[0];
    }
    expect(sum, 200, "two pointers picked in turn");

    /* a call in the loop changes the pointer */
    sum = 0;
    for (i = 0; i < 2; i++) {
        sum += dirs[MYTHREAD].arr[0];
        retarget();
    }
    expect(sum, 0 + 100, "a call in the loop");
    dirs[MYTHREAD].arr = mine;

    /* the index variable's address is taken, and it is stored through */
    int t = MYTHREAD, *tp = &t;
    upc_barrier;
    sum = 0;
    for (i = 0; i < THREADS; i++) {
        *tp = i;
        sum += spare[t].arr[3];
    }
    expect(sum, across_threads(), "an index stored through a pointer");
    upc_barrier;

    /* a character store may change any object */
    shared dir_t *mine_dir = &dirs[MYTHREAD];
    shared [] double *saved = other;
    unsigned char image[sizeof saved];
    for (unsigned k = 0; k < sizeof saved; k++)
        image[k] = ((unsigned char *)&saved)[k];
    sum = 0;
    for (i = 0; i < 2; i++) {
        sum += mine_dir->arr[0];
        unsigned char *to = (unsigned char *)(dir_t *)&dirs[MYTHREAD];
        for (unsigned k = 0; k < sizeof saved; k++)
            to[k] = image[k];
    }
    expect(sum, 100, "character stores in the loop");
    dirs[MYTHREAD].arr = mine;

    /* a private global pointer-to-shared: copied before a loop that cannot
     * change it; a loop that assigns it, calls a function that does, or
     * stores through its address sees each new value (mine[0], then
     * other[i]: 0 + 101 + ... + 107 + 1000 * MYTHREAD) */
    double from_other = 0;
    for (i = 1; i < N; i++)
        from_other += 100 + i + (i == 3 ? 1000 * MYTHREAD : 0);
    for (i = 0; i < N; i++)
        mine[i] = i;
    global_row = mine;
    sum = 0;
    for (i = 0; i < N; i++)
        sum += global_row[i];
    expect(sum, 28, "a global pointer the loop cannot change");
    sum = 0;
    for (i = 0; i < N; i++) {
        sum += global_row[i];
        global_row = other;
    }
    expect(sum, from_other, "a global pointer assigned in the loop");
    global_row = mine;
    sum = 0;
    for (i = 0; i < N; i++) {
        sum += global_row[i];
        retarget_global();
    }
    expect(sum, from_other, "a global pointer changed by a call in the loop");
    shared [] double **where = &global_row;
    global_row = mine;
    sum = 0;
    for (i = 0; i < N; i++) {
        sum += global_row[i];
        *where = other;
    }
    expect(sum, from_other, "a global pointer changed through its address in the loop");

    /* a loop that runs no iteration reads nothing: its pointer is null */
    shared dir_t *none = 0;
    sum = 0;
    for (i = 0; i < 0; i++)
        sum += none->arr[i];
    while (sum > 1)
        sum += none[MYTHREAD].arr[0];
    expect(sum, 0, "no iteration");

    errs[MYTHREAD] = errors;
    upc_barrier;
    upc_free(mine);
    upc_free(other);
    if (MYTHREAD == 0) { /* one line: the threads' lines could run together */
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: hoist_reads\n");
    }
    return errors != 0;
}
