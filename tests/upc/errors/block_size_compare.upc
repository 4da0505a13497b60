/* SPDX-License-Identifier: MIT */
/* Must be rejected: comparing pointers-to-shared with different block
 * sizes (incompatible pointed-to types, UPC 1.3 §6.4.2; C99 §6.5.9 and
 * §6.5.8, Constraints). */
#include <upc.h>

shared [3] int a[3 * THREADS];
shared [4] int *p;

int main(void)
{
    shared [3] int *q = &a[1];
    return p == q; /* ERROR: comparison block sizes cast */
}
