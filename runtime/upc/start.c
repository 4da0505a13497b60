/* SPDX-License-Identifier: MIT */
/*
 * start.c -- process start-up and termination (the MuPC report §4.4.2).
 *
 * The initial pthread initializes MPI, reads the configuration, maps the
 * segment, starts the computation pthread (which runs the user's main after
 * an implicit barrier) and then becomes the communication pthread.  It is
 * also the one that finalizes MPI, whichever way the program ends:
 *  - collective exit: main returns on every thread -> final barrier ->
 *    orderly shutdown, each process exits with its main's status;
 *    exit(status) in user code ends that thread the same way, with its
 *    status: it waits in the final barrier, its shared data stays
 *    readable until every thread is there (UPC 1.3 §5.1.2.2.3: a thread
 *    terminates by C's rules for program termination; the program ends
 *    when every thread has; Berkeley UPC does the same);
 *  - upc_global_exit(status) on any one thread -> every other thread is
 *    told and acknowledges -> all processes finalize and exit with
 *    `status`;
 *  - a fatal error -> one message, MPI_Abort (fatal.c);
 *  - a crash or a fatal signal (raised or sent) -> a one-line note, then
 *    the signal again to its previous handler or default action; the
 *    process dies of it and the MPI launcher ends the job.
 */
#define _GNU_SOURCE
#include "mem/alloc.h"
#include "base/backoff.h"
#include "base/wake.h"
#include "upc/access.h"
#include "upc/barrier.h"
#include "mem/bounds.h"
#include "base/config.h"
#include "transport/direct.h"
#include "transport/node.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "transport/finish.h"
#include "upc/hybrid.h"
#include "base/gasp_hooks.h"
#include "upc/lock.h"
#include "mupc.h"
#include "cache/rcache.h"
#include "transport/rendezvous.h"
#include "transport/segment.h"
#include "transport/xfer.h"

#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The program's main, renamed by <mupc_upc.h> (hand-written C) or by the translator. */
int mupc_user_main(int argc, char **argv);

static mupci_config_t config;
static int user_argc;
static char **user_argv;
static pthread_t compute_thread;
static atomic_int main_returned; /* orderly collective exit under way */
static atomic_int exiting;        /* exit() is running somewhere in the process */
static atomic_int exit_called;    /* the user's code called exit(): it ends the process */
static pthread_mutex_t finalized_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t finalized_cond = PTHREAD_COND_INITIALIZER;
static int finalized; /* under finalized_lock */
static void global_exit(int status) __attribute__((noreturn));

/* ---------------------------------------------------------------- */
/* Configuration, read by every thread, reported by the first bad one */
/* ---------------------------------------------------------------- */

static void load_config(void)
{
    char err[1024] = "", used[512] = "";
    /* Every thread reads the same files and environment: thread 0 alone
     * prints the warnings. */
    FILE *warn = mupc_mythread == 0 ? stderr : NULL;
    int bad = mupci_config_load(&config, used, sizeof used, warn, err, sizeof err) != 0;
    int first_bad = bad ? mupc_mythread : mupc_threads;
    mupci_job_allreduce_min(&first_bad, 1, MPI_INT);
    if (first_bad == mupc_threads)
        return;
    if (first_bad == mupc_mythread) {
        fprintf(stderr, "mupc: configuration error: %s\n", err);
        mupci_abort_job(2);
    }
    for (;;) /* the reporting thread's MPI_Abort ends us */
        sleep(1);
}

/* ---------------------------------------------------------------- */
/* Crashes and stray exit() calls                                    */
/* ---------------------------------------------------------------- */

static struct sigaction previous[32];
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
static atomic_int fatal_signal_seen;

/* Runs on whichever pthread the signal hit (a kill from outside may land
 * on the communication pthread, possibly inside MPI): async-signal-safe
 * calls only. */
