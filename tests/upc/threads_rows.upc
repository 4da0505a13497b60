/* SPDX-License-Identifier: MIT */
/* threads_rows.upc -- rows whose length holds THREADS, in the dynamic
 * THREADS environment: a parameter declared `shared int a[3][4*THREADS]`
 * points to such rows (a[i], *(a + i), a[i] + j), and so does the array
 * itself decayed (ia + i); each row is 4*THREADS elements long (GCC UPC's
 * intrepid test18, bug 230, wrote row 1 over row 0's second half).
 * upc_localsizeof of a type name with THREADS in a dimension is the
 * constant an object of the type gives, at file scope too (Berkeley
 * bug175a, bug846). */
#include <upc.h>
#include <stdio.h>

#define NAME "threads_rows"
shared int ia[3][4 * THREADS];
strict shared int sa[2][10 * THREADS];
shared int errs[THREADS];
shared [3] double blocked[5][2 * THREADS];
size_t local_ia = upc_localsizeof(shared int [3][4 * THREADS]);

static int check(shared int a[3][4 * THREADS])
{
    int bad = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4 * THREADS; ++j) {
            bad += a[i][j] != i * 100 + j;
            bad += (*(a + i))[j] != i * 100 + j;
            bad += a[i] + j != &ia[i][j];
            bad += *(ia + i) + j != &ia[i][j];
            bad += (ia + i)[0][j] != i * 100 + j;
        }
    return bad;
}

static void fill(strict shared int a[2][10 * THREADS])
{
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 10; ++j)
            a[i][j * THREADS + MYTHREAD] = i * 10 * THREADS + (j * THREADS + MYTHREAD);
}

int main(void)
{
    upc_forall (int j = 0; j < 4 * THREADS; j++; j)
        for (int i = 0; i < 3; i++)
            ia[i][j] = i * 100 + j;
    fill(sa);
    upc_barrier;
    int errors = check(ia);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 10 * THREADS; ++j)
            errors += sa[i][j] != i * 10 * THREADS + j;
    errors += local_ia != upc_localsizeof(ia) || local_ia != 12 * sizeof(int);
    errors += upc_localsizeof(shared [3] double [5][2 * THREADS]) != upc_localsizeof(blocked);
    errors += upc_localsizeof(blocked) != 12 * sizeof(double); /* ceil(10 / 3) blocks of 3 */
    if (errors)
        printf("Error: %s: %d wrong elements on thread %d\n", NAME, errors, MYTHREAD);
    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
