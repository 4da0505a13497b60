/* SPDX-License-Identifier: MIT */
/*
 * idle.c -- how much CPU an idle libmupc program burns.
 *
 *   mupcrun -n N bench/idle SECONDS [in-barrier [after-transfers]]
 *
 * Every thread sleeps SECONDS in user code, then meets the others at a
 * barrier.  With in-barrier only thread 0 sleeps, and the others wait for
 * it in the barrier: the waits' own cost, which on nodes with many ranks
 * per core is what the idle sleeps' stretch saves (engine.c).  Each
 * process measures the CPU time its pthreads used over that window
 * (getrusage, all threads of the process); thread 0 prints the sum
 * over all threads:
 *   idle.window_cpu_s X
 * run-bench runs SECONDS=2 and SECONDS=0 and reports the difference as
 * mupc.idle.extra_cpu_s: the cost of idling, which the communication
 * pthreads' backoff (spin, yield, sleep) must keep near zero.
 *
 * With after-transfers each thread first gets TRANSFER bytes from the next
 * thread and puts as many to the previous one.  Over messages those move as
 * fragments, and while fragments are in flight no pthread sleeps
 * (engine.c, bulk_moving): tests/scripts/get_paths.sh checks that the
 * waits sleep again once they are done.
 */
#include <mupc_upc.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

enum { MAX_THREADS = 256, TRANSFER = 3 << 20 };

MUPC_SHARED_ARRAY(cpu_s, double, MAX_THREADS, 0, MUPC_TOTAL) /* all on thread 0 */
MUPC_SHARED_ARRAY(bulk, char, TRANSFER, TRANSFER, MUPC_PER_THREAD)

static void transfers(void)
{
    static char buffer[TRANSFER];
    upc_memget(buffer, MUPC_ELEM(bulk, (size_t)((MYTHREAD + 1) % THREADS) * TRANSFER), TRANSFER);
    upc_memput(MUPC_ELEM(bulk, (size_t)((MYTHREAD + THREADS - 1) % THREADS) * TRANSFER), buffer,
               TRANSFER);
}

static double process_cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 2.0;
    int in_barrier = argc > 2 && strcmp(argv[2], "in-barrier") == 0;
    int after_transfers = in_barrier && argc > 3 && strcmp(argv[3], "after-transfers") == 0;
    /* a misspelt mode must not measure something else under its name */
    int modes_ok = argc <= 2 || (in_barrier && (argc == 3 || (argc == 4 && after_transfers)));
    if (THREADS > MAX_THREADS || seconds < 0 || !modes_ok) {
        if (MYTHREAD == 0)
            fprintf(stderr,
                    "bench/idle: usage: idle SECONDS (>= 0) [in-barrier [after-transfers]], "
                    "at most %d threads\n",
                    MAX_THREADS);
        return 2;
    }
    if (after_transfers)
        transfers();
    upc_barrier();
    double before = process_cpu_s();
    struct timespec nap = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
    if (!in_barrier || MYTHREAD == 0)
        nanosleep(&nap, NULL);
    upc_barrier();
    MUPC_PUT(double, MUPC_ELEM(cpu_s, MYTHREAD), process_cpu_s() - before);
    upc_barrier();
    if (MYTHREAD == 0) {
        double total = 0;
        for (int t = 0; t < THREADS; t++)
            total += MUPC_GET(double, MUPC_ELEM(cpu_s, t));
        printf("idle.window_cpu_s %.4f\n", total);
    }
    return 0;
}
