/* SPDX-License-Identifier: MIT */
/*
 * misuse.c MODE -- API misuse that must stop the job with a clear message
 * (checked by tests/scripts/errors.sh).  Each mode's failing line is
 * marked with LINE_<MODE> so the script can check the reported file:line.
 */
#include <mupc_upc.h>
#include <upc_atomic.h>
#include <upc_collective.h>
#include <upc_nb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

MUPC_SHARED_ARRAY(cells, long, 4, 4, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(handle, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "named-mismatch")) {
        upc_barrier(MYTHREAD == 1 ? 2 : 1); /* LINE_named-mismatch */
    } else if (!strcmp(mode, "wait-mismatch")) {
        upc_notify(5);
        upc_wait(6); /* LINE_wait-mismatch */
    } else if (!strcmp(mode, "notify-twice")) {
        upc_notify();
        upc_notify(); /* LINE_notify-twice */
    } else if (!strcmp(mode, "wait-alone")) {
        upc_wait(); /* LINE_wait-alone */
    } else if (!strcmp(mode, "barrier-in-phase")) {
        upc_notify();
        upc_barrier(); /* LINE_barrier-in-phase */
    } else if (!strcmp(mode, "out-of-range")) {
        /* twice the segment's longs on every thread: past its end */
        ptrdiff_t beyond = (ptrdiff_t)(2 * mupc_segment_size() / sizeof(long)) * THREADS;
        mupc_ptr_t p = mupc_ptr_add(MUPC_BASE(cells), beyond, sizeof(long), 4);
        MUPC_PUT(long, p, 1); /* LINE_out-of-range */
    } else if (!strcmp(mode, "bad-thread")) {
        mupc_ptr_t p = MUPC_BASE(cells);
        p.thread = THREADS + 3;
        (void)MUPC_GET(long, p); /* LINE_bad-thread */
    } else if (!strcmp(mode, "null")) {
        (void)MUPC_GET(int, MUPC_NULL_PTR); /* LINE_null */
    } else if (!strcmp(mode, "bad-handle")) {
        MUPC_SYNC(0x12345678abcdULL); /* LINE_bad-handle */
    } else if (!strcmp(mode, "double-free")) {
        /* Thread 0 alone allocates: another thread's allocation could
         * otherwise reuse the freed block, and the second free would be
         * legal. */
        if (MYTHREAD == 0) {
            mupc_ptr_t p = upc_global_alloc(THREADS, 8);
            upc_free(p);
            upc_free(p); /* LINE_double-free */
        }
    } else if (!strcmp(mode, "never-allocated")) {
        mupc_ptr_t p = upc_global_alloc(THREADS, 8);
        p.addr += 1 << 20; /* free heap space */
        upc_free(p); /* LINE_never-allocated */
    } else if (!strcmp(mode, "free-static")) {
        upc_free(MUPC_BASE(cells)); /* LINE_free-static */
    } else if (!strcmp(mode, "free-other-thread")) {
        mupc_ptr_t p = upc_global_alloc(THREADS, 64);
        p.thread = 1;
        upc_free(p); /* LINE_free-other-thread */
    } else if (!strcmp(mode, "free-fabricated")) {
        mupc_ptr_t p = upc_global_alloc(THREADS, 64);
        p.thread = 1;
        p.addr += 1 << 20; /* free heap space */
        upc_free(p); /* LINE_free-fabricated */
    } else if (!strcmp(mode, "free-phase")) {
        mupc_ptr_t p = upc_global_alloc(THREADS, 64);
        p.phase = 3;
        upc_free(p); /* LINE_free-phase */
    } else if (!strcmp(mode, "free-huge")) {
        mupc_ptr_t p = upc_alloc(64);
        p.addr += (uint64_t)1 << 40;
        upc_free(p); /* LINE_free-huge */
    } else if (!strcmp(mode, "free-interior")) {
        mupc_ptr_t p = upc_alloc(64);
        upc_free(mupc_ptr_add(p, 1, sizeof(long), 0)); /* LINE_free-interior */
    } else if (!strcmp(mode, "heap-exhausted")) {
        (void)upc_global_alloc(THREADS, (size_t)1 << 40); /* LINE_heap-exhausted */
    } else if (!strcmp(mode, "local-exhausted")) {
        (void)upc_alloc((size_t)1 << 40); /* LINE_local-exhausted */
    } else if (!strcmp(mode, "heaps-meet-symmetric")) {
        /* (run with segment_size = 64M) the local heaps take 40M from the
         * top, so 40M per thread no longer fit below them */
        (void)upc_alloc((size_t)40 << 20);
        upc_barrier();
        (void)upc_all_alloc(THREADS, (size_t)40 << 20); /* LINE_heaps-meet-symmetric */
    } else if (!strcmp(mode, "heaps-meet-local")) {
        /* the other way round: the symmetric heap is there first */
        (void)upc_all_alloc(THREADS, (size_t)40 << 20);
        (void)upc_alloc((size_t)40 << 20); /* LINE_heaps-meet-local */
    } else if (!strcmp(mode, "local-limit")) {
        /* (run with local_heap_percent = 10) */
        (void)upc_alloc((size_t)16 << 20); /* LINE_local-limit */
    } else if (!strcmp(mode, "all-alloc-mismatch")) {
        (void)upc_all_alloc(MYTHREAD == 1 ? 2 : 1, 8); /* LINE_all-alloc-mismatch */
    } else if (!strcmp(mode, "unlock-not-held")) {
        upc_lock_t l = upc_all_lock_alloc();
        upc_unlock(l); /* LINE_unlock-not-held */
    } else if (!strcmp(mode, "lock-twice")) {
        upc_lock_t l = upc_global_lock_alloc();
        upc_lock(l);
        upc_lock(l); /* LINE_lock-twice */
    } else if (!strcmp(mode, "unlock-freed")) { /* freeing a held lock succeeds (UPC 1.3) */
        upc_lock_t l = upc_global_lock_alloc();
        upc_lock(l);
        upc_lock_free(l);
        upc_unlock(l); /* LINE_unlock-freed */
    } else if (!strcmp(mode, "unlock-freed-by-other")) {
        upc_lock_t l = upc_all_lock_alloc();
        if (MYTHREAD == 1)
            upc_lock(l);
        upc_barrier();
        if (MYTHREAD == 0)
            upc_lock_free(l);
        upc_barrier();
        if (MYTHREAD == 1)
            upc_unlock(l); /* LINE_unlock-freed-by-other */
        upc_barrier();
    } else if (!strcmp(mode, "wait-on-freed")) {
        /* thread 1 hosts and holds the lock, and frees it once thread 0
         * waits for it: thread 0's upc_lock stops, it does not hang */
        if (MYTHREAD == 1)
            MUPC_PUT(pts, MUPC_ELEM(handle, 0), upc_global_lock_alloc());
        upc_barrier();
        upc_lock_t l = MUPC_GET(pts, MUPC_ELEM(handle, 0));
        if (MYTHREAD == 1) {
            upc_lock(l);
            upc_barrier();
            while (mupc_lock_waiters(l) < 1)
                usleep(1000);
            upc_lock_free(l);
            upc_barrier();
        } else {
            upc_barrier();
            upc_lock(l); /* LINE_wait-on-freed */
        }
    } else if (!strcmp(mode, "use-freed")) {
        upc_lock_t l = upc_global_lock_alloc();
        upc_lock_free(l);
        upc_lock(l); /* LINE_use-freed */
    } else if (!strcmp(mode, "not-a-lock")) {
        upc_lock(MUPC_BASE(cells)); /* LINE_not-a-lock */
    } else if (!strcmp(mode, "atomic-op-outside-domain")) {
        upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT, UPC_ADD | UPC_GET, 0);
        int one = 1;
        upc_atomic_relaxed(d, NULL, UPC_XOR, MUPC_BASE(cells), &one, NULL); /* LINE_atomic-op-outside-domain */
    } else if (!strcmp(mode, "atomic-op-for-type")) {
        (void)upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_XOR, 0); /* LINE_atomic-op-for-type */
    } else if (!strcmp(mode, "atomic-misaligned")) {
        upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_INT64, UPC_ADD, 0);
        mupc_ptr_t p = MUPC_BASE(cells);
        p.addr += 4;
        long one = 1;
        upc_atomic_relaxed(d, NULL, UPC_ADD, p, &one, NULL); /* LINE_atomic-misaligned */
    } else if (!strcmp(mode, "coll-flags")) {
        upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, UPC_IN_NOSYNC | UPC_IN_MYSYNC); /* LINE_coll-flags */
    } else if (!strcmp(mode, "coll-not-permutation")) {
        MUPC_PUT(int, mupc_ptr_index(MUPC_BASE(cells), (size_t)MYTHREAD, sizeof(int), 1), 0);
        upc_barrier();
        upc_all_permute(MUPC_BASE(cells), MUPC_BASE(cells), MUPC_BASE(cells), 8, 0); /* LINE_coll-not-permutation */
    } else if (!strcmp(mode, "coll-float-xor")) {
        upc_all_reduceD(MUPC_BASE(cells), MUPC_BASE(cells), UPC_XOR, 4, 4, NULL, 0); /* LINE_coll-float-xor */
    } else if (!strcmp(mode, "coll-func-null")) {
        upc_all_reduceI(MUPC_BASE(cells), MUPC_BASE(cells), UPC_NONCOMM_FUNC, 4, 4, NULL, 0); /* LINE_coll-func-null */
    } else if (!strcmp(mode, "coll-too-big")) {
        upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), (size_t)1 << 40, 0); /* LINE_coll-too-big */
    } else if (!strcmp(mode, "coll-other-root")) {
        upc_all_broadcast(MUPC_BASE(cells), mupc_ptr_index(MUPC_BASE(cells), (size_t)MYTHREAD % 2 * 4, sizeof(long), 4), 8, 0); /* LINE_coll-other-root */
    } else if (!strcmp(mode, "coll-other-flags")) {
        upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, MYTHREAD == 1 ? UPC_IN_NOSYNC : 0); /* LINE_coll-other-flags */
    } else if (!strcmp(mode, "coll-other-call")) {
        if (MYTHREAD == 1)
            upc_all_gather(MUPC_BASE(cells), MUPC_BASE(cells), 8, 0);
        else
            upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, 0); /* LINE_coll-other-call */
    } else if (!strcmp(mode, "coll-late-call")) {
        /* the 101st call differs, with no barrier near: the other threads'
         * arrivals wait in their queues (rendezvous.c) until the queue's
         * age sends them, while every thread waits for the others' data */
        const upc_flag_t mysync = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
        for (int i = 0; i < 100; i++)
            upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, mysync);
        if (MYTHREAD == 0)
            upc_all_gather(MUPC_BASE(cells), MUPC_BASE(cells), 8, mysync); /* LINE_coll-late-gather */
        else
            upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, mysync); /* LINE_coll-late-call */
    } else if (!strcmp(mode, "exchange-late-call")) {
        /* the same with exchanges, whose blocks a node's threads copy into
         * each other's dst once the owner has entered: thread 0 never
         * enters the 101st, and the others wait for it (src: the first
         * 16 bytes of each thread's cells, dst: the last 16) */
        const upc_flag_t mysync = UPC_IN_MYSYNC | UPC_OUT_MYSYNC;
        mupc_ptr_t dst = mupc_ptr_index(MUPC_BASE(cells), 2, sizeof(long), 4);
        for (int i = 0; i < 100; i++)
            upc_all_exchange(dst, MUPC_BASE(cells), 4, mysync);
        if (MYTHREAD == 0)
            upc_all_gather(MUPC_BASE(cells), MUPC_BASE(cells), 8, mysync); /* LINE_exchange-late-gather */
        else
            upc_all_exchange(dst, MUPC_BASE(cells), 4, mysync); /* LINE_exchange-late-call */
    } else if (!strcmp(mode, "nosync-vs-barrier")) {
        /* thread 0 alone makes a call that waits for nobody, then every
         * thread meets at a barrier that looks plain to the others */
        upc_barrier();
        if (MYTHREAD == 0)
            upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC); /* LINE_nosync-vs-barrier */
        upc_barrier();
    } else if (!strcmp(mode, "coll-other-nbytes")) {
        upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), MYTHREAD == 1 ? 16 : 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC); /* LINE_coll-other-nbytes */
    } else if (!strcmp(mode, "coll-other-op")) {
        upc_all_reduceL(MUPC_BASE(cells), MUPC_BASE(cells), MYTHREAD == 1 ? UPC_MAX : UPC_ADD, 4, 4, NULL, 0); /* LINE_coll-other-op */
    } else if (!strcmp(mode, "coll-vs-barrier-first") || !strcmp(mode, "coll-vs-barrier-last")) {
        /* one thread makes a collective call, the others go on to a barrier */
        int caller = !strcmp(mode, "coll-vs-barrier-first") ? 0 : THREADS - 1;
        if (MYTHREAD == caller)
            (void)upc_all_alloc(1, 8); /* LINE_coll-vs-barrier */
        upc_barrier(); /* LINE_coll-vs-barrier-wait */
    } else if (!strcmp(mode, "exit-in-all-alloc")) {
        if (MYTHREAD == 0)
            return 0;
        (void)upc_all_alloc(1, 8); /* LINE_exit-in-all-alloc */
    } else if (!strcmp(mode, "exit-in-nosync")) {
        if (MYTHREAD == 0)
            return 0;
        upc_all_gather(MUPC_BASE(cells), MUPC_BASE(cells), 8, UPC_IN_NOSYNC | UPC_OUT_NOSYNC); /* LINE_exit-in-nosync */
    } else if (!strcmp(mode, "memget-null")) {
        upc_memget(NULL, MUPC_BASE(cells), 8); /* LINE_memget-null */
    } else if (!strcmp(mode, "memput-null")) {
        upc_memput(MUPC_BASE(cells), NULL, 8); /* LINE_memput-null */
    } else if (!strcmp(mode, "memget-nb-null")) {
        upc_sync(upc_memget_nb(NULL, MUPC_BASE(cells), 8)); /* LINE_memget-nb-null */
    } else if (!strcmp(mode, "memput-nbi-near-null")) {
        upc_memput_nbi(MUPC_BASE(cells), (const char *)NULL + 64, 8); /* LINE_memput-nbi-near-null */
        upc_synci();
    } else if (!strcmp(mode, "skip-barrier")) {
        if (MYTHREAD == 0)
            return 0;
        upc_barrier(); /* LINE_skip-barrier */
    } else if (!strcmp(mode, "extra-barrier")) {
        upc_barrier();
        if (MYTHREAD == 1)
            upc_barrier(3); /* LINE_extra-barrier */
        return 0;
    } else if (!strcmp(mode, "exit-in-wait")) {
        if (MYTHREAD == THREADS - 1)
            return 0;
        upc_notify();
        upc_wait(); /* LINE_exit-in-wait */
    } else if (!strcmp(mode, "exit-in-collective")) {
        if (MYTHREAD == 0)
            return 0;
        upc_all_broadcast(MUPC_BASE(cells), MUPC_BASE(cells), 8, UPC_IN_ALLSYNC); /* LINE_exit-in-collective */
    } else if (!strcmp(mode, "exit-after-notify")) {
        upc_notify();
        return 0;
    } else {
        fprintf(stderr, "misuse: unknown mode '%s'\n", mode);
        return 2;
    }
    upc_barrier();
    return 0;
}
