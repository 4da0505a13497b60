/* SPDX-License-Identifier: MIT */
/* Must be rejected: a shared array's dimension with the size of a
 * structure holding a pointer-to-shared (through an enumeration constant),
 * which clang, where the translation evaluates it, lays out with 8-byte
 * pointers and the compiled program with 16. */
#include <upc.h>

struct node { shared int *next; int key; };
enum { NODE_BYTES = sizeof(struct node) };
shared [] char pool[2 * NODE_BYTES]; /* ERROR: size struct node pointer-to-shared */

int main(void)
{
    pool[0] = 1;
    return 0;
}
