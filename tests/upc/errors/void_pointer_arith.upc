/* SPDX-License-Identifier: MIT */
/* Must be rejected: arithmetic on a local void * (C99 §6.5.6; GNU C's
 * extension, refused by UPC compilers). */
#include <upc.h>

int a[10];

int main(void)
{
    void *p = a;
    p = p + 1; /* ERROR: arithmetic pointer void char */
    return *(int *)p;
}
