/* SPDX-License-Identifier: MIT */
/* Must be rejected: < between pointers-to-shared to different types, one
 * of them void (UPC 1.3 §6.4.2; the UPC specification's issue 104). */
#include <upc.h>

shared int x;

int main(void)
{
    shared int *p = &x;
    shared void *q = &x;
    return p < q; /* ERROR: relational void incomplete */
}
