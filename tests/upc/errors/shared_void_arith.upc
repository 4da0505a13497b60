/* SPDX-License-Identifier: MIT */
/* Must be rejected: arithmetic on a pointer to shared void (the
 * pointed-to type must be complete, UPC 1.3 §6.4.2). */
#include <upc.h>

shared int a[THREADS];

int main(void)
{
    shared void *v = &a[0];
    v = v + 1; /* ERROR: arithmetic shared void complete */
    return v == 0;
}
