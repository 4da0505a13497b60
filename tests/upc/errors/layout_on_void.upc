/* SPDX-License-Identifier: MIT */
/* Must be rejected: a layout qualifier on void (UPC 1.3 §6.5.1.1,
 * Constraints: none in the referenced type of a pointer to void). */
#include <upc.h>

shared [5] void *p; /* ERROR: layout qualifier void */

int main(void)
{
    return p == NULL;
}
