/* SPDX-License-Identifier: MIT */
/* Must be rejected: "A layout qualifier of [*] shall not appear in the
 * declaration specifiers of a pointer type" (UPC 1.3 §6.5.1.1, Constraints). */
#include <upc.h>

shared [*] int *p; /* ERROR: pointer */

int main(void)
{
    return p == 0;
}
