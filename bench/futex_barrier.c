/* SPDX-License-Identifier: MIT */
/*
 * futex_barrier.c -- the floor for an on-node barrier whose waiters sleep:
 * four processes (not MPI, not libmupc) meet at a bare futex barrier.
 * Each arrives with one fetch-and-add; the last resets the count, bumps
 * the generation word and wakes every sleeper (FUTEX_WAKE); the others
 * sleep on the word at once (FUTEX_WAIT).  No runtime work, no spin.
 * bench/run-bench runs it beside bench/shm's 4-thread barrier, with the
 * same busy process per core, so the two compare in the same conditions
 * (mupc.futex_barrier_4t_loaded_us), and with 2-8 processes beside
 * bench/waits' barriers (the floor of the oversubscription sweep).  Prints
 *
 *   mupc.futex_barrier_<N>t_us   median over batches of the time per barrier
 *
 * Usage: futex_barrier [-n PROCESSES (2-64, default 4)] [--quick]
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROCESSES_MAX 64
#define BATCHES_MAX 64

static unsigned processes = 4;

typedef struct {
    _Atomic unsigned count, generation;
} futex_barrier_t;

static void meet(futex_barrier_t *b)
{
    unsigned seen = atomic_load(&b->generation);
    if (atomic_fetch_add(&b->count, 1) + 1 == processes) {
        atomic_store(&b->count, 0);
        atomic_fetch_add(&b->generation, 1);
        syscall(SYS_futex, &b->generation, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
        return;
    }
    while (atomic_load(&b->generation) == seen)
        syscall(SYS_futex, &b->generation, FUTEX_WAIT, seen, NULL, NULL, 0);
}

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 2 || n > PROCESSES_MAX) {
                fprintf(stderr, "bench/futex_barrier: -n takes 2 to %d processes, not '%s'\n",
                        PROCESSES_MAX, argv[i]);
                return 2;
            }
            processes = (unsigned)n;
        } else {
            fprintf(stderr, "usage: futex_barrier [-n PROCESSES] [--quick]\n");
            return 2;
        }
    }
    int batches = quick ? 3 : 11, iters = quick ? 200 : 2000;
    futex_barrier_t *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                              -1, 0);
    if (b == MAP_FAILED) {
        perror("bench/futex_barrier: mmap");
        return 1;
    }
    int total = (batches + 1) * iters; /* a batch of warm-up first */
    for (unsigned p = 1; p < processes; p++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("bench/futex_barrier: fork");
            return 1;
        }
        if (pid == 0) {
            for (int i = 0; i < total; i++)
                meet(b);
            _exit(0);
        }
    }
    double times[BATCHES_MAX];
    for (int i = 0; i < iters; i++)
        meet(b);
    for (int k = 0; k < batches; k++) {
        double t0 = now_us();
        for (int i = 0; i < iters; i++)
            meet(b);
        times[k] = (now_us() - t0) / iters;
    }
    int status, failed = 0;
    while (wait(&status) > 0)
        failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (failed) {
        fprintf(stderr, "bench/futex_barrier: a process failed\n");
        return 1;
    }
    qsort(times, (size_t)batches, sizeof times[0], by_value);
    printf("mupc.futex_barrier_%ut_us %.3f\n", processes, times[batches / 2]);
    return 0;
}
