/* SPDX-License-Identifier: MIT */
/* Must be rejected: "The expression for affinity shall have
 * pointer-to-shared type or integer type" (UPC 1.3 §6.6.2, Constraints). */
#include <upc.h>

shared int a[10 * THREADS];

int main(void)
{
    int i;
    double aff = 0.0;
    upc_forall (i = 0; i < 10 * THREADS; i++; aff + i) /* ERROR: affinity */
        a[i] = i;
    return 0;
}
