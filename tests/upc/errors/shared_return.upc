/* SPDX-License-Identifier: MIT */
/* Must be rejected: a function returning a shared-qualified type. */
#include <upc.h>

shared int value(void) /* ERROR: returns shared-qualified type value */
{
    return 0;
}

int main(void)
{
    return value();
}
