/* SPDX-License-Identifier: MIT */
/* Must be rejected: "No type qualifier list shall include both strict and
 * relaxed" (UPC 1.3 §6.5 and §6.5.2, Constraints). */
#include <upc.h>

strict relaxed shared int x; /* ERROR: strict relaxed */

int main(void)
{
    return 0;
}
