/* SPDX-License-Identifier: MIT */
/* Must be rejected: "No binary operators shall be applied to one
 * pointer-to-shared and one pointer-to-local" (UPC 1.3 §6.4.2, Constraints). */
#include <upc.h>

shared int a[THREADS];

int main(void)
{
    int i = 0, *lp = &i;
    shared int *sp = &a[0];
    return sp == lp; /* ERROR: pointer */
}
