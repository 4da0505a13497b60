/* SPDX-License-Identifier: MIT */
/* A layout qualifier's block size must be an integer constant expression
 * (UPC 1.3 §6.5.1.1): refused where the qualifier is written, not past
 * the end of the file. */
#include <upc.h>

int n = 4;
shared [n] int a[4 * THREADS]; /* ERROR: block size not integer constant shared [n] */

int main(void)
{
    return 0;
}
