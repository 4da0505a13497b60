/* SPDX-License-Identifier: MIT */
/* statement_expressions.upc -- shared accesses inside GNU statement
 * expressions ({ ... }), which glibc's assert() and many MAX/MIN macros
 * expand to: assert on a pointer-to-shared and on a shared value, a
 * pointer-to-shared declared inside one, a remote read as its value. */
#include <upc.h>
#include <assert.h>
#include <stdio.h>

#define LARGER(a, b) ({ long _a = (a), _b = (b); _a > _b ? _a : _b; })

shared int cells[THREADS];
shared int errs[THREADS];

int main(void)
{
    int errors = 0, right = (MYTHREAD + 1) % THREADS;
    shared int *mine = &cells[MYTHREAD];
    upc_lock_t *lock = upc_all_lock_alloc();
    assert(mine != NULL);
    assert(lock != NULL);
    *mine = 10 + MYTHREAD;
    upc_barrier;
    assert(cells[right] == 10 + right);
    int sum = ({ shared int *p = &cells[right]; int v = *p; v + cells[0]; });
    if (sum != 10 + right + 10)
        errors++, printf("Error: statement_expressions: ({ ... }) read %d (thread %d)\n", sum, MYTHREAD);
    if (LARGER(cells[right], cells[MYTHREAD]) != 10 + (right > MYTHREAD ? right : MYTHREAD))
        errors++, printf("Error: statement_expressions: a macro's ({ ... }) (thread %d)\n", MYTHREAD);
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: statement_expressions\n");
    }
    return errors != 0;
}
