/* SPDX-License-Identifier: MIT */
/* Must be rejected: shared [*] computes a block size of
 * UPC_MAX_BLOCK_SIZE + 1 here, above the largest allowed (UPC 1.3 §6.3.3
 * footnote, §6.5.1.1). */
#include <upc.h>
shared [*] char big[(UPC_MAX_BLOCK_SIZE + 1) * THREADS]; /* ERROR: block size UPC_MAX_BLOCK_SIZE */

int main(void)
{
    return 0;
}
