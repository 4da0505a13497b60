/* SPDX-License-Identifier: MIT */
/* Must be rejected: a shared type qualifier "shall not appear in the
 * specifier-qualifier-list of a structure declaration unless it qualifies
 * a pointer's referenced type" (UPC 1.3 §6.5.1.1, Constraints; EXAMPLE 3). */
#include <upc.h>

struct s {
    shared int x; /* ERROR: shared */
    int y;
};

int main(void)
{
    return 0;
}
