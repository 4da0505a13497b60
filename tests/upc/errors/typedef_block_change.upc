/* SPDX-License-Identifier: MIT */
/* Must be rejected: an implicit conversion between pointers-to-shared of
 * different block sizes, both named through typedefs (clang quotes the
 * typedef names, each with its meaning after "aka"; the translator at
 * 9622fd6 read the wrong pair and accepted this). */
#include <upc.h>

typedef shared [4] int *b4p;
typedef shared int *b1p;
shared [4] int A[4 * THREADS];

int main(void)
{
    b4p p = &A[1];
    b1p q = p; /* ERROR: implicit conversion block size 4 1 */
    return q == 0;
}
