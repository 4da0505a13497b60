/* SPDX-License-Identifier: MIT */
/* Must be rejected: a layout qualifier above UPC_MAX_BLOCK_SIZE
 * (UPC 1.3 §6.3.3: UPC_MAX_BLOCK_SIZE "indicates the maximum value allowed
 * in a layout qualifier for shared data"; its footnote calls
 * `shared [UPC_MAX_BLOCK_SIZE+1] char x[...]` a translation error).
 * libmupc's headers do not define UPC_MAX_BLOCK_SIZE; 4194305 assumes the
 * translator uses 4194304 (2^22, Berkeley UPC's value).  See
 * block_too_big_macro.upc for the form that does not depend on the value. */
#include <upc.h>

shared [4194305] int a[4194305 * THREADS]; /* ERROR: block size */

int main(void)
{
    a[0] = 1;
    return 0;
}
