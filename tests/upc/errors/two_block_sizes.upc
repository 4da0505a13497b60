/* Must be rejected: "The declaration specifiers in a given declaration
 * shall not specify more than one block size, either directly or
 * indirectly through one or more typedefs" (UPC 1.3 §6.5, Constraints). */
#include <upc.h>

typedef shared [2] int int2_t;
shared [3] int2_t x[6 * THREADS]; /* ERROR: block size */

int main(void)
{
    return 0;
}
