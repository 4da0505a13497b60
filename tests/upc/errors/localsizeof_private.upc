/* SPDX-License-Identifier: MIT */
/* Must be rejected: "The upc_localsizeof operator shall apply only to
 * shared-qualified expressions or shared-qualified types" (UPC 1.3
 * §6.4.1.2, Constraints). */
#include <upc.h>

int priv[10];

int main(void)
{
    return (int)upc_localsizeof(priv); /* ERROR: upc_localsizeof */
}
