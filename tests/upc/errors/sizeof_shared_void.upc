/* SPDX-License-Identifier: MIT */
/* Must be rejected: sizeof of shared void, an incomplete type (C99
 * §6.5.3.4 and UPC 1.3 §6.4.1, Constraints). */
#include <upc.h>

int main(void)
{
    return (int)sizeof(shared void); /* ERROR: sizeof void incomplete */
}
