/* SPDX-License-Identifier: MIT */
/* pts_sizes.upc -- the size of a pointer-to-shared where the translator
 * (through clang) evaluates a constant: array dimensions, a block size,
 * an enumeration constant, each written with sizeof of a pointer-to-shared
 * type or object (as Berkeley's UPC-Atomic-RefImp sizes its broadcast
 * buffers).  Every figure is checked against sizeof of the same pointer
 * at run time, and the layouts against UPC 1.3's formulas. */
#include <upc.h>
#include <stdio.h>

#define NAME "pts_sizes"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define SZ MAX(sizeof(long long), sizeof(shared void *))

typedef shared int *sip;
static shared [] char src[SZ];
static shared [SZ] char dst[THREADS][SZ];
shared sip ptrs[THREADS];
typedef shared [2] double D2;
shared [ upc_blocksizeof(D2) ] int spaced[8 * THREADS]; /* block size 2, written with blanks */
enum { PTS_SIZE = sizeof(shared int *), SIP_SIZE = sizeof(sip), OBJ_SIZE = sizeof(ptrs[0]) };
static char buf[sizeof(sip)];

int main(void)
{
    int errors = 0;
    sip probe = &ptrs[0] == NULL ? NULL : (sip)0;
    (void)probe;
    size_t pts = sizeof probe;
    CHECK(pts == sizeof(shared void *) && pts >= sizeof(long long), "sizeof of a pointer-to-shared");
    CHECK(PTS_SIZE == pts && SIP_SIZE == pts && OBJ_SIZE == pts, "enumeration constants");
    CHECK(sizeof buf == pts, "a private array sized by sizeof(typedef)");
    CHECK(sizeof(src) == pts && upc_localsizeof(src) >= pts, "shared [] array sized by sizeof");
    CHECK(upc_blocksizeof(dst) == pts, "a block size written with sizeof");
    CHECK(upc_blocksizeof(spaced) == 2 && upc_threadof(&spaced[2]) == 1 % THREADS,
          "a block size written as upc_blocksizeof of a typedef, with blanks");
    CHECK(sizeof(dst) == THREADS * pts, "a THREADS x sizeof array");
    for (int i = 0; i < THREADS; i++)
        for (size_t j = 0; j < pts; j++) {
            CHECK(upc_threadof(&dst[i][j]) == (size_t)i, "row i lies on thread i");
            CHECK(upc_phaseof(&dst[i][j]) == j, "phase within the row");
        }
    for (size_t j = 0; j < pts; j++)
        dst[MYTHREAD][j] = (char)(MYTHREAD + j);
    if (MYTHREAD == 0)
        for (size_t j = 0; j < pts; j++)
            src[j] = (char)(3 * j);
    upc_barrier;
    int next = (MYTHREAD + 1) % THREADS;
    for (size_t j = 0; j < pts; j++) {
        CHECK(dst[next][j] == (char)(next + j), "a row written by its thread, read by the next");
        CHECK(src[j] == (char)(3 * j), "the last byte of the shared [] array too");
    }
    upc_barrier;
    if (errors == 0)
        printf("Success: %s\n", NAME);
    return errors != 0;
}
