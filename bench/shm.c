/* SPDX-License-Identifier: MIT */
/*
 * shm.c -- remote access between the threads of a node, and across
 * (simulated) nodes: the figures of on-node shared memory.
 *
 *   mupcrun -n N bench/shm PREFIX [--quick]
 *
 * run-bench runs it with shm = on (PREFIX mupc.shm: every thread on this
 * node maps the others' segments) and with simulate_nodes = 2 (PREFIX
 * mupc.sim2: threads 0 .. N/2-1 and N/2 .. N-1 are two pretend nodes).
 * Thread 0 works on thread N/2's data, the first thread of the other half
 * (on this node with shm, on the other pretend node with simulate_nodes),
 * while the others wait at a barrier:
 *   PREFIX.get.latency_us       8-byte relaxed get
 *   PREFIX.put.latency_us       8-byte strict put (complete when it returns)
 *   PREFIX.memget.bw_mbs        1 MiB upc_memget
 *   PREFIX.atomic.fadd_us       UPC 1.3 relaxed fetch-and-add on an int64
 *   PREFIX.lock.uncontended_us  upc_lock + upc_unlock of a lock of thread N/2
 *   mupc.memcpy.bw_mbs          memcpy of 1 MiB inside this process (2 threads)
 * then every thread runs barriers:
 *   PREFIX.barrier.us           upc_barrier (PREFIX.barrier_4t_us at 4 threads)
 * Other thread counts than 2 put _Nt before the unit, as bench/core does.
 * With PREFIX mupc.shm and 2 threads, also:
 *   mupc.barrier_wait_wake_us   from the last arrival at a barrier to the
 *                               release of a thread asleep in it (below)
 *   mupc.coll_wait_wake_us      the same for a thread asleep in a broadcast
 *   mupc.futex_wake_us          the floor under both: a bare futex wake of
 *                               the other process, asleep in FUTEX_WAIT
 * Every figure is the median over batches; results read back are checked.
 */
#include <mupc_upc.h>
#include <upc_atomic.h>
#include <upc_castable.h>
#include <upc_collective.h>

#include "timing.h"

#include <linux/futex.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { BIG = 1 << 20 };

