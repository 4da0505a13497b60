/* SPDX-License-Identifier: MIT */
/* array_parameters.upc -- a parameter declared as an array of shared
 * elements is a pointer-to-shared (C99 §6.7.5.3 adjusts it; UPC 1.3
 * §6.5.1.1 forbids only a shared-qualified parameter itself):
 * `shared int v[]`, `shared int v[8]`, and `shared [4] double m[][4]`, a
 * pointer to rows of a blocked array. */
#include <upc.h>
#include <stdio.h>

shared int cells[8 * THREADS];
shared [4] double rows[THREADS][4];
shared int errs[THREADS];

static void fill(shared int v[], int n)
{
    upc_forall (int i = 0; i < n; i++; &v[i])
        v[i] = 3 * i;
}

static int sum_mine(shared int v[8], int n)
{
    int s = 0;
    for (int i = MYTHREAD; i < n; i += THREADS)
        s += v[i];
    return s;
}

static void set_row(shared [4] double m[][4], int r)
{
    for (int j = 0; j < 4; j++)
        m[r][j] = r + 0.25 * j;
}

/* the UPC size operators after such parameters keep their meaning */
enum { ROW_BLOCK = upc_blocksizeof(rows), CELL_SIZE = upc_elemsizeof(cells) };

int main(void)
{
    int errors = 0, want = 0;
    fill(cells, 8 * THREADS);
    set_row(rows, MYTHREAD);
    upc_barrier;
    for (int i = MYTHREAD; i < 8 * THREADS; i += THREADS)
        want += 3 * i;
    if (sum_mine(cells, 8 * THREADS) != want)
        errors++, printf("Error: array_parameters: shared int v[] (thread %d)\n", MYTHREAD);
    int other = (MYTHREAD + 1) % THREADS;
    if (ROW_BLOCK != 4 || CELL_SIZE != sizeof(int) || upc_blocksizeof(cells) != 1)
        errors++, printf("Error: array_parameters: upc_blocksizeof after them (thread %d)\n", MYTHREAD);
    if (rows[other][3] != other + 0.75 || upc_threadof(&rows[other][0]) != (size_t)other)
        errors++, printf("Error: array_parameters: shared [4] double m[][4] (thread %d)\n", MYTHREAD);
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: array_parameters\n");
    }
    return errors != 0;
}
