/* SPDX-License-Identifier: MIT */
/* Must be rejected: pointers-to-shared with different block sizes point to
 * incompatible types, so assigning one to the other needs a cast (UPC 1.3
 * §6.4.3; C99 §6.5.16.1, Constraints). */
#include <upc.h>

shared [3] int a[3 * THREADS];
shared [4] int *p;

int main(void)
{
    p = &a[1]; /* ERROR: block size 3 4 cast */
    return 0;
}
