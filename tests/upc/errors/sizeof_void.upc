/* SPDX-License-Identifier: MIT */
/* Must be rejected: sizeof(void) (C99 §6.5.3.4; GNU C's extension). */
#include <upc.h>

int main(void)
{
    return (int)sizeof(void); /* ERROR: sizeof void */
}
