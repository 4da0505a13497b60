/* SPDX-License-Identifier: MIT */
/* Must be rejected: an object with automatic storage duration shall not
 * have a shared-qualified type (UPC 1.3 §6.5.2 Declarators, Constraints;
 * §6.5.1.1 EXAMPLE 2: "a shared automatic variable is not allowed").
 * `static shared int` in a block, or a private pointer-to-shared
 * (`shared int *p;`), would be fine. */
#include <upc.h>
#include <stdio.h>

int main(void)
{
    shared int x; /* ERROR: shared automatic */
    if (MYTHREAD == 0)
        x = 1;
    upc_barrier;
    printf("%d\n", x);
    return 0;
}
