/* SPDX-License-Identifier: MIT */
/* Must be rejected: < between pointers-to-shared to distinct complete
 * types (UPC 1.3 §6.4.2, C99 §6.5.8: compatible object types). */
#include <upc.h>

shared int x[THREADS];

int main(void)
{
    shared int *p = &x[0];
    shared long *q = (shared long *)&x[0];
    return p < q; /* ERROR: relational different types compatible */
}
