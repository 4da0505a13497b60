/* SPDX-License-Identifier: MIT */
/*
 * mpi_waker.c -- what a pthread that only wakes up costs MPI_Barrier on
 * this host: no libmupc, plain MPI.
 *
 *   mpirun -n N bench/mpi_waker [--quick] [PERIOD_US]
 *
 * While libmupc's computation pthread waits, its communication pthread
 * still wakes every idle_sleep_max_us (2000 us by default) to see whether
 * it must take over (runtime/transport/engine.c, comm_defer).  Each rank
 * here runs MPI_Barrier in batches that alternate between two modes: a
 * second pthread of the rank that sleeps untimed (it does nothing), and
 * the same pthread sleeping PERIOD_US at a time (default 2000) with the
 * 1 us timer slack libmupc's communication pthread asks for.  The waker
 * calls no MPI (MPI_THREAD_SINGLE).  Rank 0 prints, with 2 ranks:
 *   mpi.waker_off.barrier.us   median over batches without wake-ups
 *   mpi.waker_on.barrier.us    median over batches with them
 *   waker.barrier.ratio        median over pairs of batches of on / off
 *   waker.late_us              how much later than asked a timed sleep
 *                              ended, mean over rank 0's wake-ups
 *   waker.cpu_us               CPU time of rank 0's waker per wake-up
 *                              (the timed ones and the ~2 per batch pair
 *                              that change its mode)
 *                              (these two once a timed sleep has run out:
 *                              --quick's batches may be too short)
 * (with N ranks the barriers are named mpi.waker_off.barrier_Nt_us and so
 * on, and the ratio waker.barrier_Nt_ratio).
 *
 * On the 2-core virtual machine this project is built on (Firecracker
 * under PVM), across two emulated hosts, 7-11 jobs each: a 2 ms waker made
 * MPI_Barrier 2.5-4.2 % slower, a 0.5 ms one 15-22 %, a 16 ms one
 * -0.4 to +0.6 %; a 2 ms sleep ended 52-81 us late and cost its pthread
 * 13-27 us of CPU (bench/HISTORY.md, "What a wake-up costs on this
 * host").  On such a host the communication pthread's looks are a price
 * of their own, which no change of libmupc's messages can remove.
 */
#define _GNU_SOURCE
#include "timing.h"

#include <pthread.h>
#include <sys/prctl.h>

#include <mpi.h>

enum { MAX_BATCHES = 64 };

static pthread_mutex_t mode_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mode_cv = PTHREAD_COND_INITIALIZER;
static int waking;   /* under mode_mx: sleep period_ns at a time, else untimed */
static int stopping; /* under mode_mx */
static int64_t period_ns;
static long wakeups;       /* timed sleeps that ran out (waker only) */
static long returns;       /* every return from a wait, mode changes too */
static double late_us_sum; /* how late they ended, in all */

static double thread_cpu_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* One timed sleep on the condition variable, as libmupc's comm_sleep. */
static void timed_sleep(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += period_ns;
    until.tv_sec += until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    double start = bench_now_us();
    int rc = pthread_cond_timedwait(&mode_cv, &mode_mx, &until);
    returns++;
    if (rc != 0) {
        wakeups++;
        late_us_sum += bench_now_us() - start - period_ns / 1000.0;
    }
}

static double waker_cpu_us; /* CPU time of the waker, at its end */

static void *waker(void *arg)
{
    (void)arg;
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    pthread_mutex_lock(&mode_mx);
    while (!stopping) {
        if (waking)
            timed_sleep();
        else if (pthread_cond_wait(&mode_cv, &mode_mx) == 0)
            returns++;
    }
    pthread_mutex_unlock(&mode_mx);
    waker_cpu_us = thread_cpu_us();
    return NULL;
}

static void set_mode(int wake, int stop)
{
    pthread_mutex_lock(&mode_mx);
    waking = wake;
    stopping = stop;
    pthread_cond_signal(&mode_cv);
    pthread_mutex_unlock(&mode_mx);
}

static double barrier_batch(int wake, int iters)
{
    set_mode(wake, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = bench_now_us();
    for (int i = 0; i < iters; i++)
        MPI_Barrier(MPI_COMM_WORLD);
    return (bench_now_us() - t) / iters;
}

/* PERIOD_US in ns, or 0 after printing the usage (rank 0). */
static int64_t parse_period_ns(int argc, char **argv, int rank)
{
    long us = 2000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0)
            continue;
        char *end;
        us = strtol(argv[i], &end, 10);
        if (*end || us < 10 || us > 1000000) {
            if (rank == 0)
                fprintf(stderr, "usage: mpi_waker [--quick] [PERIOD_US], PERIOD_US from 10 "
                                "to 1000000 (default 2000); got '%s'\n", argv[i]);
            return 0;
        }
    }
    return (int64_t)us * 1000;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, nranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    bench_plan_t plan = bench_plan(argc, argv);
    period_ns = parse_period_ns(argc, argv, rank);
    if (period_ns == 0) {
        MPI_Finalize();
        return 2;
    }
    pthread_t th;
    if (pthread_create(&th, NULL, waker, NULL) != 0) {
        fprintf(stderr, "mpi_waker: cannot start the waking pthread\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int iters = bench_iters(&plan, 2000);
    double off[MAX_BATCHES], on[MAX_BATCHES], ratio[MAX_BATCHES];
    barrier_batch(0, iters); /* warm up */
    for (int b = 0; b < plan.batches; b++) {
        int first = b % 2; /* which mode goes first alternates */
        double x = barrier_batch(first, iters), y = barrier_batch(!first, iters);
        on[b] = first ? x : y;
        off[b] = first ? y : x;
        ratio[b] = on[b] / off[b];
    }
    set_mode(0, 1);
    pthread_join(th, NULL);
    if (rank == 0) {
        bench_report_barrier("mpi.waker_off.barrier", nranks, bench_median(off, plan.batches));
        bench_report_barrier("mpi.waker_on.barrier", nranks, bench_median(on, plan.batches));
        bench_report_dotted("waker.barrier", "ratio", nranks, bench_median(ratio, plan.batches));
        if (wakeups > 0)
            printf("waker.late_us %.1f\nwaker.cpu_us %.2f\n", late_us_sum / wakeups,
                   waker_cpu_us / returns); /* the mode changes' wake-ups cost CPU too */
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
