/* SPDX-License-Identifier: MIT */
/* A block size from a parameter, in a local pointer's type: refused at
 * the qualifier's line (UPC 1.3 §6.5.1.1). */
#include <upc.h>

int main(int argc, char **argv)
{
    shared [argc] int *p = 0; /* ERROR: block size not integer constant argc */
    (void)argv;
    return p == 0;
}
