/* SPDX-License-Identifier: MIT */
/*
 * exit_modes.c MODE -- the ways a program ends (tests/scripts/exits.sh):
 *   status N       every thread returns N from main (collective exit)
 *   global N       the last thread calls upc_global_exit(N) while the
 *                  others wait in a barrier or compute
 *   exit N         the last thread calls exit(N) before main ends, the
 *                  others return 0 a moment later (UPC: exit ends that
 *                  thread only; the job ends when every thread has)
 *   exit-barrier N the last thread calls exit(N) while the others wait
 *                  in a barrier (a mismatch: the job aborts, naming it)
 *   crash          the last thread dereferences NULL while others wait
 *   raise SIG      the last thread raises signal SIG (11 SIGSEGV, 7 SIGBUS)
 *                  while the others wait in a barrier
 *   pid            every thread prints its process id, then waits in a
 *                  barrier until a signal from outside ends the job
 *   idle S         every thread sleeps S seconds, then returns 0
 */
#include <mupc_upc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int arg = argc > 2 ? atoi(argv[2]) : 0;
    int last = MYTHREAD == THREADS - 1;
    if (!strcmp(mode, "status"))
        return arg;
    if (!strcmp(mode, "idle")) {
        sleep((unsigned)arg);
        return 0;
    }
    if (!strcmp(mode, "global")) {
        if (last) {
            usleep(100000);
            printf("thread %d calls upc_global_exit(%d)\n", MYTHREAD, arg);
            upc_global_exit(arg);
        }
        if (MYTHREAD % 2)
            for (;;) /* computing, never entering the runtime */
                usleep(1000);
        upc_barrier();
        fprintf(stderr, "FAIL: thread %d passed a barrier the last thread never reached\n",
                MYTHREAD);
        return 99;
    }
    if (!strcmp(mode, "exit")) {
        if (last)
            exit(arg);
        usleep(100000);
        return 0;
    }
    if (!strcmp(mode, "exit-barrier")) {
        if (last)
            exit(arg);
        upc_barrier();
        return 99;
    }
    if (!strcmp(mode, "crash")) {
        if (last) {
            usleep(100000);
            /* arg is 0: a store into the unmapped first page (not to NULL
             * itself, which UBSan's null check would catch first) */
            *(volatile int *)(uintptr_t)(arg + 8) = 1;
        }
        upc_barrier();
        return 99;
    }
    if (!strcmp(mode, "raise")) {
        if (last) {
            usleep(100000);
            raise(arg);
            fprintf(stderr, "FAIL: thread %d survived raise(%d)\n", MYTHREAD, arg);
        }
        upc_barrier();
        return 99;
    }
    if (!strcmp(mode, "pid")) {
        printf("thread %d pid %ld\n", MYTHREAD, (long)getpid());
        fflush(stdout);
        if (last)
            for (;;) /* computing, never entering the runtime */
                usleep(1000);
        upc_barrier();
        return 99;
    }
    fprintf(stderr, "exit_modes: unknown mode '%s'\n", mode);
    return 2;
}