static void on_fatal_signal(int sig)
{
    if (atomic_exchange(&fatal_signal_seen, 1))
        _exit(128 + sig); /* a second fault, or the handler could not be replaced */
    char text[160];
    int n = snprintf(text, sizeof text,
                     "mupc: thread %d: fatal signal %d (%s); the job is being ended\n",
                     mupc_mythread, sig, strsignal(sig));
    if (n > 0 && write(STDERR_FILENO, text, (size_t)n) < 0)
        _exit(128 + sig);
    /* Hand the signal to whoever had it before, or to the default action,
     * and raise it again: a real fault would repeat on return, but a
     * raise() or kill -SEGV would not, and the process would go on.
     * The previous owner is UCX's handler under MPICH's ch4:ucx: it prints
     * a backtrace, restores the default action and raises once more, so
     * the process dies of the signal and the launcher ends the job. */
    struct sigaction next = previous[sig];
    if (next.sa_handler == SIG_IGN)
        next.sa_handler = SIG_DFL;
    sigaction(sig, &next, NULL);
    raise(sig); /* blocked until this handler returns */
}

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaction(fatal_signals[i], &sa, &previous[fatal_signals[i]]);
}

static void end_of_main(int status);

/* exit(status) called by the user's code before main returned ends this
 * thread as a return from main would: the final barrier (a thread still
 * in another barrier is told which thread ended, and the job aborts),
 * then the communication pthread finalizes MPI while exit() waits here;
 * exit() then goes on and ends the process with the thread's status. */
static void exit_hook(int status, void *arg)
{
    atomic_store(&exiting, 1);
    if (mupci_fatal_aborting() || atomic_load(&main_returned) ||
        !pthread_equal(pthread_self(), compute_thread))
        return;
    fflush(stdout);
    atomic_store(&exit_called, 1);
    end_of_main(status);
    MUPCI_PT(pthread_mutex_lock(&finalized_lock));
    while (!finalized)
        MUPCI_PT(pthread_cond_wait(&finalized_cond, &finalized_lock));
    MUPCI_PT(pthread_mutex_unlock(&finalized_lock));
}

/* The communication pthread has finalized MPI: an exit() waiting in
 * exit_hook may end the process. */
static void announce_finalized(void)
{
    MUPCI_PT(pthread_mutex_lock(&finalized_lock));
    finalized = 1;
    MUPCI_PT(pthread_cond_broadcast(&finalized_cond));
    MUPCI_PT(pthread_mutex_unlock(&finalized_lock));
}

/* ---------------------------------------------------------------- */
/* Global exit                                                       */
/* ---------------------------------------------------------------- */

typedef struct ack_wait {
    mupci_op_t *op;
    int64_t deadline_ns;
} ack_wait_t;

static int acked_or_late(void *arg)
{
    ack_wait_t *w = arg;
    return mupci_op_complete(w->op) || mupci_now_ns() > w->deadline_ns;
}

static void global_exit(int status)
{
    ack_wait_t w;
    mupci_engine_lock();
    w.op = mupci_op_alloc(mupc_threads - 1, NULL);
    for (int t = 0; t < mupc_threads; t++) {
        if (t == mupc_mythread)
            continue;
        mupci_msg_t m = {MUPCI_MSG_GLOBAL_EXIT, 0, w.op->slot, 0, (uint64_t)(uint32_t)status};
        mupci_engine_send(t, &m, NULL, 0);
    }
    mupci_engine_flush_all();
    mupci_engine_unlock();
    /* A thread that cannot answer (crashed, stuck in a handler) must not
     * keep us here: after 5 s we end the job the hard way. */
    w.deadline_ns = mupci_now_ns() + 5000000000LL;
    mupci_engine_wait(acked_or_late, &w);
    if (!mupci_op_complete(w.op)) {
        fprintf(stderr, "mupc: thread %d: upc_global_exit: %d thread(s) did not answer; "
                        "aborting the job with status %d\n",
                mupc_mythread, __atomic_load_n(&w.op->pending, __ATOMIC_RELAXED), status);
        mupci_abort_job(status);
    }
    mupci_engine_request_shutdown(status);
    for (;;) /* the main pthread finalizes MPI and ends the process */
        pause();
}

