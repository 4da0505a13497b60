/* SPDX-License-Identifier: MIT */
/* Must be rejected in the dynamic THREADS environment: a definitely
 * blocked shared array whose declarator has no THREADS dimension (UPC 1.3
 * §6.5.2.1, Constraints: THREADS "shall occur exactly once"; EXAMPLE 2
 * lists `shared int x [10];` as static-THREADS only). */
#include <upc.h>

shared int x[10]; /* ERROR: THREADS */

int main(void)
{
    return 0;
}
