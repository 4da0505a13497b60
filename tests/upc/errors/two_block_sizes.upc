/* SPDX-License-Identifier: MIT */
/* Must be rejected: two different layout qualifiers on one type (UPC 1.3
 * §6.5.1.1, Constraints: a type has one block size; repeating the same
 * one is allowed). */
#include <upc.h>

shared [3] shared [3] int same[3 * THREADS]; /* allowed */
shared [3] shared [4] int x[12 * THREADS]; /* ERROR: two layout qualifiers block size */

int main(void)
{
    return 0;
}