static void mupci_handle_GLOBAL_EXIT(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_msg_t ack = {MUPCI_MSG_ACK, 0, m->op, 0, 0};
    mupci_engine_send(src, &ack, NULL, 0);
    mupci_engine_flush(src);
    mupci_engine_request_shutdown((int)(int32_t)m->size);
}

void mupc_global_exit(int status, const char *file, int line)
{
    mupci_gasp_exit_event(GASP_UPC_NONCOLLECTIVE_EXIT, GASP_ATOMIC, file, line, status);
    fflush(stdout);
    global_exit(status);
}

/* ---------------------------------------------------------------- */
/* The computation pthread                                           */
/* ---------------------------------------------------------------- */

static void *compute_main(void *arg)
{
    mupci_job_enter_upc_thread();
    mupci_gasp_thread_init(&user_argc, &user_argv);
    /* After the tool's gasp_init: exit handlers run last-registered first,
     * so an exit() ends the thread (and raises its exit events) before the
     * handlers the tool registered there run. */
    on_exit(exit_hook, NULL);
    mupci_access_init_local();
    mupci_segment_run_initializers(); /* each thread its own elements; the barrier publishes them */
    int64_t barrier_start = mupci_now_ns();
    mupci_barrier_internal("start-up barrier", __FILE__, __LINE__);
    if (config.verbose >= 2 && mupc_mythread == 0)
        fprintf(stderr, "mupc: thread 0: start-up: the start-up barrier took %.3f s\n",
                (double)(mupci_now_ns() - barrier_start) * 1e-9);
    end_of_main(mupc_user_main(user_argc, user_argv));
    return NULL;
}

/* This thread is done (main returned or exit was called): the final
 * barrier, then the communication pthread may shut down. */
static void end_of_main(int status)
{
    /* Where main returned is unknown: no position (NULL, 0), not ours. */
    mupci_gasp_exit_event(GASP_UPC_COLLECTIVE_EXIT, GASP_START, NULL, 0, status);
    mupci_rv_main_end();
    int64_t barrier_start = mupci_now_ns();
    mupci_barrier_exit(__FILE__, __LINE__);
    if (mupc_mythread == 0) /* bounded: after a global exit a peer may be gone */
        mupci_rv_wait_arrivals(2000000000LL);
    if (config.verbose >= 2 && mupc_mythread == 0)
        fprintf(stderr, "mupc: thread 0: exit: the final barrier took %.3f s\n",
                (double)(mupci_now_ns() - barrier_start) * 1e-9);
    mupci_gasp_exit_event(GASP_UPC_COLLECTIVE_EXIT, GASP_END, NULL, 0, status);
    atomic_store(&main_returned, 1);
    mupci_engine_request_shutdown(status);
}

/* ---------------------------------------------------------------- */
/* main                                                              */
/* ---------------------------------------------------------------- */

/* Start-up phases, printed by thread 0 at verbose = 2 once the settings
 * are known: where a slow start goes (at 1,024 ranks on two cores,
 * minutes). */
#define MAX_PHASES 12
static struct {
    const char *what;
    int64_t at_ns;
} phases[MAX_PHASES];
static int nphases;

static void phase_done(const char *what)
{
    if (nphases < MAX_PHASES)
        phases[nphases++] = (typeof(phases[0])){what, mupci_now_ns()};
}

static void print_phases(void)
{
    for (int i = 1; i < nphases; i++)
        fprintf(stderr, "mupc: thread 0: start-up: %s took %.3f s\n", phases[i].what,
                (double)(phases[i].at_ns - phases[i - 1].at_ns) * 1e-9);
    nphases = 0;
}

