/* SPDX-License-Identifier: MIT */
/* Must be rejected: upc_memcpy with two arguments (UPC 1.3 §7.2.5 gives
 * it three), reported at the call by the translator, which declares the
 * UPC library with its prototypes. */
#include <upc.h>

shared int a[THREADS];

int main(void)
{
    upc_memcpy(&a[0], &a[1]); /* ERROR: too few arguments expected 3 */
    return 0;
}
