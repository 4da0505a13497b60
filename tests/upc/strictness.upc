/* SPDX-License-Identifier: MIT */
/* strictness.upc -- strict/relaxed categorization (UPC 1.3 §6.5.1.1,
 * §6.7.1, §7.1 <upc_strict.h>).  Including <upc_strict.h> makes shared
 * accesses whose type is neither strict- nor relaxed-qualified strict;
 * `#pragma upc relaxed` / `#pragma upc strict` at the start of a compound
 * statement change that until the end of the block; explicit strict /
 * relaxed qualifiers win over the pragmas.  Each flag handoff below is
 * correct only if the flag accesses really are strict. */
#include <upc_strict.h>
#include <stdio.h>
#include <time.h>

#define NAME "strictness"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared [] int payload[8];           /* all on thread 0 */
shared int flag1, flag3;            /* unqualified: strict here */
strict shared int sflag;            /* strict whatever the pragma */
relaxed shared int rx[THREADS];     /* relaxed whatever the pragma */
shared int cells[THREADS];
shared int errs[THREADS];

/* Strict reads (file scope of a <upc_strict.h> file); 0 on time-out. */
static int wait_flag(shared int *f)
{
    time_t start = time(NULL);
    while (*f != 1)
        if (time(NULL) - start > 10)
            return 0;
    return 1;
}

static int relaxed_part(void)
{
#pragma upc relaxed
    int errors = 0;
    cells[MYTHREAD] = 10 + MYTHREAD;         /* relaxed write */
    if (MYTHREAD == 0) {
        payload[2] = 22;                     /* relaxed write ... */
        sflag = 1;                           /* ... ordered by this strict write */
    }
    if (MYTHREAD == THREADS - 1) {
        time_t start = time(NULL);
        while (sflag != 1)                   /* strict by qualifier */
            if (time(NULL) - start > 10)
                break;
        CHECK(sflag == 1, "timed out on the strict-qualified flag in a relaxed block");
        CHECK(payload[2] == 22, "data before a strict-qualified flag in a relaxed block");
    }
    {
#pragma upc strict
        if (MYTHREAD == 0) {
            payload[3] = 33;
            flag3 = 1;                       /* strict by the inner pragma */
        }
        if (MYTHREAD == THREADS - 1) {
            CHECK(wait_flag(&flag3), "timed out on flag3 under #pragma upc strict");
            CHECK(payload[3] == 33, "data before flag3 under #pragma upc strict");
        }
    }
    return errors;
}

int main(void)
{
    int errors = 0;
    int i, total;

    /* unqualified accesses are strict in this file */
    if (MYTHREAD == 0) {
        payload[1] = 11;
        flag1 = 1;
    }
    if (MYTHREAD == THREADS - 1) {
        CHECK(wait_flag(&flag1), "timed out on an unqualified flag under <upc_strict.h>");
        CHECK(payload[1] == 11, "data before an unqualified (strict) flag");
    }
    upc_barrier;

    errors += relaxed_part();
    rx[MYTHREAD] = 5 * MYTHREAD;             /* explicitly relaxed access */
    {
#pragma upc relaxed
        int k;
        for (k = 0; k < 3; k++)
            cells[MYTHREAD] += 1;            /* relaxed read-modify-write of my own cell */
    }
    cells[MYTHREAD] += 100;                  /* strict again after the block */
    upc_barrier;

    for (i = 0; i < THREADS; i++) {
        CHECK(cells[i] == 113 + i, "cells[i] after relaxed and strict updates");
        CHECK(rx[i] == 5 * i, "relaxed-qualified array in a strict file");
    }
    CHECK(payload[1] == 11 && payload[2] == 22 && payload[3] == 33, "all handoff data");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