static void start_mpi(int *argc, char ***argv)
{
    phase_done("launch");
    int provided = 0, required = mupci_mpi_thread_level();
    /* PMPI_: the program's own MPI_Init_thread is hybrid.c's */
    mupci_finish_init_started();
    if (PMPI_Init_thread(argc, argv, required, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "mupc: MPI_Init_thread failed\n");
        exit(1);
    }
    mupci_finish_init_ended();
    phase_done("MPI_Init");
    /* Non-blocking, waited for with sleeps (job.c): MPI_Comm_dup's
     * context-id agreement busy-polls, costly when ranks outnumber cores. */
    MPI_Request dup;
    MUPCI_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &mupci_comm, &dup));
    mupci_job_wait(&dup);
    phase_done("duplicating MPI_COMM_WORLD");
    MUPCI_MPI(MPI_Comm_rank(mupci_comm, &mupc_mythread));
    MUPCI_MPI(MPI_Comm_size(mupci_comm, &mupc_threads));
    mupci_fatal_mpi_ready(1);
    if (provided < required)
        mupci_fatal_plain("the MPI library provides thread level %d, but libmupc needs %s (%d)%s; "
                          "use an MPI built with thread support",
                          provided, required == MPI_THREAD_MULTIPLE ? "MPI_THREAD_MULTIPLE" : "MPI_THREAD_SERIALIZED",
                          required, required == MPI_THREAD_MULTIPLE ? " for a program that calls MPI itself" : "");
}

static void report_direct_gets(void)
{
    int refused = 0, direct = mupci_direct_peers(&refused);
    fprintf(stderr, "mupc: thread 0 reads %d of the other %d threads directly (direct_gets)\n",
            direct, mupc_threads - 1);
    if (refused)
        fprintf(stderr, "mupc: the kernel refused cross-memory attach to %d threads on this "
                        "node (ptrace restrictions?); their large gets take the message path\n",
                refused);
}

/* segment_size = auto: each thread computes it from its node, and every
 * thread takes the smallest, so the segments agree (node.c checks). */
static void resolve_segment_size(int threads_on_node)
{
    if (config.segment_size != MUPCI_SEGMENT_AUTO)
        return;
    const char *source;
    size_t memory = mupci_config_node_memory(&source);
    char why[MUPCI_CONFIG_ORIGIN_MAX];
    unsigned long long mine = mupci_config_auto_segment(memory, source, threads_on_node, why,
                                                        sizeof why);
    unsigned long long least = mine;
    mupci_job_allreduce_min(&least, 1, MPI_UNSIGNED_LONG_LONG);
    if (least != mine)
        snprintf(why, sizeof why, "auto: the smallest over the job's nodes");
    mupci_config_set_auto_segment(&config, (size_t)least, why);
}

/* wake_cost_us = auto: what a futex wake-up of another process of this
 * node costs, measured now by pairs of the node's threads, before the
 * communication pthreads start (9 rounds: 18 turns, each after a 0.5 ms
 * pause, about 10 ms).
 * With 4 or more ranks per core the measure would mostly time the run
 * queue, and the waits there are long anyway: the policy's largest
 * figure is taken instead.  The waiting policy's input (base/backoff.c). */
#define WAKE_PROBE_ROUNDS 9
static int64_t resolve_wake_cost(int per_core)
{
    if (config.wake_cost_us != 0)
        return (int64_t)config.wake_cost_us * 1000;
    char why[MUPCI_CONFIG_ORIGIN_MAX];
    int64_t ns;
    if (per_core >= 4) {
        ns = MUPCI_WAKE_NS_MAX;
        snprintf(why, sizeof why, "%d ranks per core: the largest the policy takes", per_core);
    } else {
        int across;
        ns = mupci_node_measure_wake_ns(WAKE_PROBE_ROUNDS, &across);
        snprintf(why, sizeof why, "measured: a futex wake-up of %s, %.1f us",
                 across ? "another process" : "another pthread", (double)ns / 1000);
    }
    int us = (int)((ns + 500) / 1000);
    mupci_config_set_auto(&config, "wake_cost_us", us < 1 ? 1 : us, why);
    return ns;
}

