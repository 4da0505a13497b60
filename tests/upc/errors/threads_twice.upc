/* SPDX-License-Identifier: MIT */
/* Must be rejected in the dynamic THREADS environment: "When a UPC program
 * is translated in the dynamic THREADS environment and an array with
 * shared-qualified elements is declared with definite blocksize, the
 * THREADS expression shall occur exactly once in one dimension of the
 * array declarator (including through typedefs)" (UPC 1.3 §6.5.2.1 Array
 * declarators, Constraints, paragraph 1).  Here the (default, definite)
 * block size is 1 and THREADS occurs in two dimensions.  (It would be
 * valid in the static THREADS environment, where THREADS is a constant.) */
#include <upc.h>

shared int a[THREADS][THREADS]; /* ERROR: THREADS */

int main(void)
{
    a[0][0] = 1;
    return 0;
}
