/* SPDX-License-Identifier: MIT */
/* bulk.upc -- bulk transfers (UPC 1.3 §7.2.5): upc_memput, upc_memget,
 * upc_memcpy and upc_memset between private buffers and blocks of a
 * shared [16] char array (each call stays inside one thread's block). */
#include <upc.h>
#include <stdio.h>
#include <string.h>

#define NAME "bulk"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared [16] char buf[16 * THREADS];
shared [16] char buf2[16 * THREADS];
shared [8] int ib[8 * THREADS];
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, right = (MYTHREAD + 1) % THREADS;
    char out[16], in[16];
    int iv[8], jv[8];

    for (i = 0; i < 16; i++)
        out[i] = (char)(MYTHREAD * 16 + i);
    upc_memput(&buf[16 * MYTHREAD], out, 16);
    for (i = 0; i < 8; i++)
        iv[i] = 1000 * MYTHREAD + i * i;
    upc_memput(&ib[8 * MYTHREAD], iv, sizeof iv);
    upc_barrier;

    memset(in, 0, sizeof in);
    upc_memget(in, &buf[16 * right], 16);
    for (i = 0; i < 16; i++)
        CHECK(in[i] == (char)(right * 16 + i), "upc_memget of the neighbour's block");
    for (i = 0; i < 16 * THREADS; i++)
        CHECK(buf[i] == (char)i, "element reads see upc_memput data");
    upc_memget(jv, &ib[8 * right], sizeof jv);
    for (i = 0; i < 8; i++) {
        CHECK(jv[i] == 1000 * right + i * i, "upc_memget of ints");
        CHECK(ib[8 * right + i] == 1000 * right + i * i, "element reads of upc_memput ints");
    }
    upc_barrier;

    /* shared-to-shared copy of the right neighbour's block into my block of buf2 */
    upc_memcpy(&buf2[16 * MYTHREAD], &buf[16 * right], 16);
    upc_barrier;
    for (i = 0; i < THREADS; i++) {
        int src = (i + 1) % THREADS;
        int k;
        upc_memget(in, &buf2[16 * i], 16);
        for (k = 0; k < 16; k++)
            CHECK(in[k] == (char)(src * 16 + k), "upc_memcpy copied the neighbour's block");
    }
    upc_barrier;

    /* upc_memset of my whole block, then a partial memput inside it */
    upc_memset(&buf[16 * MYTHREAD], 'A' + MYTHREAD, 16);
    upc_memput(&buf[16 * MYTHREAD + 3], "hello", 5);
    upc_barrier;
    for (i = 0; i < 16; i++) {
        char want = (i >= 3 && i < 8) ? "hello"[i - 3] : (char)('A' + right);
        CHECK(buf[16 * right + i] == want, "upc_memset then partial upc_memput");
    }
    upc_memget(in, &buf[16 * right + 3], 5);
    CHECK(memcmp(in, "hello", 5) == 0, "upc_memget of a partial block");

    /* a zero-length transfer is allowed and does nothing */
    upc_memget(in, &buf[16 * right], 0);
    CHECK(memcmp(in, "hello", 5) == 0, "zero-length upc_memget leaves the buffer alone");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