static void start_runtime(void)
{
    load_config();
    int threads_on_node = mupci_node_discover();
    phase_done("finding the hosts");
    /* above 1, waits spin less and idle pthreads sleep longer (engine.c,
     * make_policies; job.c for the start-up collectives) */
    int per_core = mupci_job_ranks_per_core(threads_on_node);
    mupci_job_stretch_waits(per_core);
    resolve_segment_size(threads_on_node);
    mupci_bounds_init(config.checks == MUPCI_CHECKS_BOUNDS); /* before the statics are placed */
    mupci_segment_init(config.segment_size, mupc_threads, config.shm);
    phase_done("sizing and making the segment");
    mupci_engine_init(&config, per_core);
    phase_done("starting the message engine");
    mupci_node_init(config.shm, config.simulate_nodes, mupc_mythread, mupc_threads);
    phase_done("mapping the node's segments");
    mupci_engine_start_waits(resolve_wake_cost(per_core));
    phase_done("measuring a wake-up");
    mupci_xfer_init(mupc_threads);
    mupci_direct_init(config.direct_gets, mupc_mythread, mupc_threads);
    phase_done("probing single-copy peers");
    mupci_barrier_init(mupc_mythread, mupc_threads);
    mupci_rv_init(mupc_threads);
    mupci_alloc_init(&config);
    mupci_lock_init();
    mupci_rcache_init(&config, mupc_threads);
    install_signal_handlers();
    phase_done("the rest of the runtime");
    if (config.verbose >= 2 && mupc_mythread == 0)
        print_phases();
    if (config.verbose && mupc_mythread == 0) {
        fprintf(stderr, "mupc: %d threads; settings:\n", mupc_threads);
        mupci_config_print(stderr, &config);
        report_direct_gets();
        mupci_node_describe(stderr);
        fprintf(stderr,
                "mupc: %d rank%s per core on thread 0's node: waits spin %d polls, yield for "
                "%s, then sleep %s; idle communication pthreads sleep up to %lld us\n",
                per_core, per_core == 1 ? "" : "s", mupci_engine_wait_spins(),
                per_core > 1 ? "yield_window_us (a yield hands the core to a pthread that can run)"
                             : "about one wake-up (wake_cost_us)",
                mupci_engine_bells_announce_all()
                    ? "until woken (every message rings a bell: one node)"
                    : "on the timed ladder for messages from other nodes",
                (long long)mupci_engine_longest_sleep_us());
    }
}

static void leave_process(int status) __attribute__((noreturn));

/* The last synchronization, then MPI_Finalize, bounded (finish.c: over
 * UCX's TCP transport it can hang after the program has ended). */
static void finish_runtime(int status)
{
    int64_t finalize_start = mupci_now_ns();
    mupci_engine_finalize(); /* keeps the progress lock: nobody enters MPI again */
    if (config.verbose >= 2 && mupc_mythread == 0)
        fprintf(stderr, "mupc: thread 0: exit: the last traffic and synchronization took %.3f s\n",
                (double)(mupci_now_ns() - finalize_start) * 1e-9);
    MPI_Comm_free(&mupci_comm);
    mupci_finish_mpi(status, config.verbose, leave_process);
}

/* MPI is finalized: end the process the way the program ended. */
static void leave_process(int status)
{
    if (atomic_load(&main_returned)) {
        if (atomic_load(&exit_called)) { /* exit() on the computation pthread ends the process */
            announce_finalized();
            for (;;)
                pause();
        }
        exit(status);
    }
    /* Global exit: the computation pthread may still be running user code;
     * it can no longer enter MPI (finish_runtime keeps the lock). */
    fflush(NULL);
    if (atomic_load(&exiting))
        _exit(status); /* exit() is already running on the computation pthread */
    exit(status);
}

static void release_runtime(void)
{
    mupci_rcache_finalize();
    mupci_lock_finalize();
    mupci_alloc_finalize();
    mupci_bounds_finalize();
    mupci_direct_finalize();
    mupci_node_finalize();
    mupci_segment_finalize();
}

int main(int argc, char **argv)
{
    start_mpi(&argc, &argv);
    start_runtime();
    user_argc = argc;
    user_argv = argv;
    MUPCI_PT(pthread_create(&compute_thread, NULL, compute_main, NULL));
    int status = mupci_engine_comm_loop();
    int collective = atomic_load(&main_returned);
    if (collective && !atomic_load(&exit_called))
        MUPCI_PT(pthread_join(compute_thread, NULL));
    finish_runtime(status);
    if (collective)
        release_runtime();
    leave_process(status);
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_GLOBAL_EXIT, mupci_handle_GLOBAL_EXIT},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