MUPC_SHARED_ARRAY(word, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(counter, long long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(handle, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(bulk, char, BIG, BIG, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(stamp, double, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(ping, uint32_t, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(ping_mapped, long, 1, 1, MUPC_PER_THREAD)

static const char *prefix;
static int target; /* THREADS / 2 */

static void fail(const char *what, long long got, long long want)
{
    fprintf(stderr, "bench/shm: %s: read %lld, expected %lld\n", what, got, want);
    upc_global_exit(1);
}

static void report(const char *what, const char *unit, double value)
{
    char name[128];
    snprintf(name, sizeof name, "%s.%s", prefix, what);
    bench_report(name, unit, THREADS, value);
}

/* The median of `batches` batch means of `iters` calls of op(i). */
#define TIME_BATCHES(plan, iters, op)                                                     \
    ({                                                                                    \
        double means_[64];                                                                \
        for (int b_ = 0; b_ < (plan)->batches; b_++) {                                    \
            double t0_ = bench_now_us();                                                  \
            for (int i = 0; i < (iters); i++)                                             \
                op;                                                                       \
            means_[b_] = (bench_now_us() - t0_) / (iters);                                \
        }                                                                                 \
        bench_median(means_, (plan)->batches);                                            \
    })

static double get_latency(const bench_plan_t *plan, int iters)
{
    mupc_ptr_t p = MUPC_ELEM(word, target);
    long sum = 0;
    double us = TIME_BATCHES(plan, iters, sum += MUPC_GET(long, p));
    if (sum != 4242L * iters * plan->batches)
        fail("remote get", sum, 4242L * iters * plan->batches);
    return us;
}

static double strict_put_latency(const bench_plan_t *plan, int iters)
{
    mupc_ptr_t p = MUPC_ELEM(word, target);
    double us = TIME_BATCHES(plan, iters, MUPC_PUT_STRICT(long, p, i));
    if (MUPC_GET_STRICT(long, p) != iters - 1)
        fail("strict put", MUPC_GET_STRICT(long, p), iters - 1);
    MUPC_PUT_STRICT(long, p, 4242);
    return us;
}

/* MB/s of `copy` over 1 MiB. */
static double bandwidth(const bench_plan_t *plan, int iters, char *dst, int from_shared)
{
    static char private_src[BIG];
    memset(private_src, 1, BIG);
    double us = TIME_BATCHES(plan, iters,
                             from_shared ? upc_memget(dst, MUPC_ELEM(bulk, (size_t)target * BIG), BIG)
                                         : (void)memcpy(dst, private_src, BIG));
    if (dst[BIG - 1] != 1)
        fail(from_shared ? "upc_memget" : "memcpy", dst[BIG - 1], 1);
    return BIG / us;
}

static double fetch_add(const bench_plan_t *plan, int iters, upc_atomicdomain_t *d)
{
    mupc_ptr_t p = MUPC_ELEM(counter, target);
    long long one = 1, old = -1;
    double us = TIME_BATCHES(plan, iters, upc_atomic_relaxed(d, &old, UPC_ADD, p, &one, NULL));
    if (old + 1 != (long long)iters * plan->batches)
        fail("fetch-and-add total", old + 1, (long long)iters * plan->batches);
    return us;
}

static double lock_uncontended(const bench_plan_t *plan, int iters, upc_lock_t l)
{
    return TIME_BATCHES(plan, iters, (upc_lock(l), upc_unlock(l)));
}

/* Thread 1 waits in a barrier long enough to have gone to sleep in it;
 * thread 0 arrives 5 ms later, taking a timestamp just before, and thread
 * 1 measures from it to its own return.  CLOCK_MONOTONIC is one clock
 * for all the processes of a machine.  Median over the rounds. */
static double wait_wake(const bench_plan_t *plan)
{
    double delay[41];
    int rounds = plan->quick ? 5 : 41;
    mupc_ptr_t p = MUPC_ELEM(stamp, 1);
    for (int r = 0; r < rounds; r++) {
        upc_barrier();
        if (MYTHREAD == 0) {
            usleep(5000);
            MUPC_PUT_STRICT(double, p, bench_now_us());
            upc_barrier();
        } else {
            upc_barrier();
            delay[r] = bench_now_us() - MUPC_GET_STRICT(double, p);
        }
    }
    return MYTHREAD == 1 ? bench_median(delay, rounds) : 0;
}

/* The same for a collective: thread 1 waits in a broadcast from thread 0,
 * which calls it 5 ms late, stamping just before.  The broadcast is a
 * message on the node (UPC_IN_NOSYNC: the wait is for the data itself),
 * so the sleeper is woken by the sender's ring of its message bell. */
static double coll_wait_wake(const bench_plan_t *plan)
{
    double delay[41];
    int rounds = plan->quick ? 5 : 41;
    mupc_ptr_t p = MUPC_ELEM(stamp, 1);
    mupc_ptr_t dst = upc_all_alloc((size_t)THREADS, 8), src = upc_all_alloc(1, 8);
    for (int r = 0; r < rounds; r++) {
        upc_barrier();
        if (MYTHREAD == 0) {
            usleep(5000);
            MUPC_PUT(long, src, r);
            MUPC_PUT_STRICT(double, p, bench_now_us());
        }
        upc_all_broadcast(dst, src, 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
        if (MYTHREAD == 1) {
            delay[r] = bench_now_us() - MUPC_GET_STRICT(double, p);
            long got = MUPC_GET(long, mupc_ptr_add(dst, 1, 8, 1));
            if (got != r)
                fail("broadcast", got, r);
        }
    }
    upc_barrier();
    upc_all_free(dst);
    upc_all_free(src);
    return MYTHREAD == 1 ? bench_median(delay, rounds) : 0;
}

/* The floor under both: a bare futex wake between the two processes.
 * Thread 1 sleeps in FUTEX_WAIT on a word of its segment; thread 0, 5 ms
 * later, stamps, bumps the word through its mapping and wakes it.  NAN
 * when the word is not mapped here (shm off). */
static double futex_wake(const bench_plan_t *plan)
{
    double delay[41];
    int rounds = plan->quick ? 5 : 41;
    mupc_ptr_t p = MUPC_ELEM(stamp, 1);
    _Atomic uint32_t *w = upc_cast(MUPC_ELEM(ping, 1));
    if (MYTHREAD == 0)
        MUPC_PUT_STRICT(long, MUPC_ELEM(ping_mapped, 0), w != NULL);
    upc_barrier();
    if (!MUPC_GET_STRICT(long, MUPC_ELEM(ping_mapped, 0)))
        return NAN;
    for (int r = 0; r < rounds; r++) {
        upc_barrier();
        if (MYTHREAD == 0) {
            usleep(5000);
            MUPC_PUT_STRICT(double, p, bench_now_us());
            atomic_fetch_add(w, 1);
            syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, 1, NULL, NULL, 0);
        } else if (MYTHREAD == 1) {
            uint32_t seen = atomic_load(w);
            while (atomic_load(w) == seen)
                syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, seen, NULL, NULL, 0);
            delay[r] = bench_now_us() - MUPC_GET_STRICT(double, p);
        }
    }
    return MYTHREAD == 1 ? bench_median(delay, rounds) : 0;
}

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    prefix = argc > 1 && argv[1][0] != '-' ? argv[1] : "mupc.shm";
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/shm: needs at least 2 threads (mupcrun -n 2)\n");
        return 2;
    }
    target = THREADS / 2;
    MUPC_PUT(long, MUPC_ELEM(word, MYTHREAD), 4242);
    memset(mupc_local_addr(MUPC_ELEM(bulk, (size_t)MYTHREAD * BIG)), 1, BIG);
    if (MYTHREAD == target)
        MUPC_PUT(pts, MUPC_ELEM(handle, 0), upc_global_lock_alloc());
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD, 0);
    upc_barrier();
    if (MYTHREAD == 0) {
        char *dst = malloc(BIG);
        double get = get_latency(&plan, bench_iters(&plan, 200000));
        double put = strict_put_latency(&plan, bench_iters(&plan, 20000));
        double memget = bandwidth(&plan, bench_iters(&plan, 50), dst, 1);
        double memcpy_bw = bandwidth(&plan, bench_iters(&plan, 50), dst, 0);
        double fadd = fetch_add(&plan, bench_iters(&plan, 20000), d);
        double lock = lock_uncontended(&plan, bench_iters(&plan, 2000),
                                       MUPC_GET(pts, MUPC_ELEM(handle, 0)));
        report("get.latency", "us", get);
        report("put.latency", "us", put);
        report("memget.bw", "mbs", memget);
        if (THREADS == 2) /* one figure: the process copies alone either way */
            printf("mupc.memcpy.bw_mbs %.3f\n", memcpy_bw);
        report("atomic.fadd", "us", fadd);
        report("lock.uncontended", "us", lock);
        free(dst);
    }
    upc_barrier();
    double barrier = TIME_BATCHES(&plan, bench_iters(&plan, THREADS > 2 ? 2000 : 20000),
                                  upc_barrier());
    if (MYTHREAD == 0) {
        char name[128];
        snprintf(name, sizeof name, "%s.barrier", prefix);
        bench_report_barrier(name, THREADS, barrier);
    }
    if (THREADS == 2 && strcmp(prefix, "mupc.shm") == 0) {
        double wake = wait_wake(&plan);
        if (MYTHREAD == 1)
            printf("mupc.barrier_wait_wake_us %.3f\n", wake);
        double coll_wake = coll_wait_wake(&plan);
        if (MYTHREAD == 1)
            printf("mupc.coll_wait_wake_us %.3f\n", coll_wake);
        double floor = futex_wake(&plan);
        if (MYTHREAD == 1 && !isnan(floor))
            printf("mupc.futex_wake_us %.3f\n", floor);
    }
    upc_all_atomicdomain_free(d);
    return 0;
}
