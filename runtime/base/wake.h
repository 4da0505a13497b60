/* SPDX-License-Identifier: MIT */
/*
 * wake.h -- sleeping on a 32-bit word and waking its sleepers (Linux
 * futex), for waits between the processes of a node.
 *
 * The words live in memfd mappings shared by the processes of a node
 * (node.h), so the futex operations are the shared (non-PRIVATE) ones:
 * the kernel keys them by the page, not by the process.  A waiter
 * registers in a sleeper count before it looks at its condition one last
 * time; a waker changes the word after making the condition true and
 * only makes the system call when the count is nonzero, so waking nobody
 * costs no syscall.  Both sides use sequentially consistent
 * read-modify-writes (waiter: the count; waker: the word), so either the
 * waiter sees the condition or the waker sees the waiter (or the kernel
 * sees the changed word and does not put the waiter to sleep).
 */
#ifndef MUPCI_WAKE_H
#define MUPCI_WAKE_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stdatomic.h>
#include <stdint.h>

/* A word to sleep on and how many sleep on it. */
typedef struct mupci_bell {
    _Atomic uint32_t word;
    _Atomic uint32_t sleepers;
} mupci_bell_t;

/* Sleep while *word == seen, at most timeout_ns (> 0); returns early on
 * a wake, a signal, or when *word already differs. */
void mupci_futex_wait(_Atomic uint32_t *word, uint32_t seen, int64_t timeout_ns);
/* Wake every sleeper of word. */
void mupci_futex_wake_all(_Atomic uint32_t *word);

/* After making a waiter's condition true: change `word` (if change) and
 * wake its sleepers, if `sleepers` counts any. */
static inline void mupci_wake_sleepers(_Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                                       int change)
{
    if (change)
        atomic_fetch_add_explicit(word, 1, memory_order_seq_cst);
    else /* the caller changed it: order that change before the count's load */
        atomic_fetch_add_explicit(sleepers, 0, memory_order_seq_cst);
    if (atomic_load_explicit(sleepers, memory_order_seq_cst))
        mupci_futex_wake_all(word);
}

static inline void mupci_bell_ring(mupci_bell_t *b) { mupci_wake_sleepers(&b->word, &b->sleepers, 1); }

/* What a futex wake-up costs on this host, the waiting policy's input
 * (backoff.h).  Two sides take turns on `word` (starting at 0) `rounds`
 * times each.  Before passing its turn a side sleeps 0.5 ms, so the other
 * is deeply asleep in FUTEX_WAIT, then writes the time to `stamp` and
 * wakes it; the woken side takes the time since the stamp.  Each side
 * returns the median of what it took, in ns (about rounds ms long), or -1
 * when the other side stopped answering (the first turn waits up to 10 s
 * for it to arrive, later ones 100 ms). */
int64_t mupci_wake_pingpong(_Atomic uint32_t *word, _Atomic int64_t *stamp, int initiator,
                            int rounds);
/* The same between two pthreads of this process. */
int64_t mupci_measure_wake_ns(int rounds);

#endif
