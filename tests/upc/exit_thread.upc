/* SPDX-License-Identifier: MIT */
/* exit_thread.upc -- exit() ends only the calling thread (UPC 1.3
 * §5.1.2.2.3: a thread terminates by C's rules for program termination,
 * the program when every thread has): the other threads go on, and the
 * exited threads' shared data stays readable and writable until every
 * thread has ended (Berkeley's bugzilla exittest). */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

shared int data[THREADS];
strict shared int gone[THREADS];

int main(void)
{
    data[MYTHREAD] = 3;
    if (MYTHREAD != 0) {
        gone[MYTHREAD] = 1;
        exit(0);
    }
    for (int t = 1; t < THREADS; t++)
        while (!gone[t])
            usleep(1000);
    usleep(100000); /* the others are well inside exit() by now */
    int total = 0;
    for (int t = 0; t < THREADS; t++) {
        data[t] += 1;
        total += data[t];
    }
    if (total == 4 * THREADS)
        printf("Success: exit_thread\n");
    else
        printf("Error: exit_thread: total %d, want %d\n", total, 4 * THREADS);
    return total != 4 * THREADS;
}
