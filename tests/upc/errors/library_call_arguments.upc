/* SPDX-License-Identifier: MIT */
/* Must be rejected: a UPC library call checked against its prototype (UPC
 * 1.3 §7.2.5): a local buffer where upc_memput wants the shared
 * destination.  The translation-time prelude declares the library with
 * the specifications' prototypes, so this is the translator's error at
 * the user's line, not the C compiler's inside a macro expansion. */
#include <upc.h>

shared int a[THREADS];

int main(void)
{
    int local[4] = {0};
    upc_memput(local, local, sizeof local); /* ERROR: local pointer cannot be converted pointer-to-shared */
    return a[0];
}
