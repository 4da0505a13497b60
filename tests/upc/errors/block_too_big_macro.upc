/* SPDX-License-Identifier: MIT */
/* Must be rejected: block size UPC_MAX_BLOCK_SIZE + 1 (UPC 1.3 §6.3.3 and
 * its footnote), whatever value the implementation gives the macro. */
#include <upc.h>

shared [UPC_MAX_BLOCK_SIZE + 1] char a[(UPC_MAX_BLOCK_SIZE + 1) * THREADS]; /* ERROR: block size */

int main(void)
{
    a[0] = 1;
    return 0;
}
