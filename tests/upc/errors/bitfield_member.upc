/* SPDX-License-Identifier: MIT */
/* Refused, with a way out: a bit-field of a shared structure.  UPC 1.3
 * allows it; mupc-translate does not translate bit-field accesses of shared
 * data yet, and says so instead of producing wrong code. */
#include <upc.h>

typedef struct {
    unsigned flags : 3;
    unsigned count : 5;
} packed_t;
shared packed_t packed[THREADS];

int main(void)
{
    packed[MYTHREAD].count = 7; /* ERROR: bit-field count not supported */
    return 0;
}
