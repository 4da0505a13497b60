/* SPDX-License-Identifier: MIT */
/* Must be rejected in the dynamic THREADS environment: a private array of
 * pointers with THREADS in a dimension (only a shared array may have it,
 * UPC 1.3 §6.5.2.1).  It once became a one-element array silently. */
#include <upc.h>

upc_lock_t *locks[THREADS]; /* ERROR: private array THREADS not constant */

int main(void)
{
    return locks[0] != NULL;
}
