/* SPDX-License-Identifier: MIT */
/* Must be rejected: [*] in a typedef (UPC 1.3 §6.5.1.1; the UPC
 * specification's issue 71). */
#include <upc.h>

typedef shared [*] int star_t; /* ERROR: [*] typedef */
star_t arr[3 * THREADS];

int main(void)
{
    arr[0] = 0;
    return 0;
}
