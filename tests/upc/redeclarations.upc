/* SPDX-License-Identifier: MIT */
/* redeclarations.upc -- one shared object declared more than once in a
 * file, as headers and C's tentative definitions make common (C99 §6.9.2,
 * §6.2.2): `extern` before the definition, a THREADS dimension in both
 * (one per declarator, UPC 1.3 §6.5.2.1), two tentative definitions, the
 * initializer in the second declaration, `extern` inside a function before
 * the definition.  Each is one object. */
#include <upc.h>
#include <stdio.h>

extern shared int cells[THREADS]; /* as a header would declare it */
extern shared double grid[4][THREADS];
shared int level;
shared int level = 5; /* the initializer comes with the second declaration */
shared int cells[THREADS];
shared double grid[4][THREADS];
shared int flag, pair[2 * THREADS];
shared int flag;
extern shared int flag;
shared int errs[THREADS];
shared int first, second;      /* a group of declarators, */
shared int second = 9;         /* one of them defined again with a value */
static shared int hidden;
static shared int hidden = 4;  /* internal linkage, tentative then defined */

static int read_late(int t)
{
    extern shared int late[2 * THREADS]; /* a block-scope extern: the object defined below */
    extern shared int level;
    return late[t] + level;
}

shared int late[2 * THREADS];

int main(void)
{
    int errors = 0, right = (MYTHREAD + 1) % THREADS;
    cells[MYTHREAD] = MYTHREAD;
    late[MYTHREAD] = 10 * MYTHREAD;
    grid[3][MYTHREAD] = 0.5 * MYTHREAD;
    if (MYTHREAD == 0)
        flag = 7;
    upc_barrier;
    if (level != 5 || cells[right] != right || grid[3][right] != 0.5 * right || flag != 7 ||
        upc_threadof(&grid[3][right]) != (size_t)right || read_late(right) != 10 * right + 5 ||
        second != 9 || first != 0 || hidden != 4)
        errors++, printf("Error: redeclarations: level %d, cells %d, flag %d (thread %d)\n", (int)level,
                         (int)cells[right], (int)flag, MYTHREAD);
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: redeclarations\n");
    }
    return errors != 0;
}
