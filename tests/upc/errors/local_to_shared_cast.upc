/* SPDX-License-Identifier: MIT */
/* Must be rejected: "A shared type qualifier shall not appear in a type
 * cast where the corresponding pointer component of the type of the
 * expression being cast is not shared-qualified" -- pointers-to-local
 * cannot be cast to pointers-to-shared (UPC 1.3 §6.4.3, Constraints). */
#include <upc.h>

int main(void)
{
    int i = 0, *p = &i;
    shared int *q;
    q = (shared int *)p; /* ERROR: shared */
    return q == 0;
}
