/* SPDX-License-Identifier: MIT */
/* Must be rejected: a block size written with the size of a structure
 * holding a pointer-to-shared (see pts_struct_size_dim.upc). */
#include <upc.h>

struct node { int key; struct { shared [] double *data; } payload; };
shared [sizeof(struct node)] char bytes[64 * THREADS]; /* ERROR: size struct node pointer-to-shared */

int main(void)
{
    bytes[MYTHREAD] = 1;
    return 0;
}
