/* SPDX-License-Identifier: MIT */
/* initializers.upc -- static shared data with initializers (UPC 1.3
 * §6.5.1.1 allows them on shared objects of static storage duration):
 * scalars of every kind, a struct, a cyclic array partly initialized (the
 * rest is zero, as in C), multidimensional arrays with THREADS in the
 * inner or the outer dimension (each row's list lands at the start of its
 * run-time row), an indefinite-block array, a block-scope static, and
 * private pointers-to-shared initialized with addresses of shared data.
 * Every thread sees every value at the start of main. */
#include <upc.h>
#include <stdio.h>

#define CHECK(cond, what)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            errors++;                                                                       \
            printf("Error: initializers: %s (thread %d, %s:%d)\n", what, MYTHREAD, __FILE__, \
                   __LINE__);                                                               \
        }                                                                                   \
    } while (0)

typedef struct {
    int a;
    double b;
} pair_t;

shared int counter = 42;
shared double scale = 2.5;
strict shared long flag = -7;
shared pair_t pr = {7, 0.5};
shared int table[4 * THREADS] = {10, 11, 12};
shared [2] int grid[3][2 * THREADS] = {{1, 2}, {3}, {5, 6}}; /* rows of 2*THREADS */
shared int cols[4][THREADS] = {{7}, {8}, {9}, {10}};          /* column 0 on thread 0 */
shared pair_t pairs[THREADS][2] = {{{1, 1.5}, {2, 2.5}}};
shared [] long fixed[5] = {1, 2, 3};
shared int errs[THREADS];
shared int *second = &table[1];           /* a private pointer-to-shared: an address constant */
shared int *pick[2] = {&table[2], NULL};
shared int *const fixed_at = &table[0]; /* const: set once, before main */
shared [] char greeting[16] = "hello";   /* a string literal */

static int bump(void)
{
    static shared int inner = 3; /* initialized once, before main */
    return inner;
}

static int count_in_function(void)
{
    static shared int per[THREADS]; /* a static shared array in a function, THREADS-sized */
    per[MYTHREAD] += 1;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += per[t];
    upc_barrier;
    return total;
}

static shared int *third(void)
{
    static shared int *at = &table[3]; /* a static pointer-to-shared in a function */
    return at;
}

int main(void)
{
    int errors = 0;
    CHECK(counter == 42, "shared int counter = 42");
    CHECK(scale == 2.5, "shared double scale = 2.5");
    CHECK(flag == -7, "strict shared long flag = -7");
    CHECK(pr.a == 7 && pr.b == 0.5, "shared pair_t pr = {7, 0.5}");
    for (int i = 0; i < 4 * THREADS; i++)
        CHECK(table[i] == (i < 3 ? 10 + i : 0), "table[i]: the listed values, then zeros");
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2 * THREADS; c++)
            CHECK(grid[r][c] == (c >= 2 || (r == 1 && c == 1) ? 0 : 2 * r + c + 1),
                  "grid[r][c]: each row's list at the start of its run-time row");
    for (int r = 0; r < 4; r++) {
        CHECK(cols[r][0] == 7 + r, "cols[r][0] = {7, 8, 9, 10}");
        CHECK(upc_threadof(&cols[r][0]) == (size_t)(r * THREADS % THREADS), "cols[r][0] on thread 0");
        for (int c = 1; c < THREADS; c++)
            CHECK(cols[r][c] == 0, "cols[r][c > 0] zero");
    }
    CHECK(pairs[0][1].a == 2 && pairs[0][1].b == 2.5 && pairs[0][0].b == 1.5, "pairs[0][k] = {...}");
    for (int t = 1; t < THREADS; t++)
        CHECK(pairs[t][0].a == 0 && pairs[t][1].b == 0, "pairs[t > 0][k] zero");
    for (int i = 0; i < 5; i++)
        CHECK(fixed[i] == (i < 3 ? i + 1 : 0), "shared [] long fixed[5] = {1, 2, 3}");
    CHECK(bump() == 3, "static shared int inner = 3 in a function");
    CHECK(second == &table[1] && *second == 11 && upc_threadof(second) == 1 % THREADS,
          "shared int *second = &table[1] at file scope");
    CHECK(pick[0] == &table[2] && pick[1] == NULL, "an array of pointers-to-shared initialized");
    CHECK(fixed_at == &table[0] && *fixed_at == 10, "shared int *const fixed_at = &table[0]");
    CHECK(greeting[1] == 'e' && greeting[5] == 0 && greeting[15] == 0, "shared [] char greeting[16] = \"hello\"");
    CHECK(third() == &table[3] && third() == &table[3], "static shared int *at = &table[3] in a function");
    CHECK(count_in_function() == THREADS && count_in_function() == 2 * THREADS,
          "static shared int per[THREADS] in a function");
    upc_barrier;
    if (MYTHREAD == 0)
        counter = 0; /* initial values are ordinary shared data afterwards */
    upc_barrier;
    CHECK(counter == 0, "an initialized scalar can be written");
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: initializers\n");
    }
    return errors != 0;
}
