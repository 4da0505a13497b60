/* SPDX-License-Identifier: MIT */
/* Must be rejected: "relational operators shall not be applied to a
 * pointer-to-shared with incomplete type" -- < on two shared void *
 * (UPC 1.3 §6.4.2, Constraints). */
#include <upc.h>
shared int s[THREADS];

int main(void)
{
    shared void *a = &s[0], *b = &s[THREADS - 1];
    return a < b; /* ERROR: relational shared void */
}
