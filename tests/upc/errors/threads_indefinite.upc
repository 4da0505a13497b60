/* SPDX-License-Identifier: MIT */
/* Must be rejected in the dynamic THREADS environment: THREADS "shall not
 * appear anywhere in the declarator of a shared array with indefinite
 * blocksize" (UPC 1.3 §6.5.2.1, footnote to the Constraints; EXAMPLE 2
 * lists `shared [] int x [THREADS];` as static-THREADS only). */
#include <upc.h>

shared [] int x[THREADS]; /* ERROR: THREADS */

int main(void)
{
    return 0;
}
