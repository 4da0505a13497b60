/* SPDX-License-Identifier: MIT */
/* Refused with a way out (not translated wrongly): strict or relaxed
 * applied to a typedef of a shared type, which the translator cannot yet
 * give another access mode than the typedef's. */
#include <upc.h>

typedef shared int shared_int_t;
strict shared_int_t flag; /* ERROR: strict typedef supported */

int main(void)
{
    return 0;
}
