/* SPDX-License-Identifier: MIT */
/* Must be rejected in the dynamic THREADS environment: "the THREADS
 * expression shall only occur either alone or when multiplied by an
 * integer constant expression" (UPC 1.3 §6.5.2.1, Constraints; EXAMPLE 2
 * lists `shared int x [10+THREADS];` as static-THREADS only). */
#include <upc.h>

shared int x[10 + THREADS]; /* ERROR: THREADS */

int main(void)
{
    return 0;
}
