/* SPDX-License-Identifier: MIT */
/*
 * lock.c -- upc_lock and friends.
 *
 * Each thread hosts a table of locks.  A lock record holds its holder and
 * a FIFO queue of the requests that found it taken; the host's handlers
 * (LOCK, UNLOCK, LOCK_FREE) run under the progress lock, so requests from
 * the host's own computation pthread and from other threads are served in
 * one arrival order.  A lock handle is a pointer-to-shared value:
 * thread = host, addr = (generation << 32) | slot, phase = LOCK_TAG; the
 * generation changes when the slot is freed, so a stale handle is caught.
 *
 * Consistency (the MuPC report's Table 4.1): acquire starts with a fence, and
 * release fences -- waits until every target written since the last fence
 * has acknowledged -- before UNLOCK leaves, so the next holder sees the
 * critical section's writes.  Each thread also remembers which locks it
 * holds, so misuse is reported at the caller's file and line.
 *
 * On one node (shm, every thread of the job mapped here), the first
 * MUPCI_NODE_LOCK_SLOTS locks a thread hosts are ticket locks in its
 * control block instead (node.h): acquire takes a ticket with one
 * fetch-and-add and waits for it to be served (spinning briefly, then
 * asleep on a futex on the record's `serving` word), release serves the
 * next ticket and wakes the sleepers, if any.  Tickets are served in the order they were taken, so the locks
 * stay FIFO-fair; release fences before serving the next ticket, and
 * acquire reads the ticket with acquire ordering, so the next holder sees
 * the critical section's writes.  Which path a lock takes depends only on
 * the job and its slot, so every thread uses the same one.  The host still
 * owns the slot (allocation, generation, free), and each thread still
 * checks its own misuse.
 *
 * Freeing succeeds whether the lock is free or held by any thread (UPC 1.3
 * 7.2.4): the generation changes, so the holder's later release is caught
 * as a use of a freed lock (by the holder on the ticket path, by the host
 * on the message path), and threads queued on it are answered as such
 * instead of waiting forever.
 */
#include "base/job.h"
#include "upc/lock.h"
#include "mem/alloc.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "transport/node.h"
#include "cache/rcache.h"
#include "transport/rendezvous.h"
#include "transport/request.h"
#include "base/wake.h"

#include <stdatomic.h>
#include <stdlib.h>

#define LOCK_TAG 0x4c4f434bu /* "LOCK" in the phase field of a handle */

enum { LOCK_GRANTED, LOCK_DENIED, LOCK_STALE };

typedef struct waiter {
    int thread;
    uint32_t op;
    struct waiter *next;
} waiter_t;

typedef struct lock_rec {
    uint32_t generation;
    int in_use;
    int holder; /* -1: free */
    waiter_t *head, *tail;
} lock_rec_t;

/* An on-node lock, in its host's control block. */
typedef struct shm_lock {
    _Atomic uint32_t next;       /* tickets taken */
    _Atomic uint32_t serving;    /* the ticket that holds the lock */
    _Atomic uint32_t generation; /* the slot's, as the host's table has it */
    _Atomic int32_t holder;      /* -1: free */
} shm_lock_t;

_Static_assert(sizeof(shm_lock_t) == 16, "lock records are 16 bytes (node.h)");

/* The record of slot `slot` hosted by `host`, or NULL when that lock takes
 * the message path. */
static shm_lock_t *shm_record(int host, uint32_t slot)
{
    if (slot >= MUPCI_NODE_LOCK_SLOTS || !mupci_node_all_mapped())
        return NULL;
    return (shm_lock_t *)mupci_node_lock_records(host) + slot;
}

/* How many threads sleep on the ticket locks `host` hosts (its control
 * block): the waiters sleep on their lock's `serving` word, and a release
 * or free only makes the wake-up system call when this count is nonzero.
 * One count for all of a host's locks keeps the records 16 bytes. */
static _Atomic uint32_t *sleepers_of(int host)
{
    return (_Atomic uint32_t *)((char *)mupci_node_ctl(host) + MUPCI_NODE_CTL_LOCK_WAKE);
}

static lock_rec_t *table; /* locks this thread hosts */
static uint32_t table_len, table_cap;
static uint32_t *free_slots, nfree, free_cap;

/* Handles of the locks this thread holds (usually very few). */
static mupc_lock_t *held;
static int nheld, held_cap;

static void all_lock_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out);

static int is_lock_handle(mupc_ptr_t p) { return p.phase == LOCK_TAG; }

void mupci_lock_init(void)
{
    mupci_rv_set_action(MUPCI_RV_ALL_LOCK_ALLOC, all_lock_alloc_action);
    mupci_alloc_set_lock_free(is_lock_handle, mupc_lock_free);
}

void mupci_lock_finalize(void)
{
    for (uint32_t i = 0; i < table_len; i++)
        for (waiter_t *w = table[i].head, *n; w; w = n) {
            n = w->next;
            free(w);
        }
    free(table);
    free(free_slots);
    free(held);
    table = NULL;
    free_slots = NULL;
    held = NULL;
    table_len = table_cap = nfree = free_cap = 0;
    nheld = held_cap = 0;
}

static void *grow(void *p, uint32_t *cap, size_t elem)
{
    *cap = *cap ? 2 * *cap : 16;
    p = realloc(p, *cap * elem);
    if (!p)
        mupci_fatal("out of memory for the lock table");
    return p;
}

/* ---- host side (progress lock held) ---- */

static uint64_t new_lock_locked(void)
{
    uint32_t slot;
    if (nfree > 0) {
        slot = free_slots[--nfree];
    } else {
        if (table_len == table_cap)
            table = grow(table, &table_cap, sizeof *table);
        slot = table_len++;
        table[slot].generation = 0;
    }
    lock_rec_t *l = &table[slot];
    l->in_use = 1;
    l->holder = -1;
    l->head = l->tail = NULL;
    shm_lock_t *rec = shm_record(mupc_mythread, slot);
    if (rec) { /* published to other threads with the handle, after a fence */
        atomic_store(&rec->next, 0);
        atomic_store(&rec->serving, 0);
        atomic_store(&rec->holder, -1);
        atomic_store(&rec->generation, l->generation);
    }
    return ((uint64_t)l->generation << 32) | slot;
}

static lock_rec_t *lookup(uint64_t id)
{
    uint32_t slot = (uint32_t)id, gen = (uint32_t)(id >> 32);
    if (slot >= table_len || !table[slot].in_use || table[slot].generation != gen)
        return NULL;
    return &table[slot];
}

static void mupci_handle_LOCK(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    lock_rec_t *l = lookup(m->offset);
    if (!l) {
        mupci_reply(src, m->op, LOCK_STALE, 0, 0);
    } else if (l->holder < 0) {
        l->holder = src;
        mupci_reply(src, m->op, LOCK_GRANTED, 0, 0);
    } else if (m->flags) { /* lock_attempt never waits */
        mupci_reply(src, m->op, LOCK_DENIED, 0, 0);
    } else {
        waiter_t *w = malloc(sizeof *w);
        if (!w)
            mupci_fatal("out of memory for a lock request");
        *w = (waiter_t){src, m->op, NULL};
        if (l->tail)
            l->tail->next = w;
        else
            l->head = w;
        l->tail = w;
    }
}

/* `size` carries the caller's line, for the one misuse only the host can
 * see: releasing, on the message path, a lock another thread has freed
 * while this one held it. */
static void mupci_handle_UNLOCK(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    lock_rec_t *l = lookup(m->offset);
    if (!l)
        mupci_fatal("upc_unlock at line %llu of thread %d: the lock (host thread %d, slot %u) "
                    "has been freed with upc_lock_free or upc_all_lock_free while that thread "
                    "held it; a freed lock cannot be used, not even to release it",
                    (unsigned long long)m->size, src, mupc_mythread, (unsigned)(uint32_t)m->offset);
    if (l->holder != src)
        mupci_fatal("internal error: thread %d released lock %#llx, which it does not hold "
                    "here", src, (unsigned long long)m->offset);
    waiter_t *w = l->head;
    if (!w) {
        l->holder = -1;
        return;
    }
    l->head = w->next;
    if (!l->head)
        l->tail = NULL;
    l->holder = w->thread; /* hand over in arrival order */
    mupci_reply(w->thread, w->op, LOCK_GRANTED, 0, 0);
    free(w);
}

/* Threads queued on a lock that is freed asked for a lock that no longer
 * exists (the specification leaves it undefined): each is answered as a
 * use of a freed lock, so it stops with its own file:line instead of
 * waiting forever. */
static void turn_away_waiters(lock_rec_t *l)
{
    for (waiter_t *w = l->head, *next; w; w = next) {
        next = w->next;
        mupci_reply(w->thread, w->op, LOCK_STALE, 0, 0);
        free(w);
    }
    l->head = l->tail = NULL;
}

/* UPC 1.3 7.2.4.4: upc_lock_free succeeds whether the lock is unlocked or
 * locked by any thread.  The generation changes, so every later use of
 * the handle -- by the holder too -- is caught as a use of a freed lock. */
static void free_slot(lock_rec_t *l, uint32_t slot)
{
    shm_lock_t *rec = shm_record(mupc_mythread, slot);
    if (rec) { /* ticket waiters see the new generation and stop waiting */
        atomic_store(&rec->holder, -1);
        atomic_store(&rec->generation, l->generation + 1);
        /* the word they sleep on must change (wake.h); they go by the generation */
        mupci_wake_sleepers(&rec->serving, sleepers_of(mupc_mythread), 1);
    }
    turn_away_waiters(l);
    l->holder = -1;
    l->in_use = 0;
    l->generation++;
    if (nfree == free_cap)
        free_slots = grow(free_slots, &free_cap, sizeof *free_slots);
    free_slots[nfree++] = slot;
}

enum { LOCK_FREE_PROBE = 1 }; /* only answer whether the lock is still allocated */

static void mupci_handle_LOCK_FREE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    lock_rec_t *l = lookup(m->offset);
    if (!l) {
        mupci_reply(src, m->op, LOCK_STALE, 0, 0);
        return;
    }
    if (!(m->flags & LOCK_FREE_PROBE))
        free_slot(l, (uint32_t)m->offset);
    mupci_reply(src, m->op, LOCK_GRANTED, 0, 0);
}

static void all_lock_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out)
{
    (void)args;
    out->word[0] = new_lock_locked();
}

/* ---- caller side ---- */

static mupc_lock_t make_handle(int host, uint64_t id) { return (mupc_lock_t){id, (uint32_t)host, LOCK_TAG}; }

static void check_handle(const char *what, mupc_lock_t l, const char *file, int line)
{
    mupci_upc_thread_only(what, file, line);
    if (l.phase != LOCK_TAG || l.thread >= (uint32_t)mupc_threads)
        mupci_fatal_at(file, line,
                       "%s: not a lock handle (thread %u, addr %#llx, phase %u); use a value "
                       "returned by upc_global_lock_alloc or upc_all_lock_alloc",
                       what, l.thread, (unsigned long long)l.addr, l.phase);
}

static int held_index(mupc_lock_t l)
{
    for (int i = 0; i < nheld; i++)
        if (held[i].addr == l.addr && held[i].thread == l.thread)
            return i;
    return -1;
}

static void stale(const char *what, mupc_lock_t l, const char *file, int line)
    __attribute__((noreturn));
static void stale(const char *what, mupc_lock_t l, const char *file, int line)
{
    mupci_fatal_at(file, line,
                   "%s: the lock (host thread %u, slot %u) has been freed with upc_lock_free "
                   "or upc_all_lock_free; a freed lock cannot be used",
                   what, l.thread, (unsigned)(uint32_t)l.addr);
}

mupc_lock_t mupc_global_lock_alloc(const char *file, int line)
{
    mupci_upc_thread_only("upc_global_lock_alloc", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_GLOBAL_LOCK_ALLOC, GASP_START, 0, file, line);
    mupci_engine_lock();
    mupc_lock_t l = make_handle(mupc_mythread, new_lock_locked());
    mupci_engine_unlock();
    MUPCI_GASP_EVENT(GASP_UPC_GLOBAL_LOCK_ALLOC, GASP_END, 0, file, line, &l);
    return l;
}

mupc_lock_t mupc_all_lock_alloc(const char *file, int line)
{
    mupci_upc_thread_only("upc_all_lock_alloc", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_ALL_LOCK_ALLOC, GASP_START, 0, file, line);
    uint64_t args[MUPCI_RV_NARGS] = {0};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_ALL_LOCK_ALLOC, args, "upc_all_lock_alloc", file, line, &r);
    mupc_lock_t l = make_handle(0, r.word[0]);
    MUPCI_GASP_EVENT(GASP_UPC_ALL_LOCK_ALLOC, GASP_END, 0, file, line, &l);
    return l;
}

static void forget_held(int i) { held[i] = held[--nheld]; }

static void free_lock(const char *what, mupc_lock_t l, const char *file, int line)
{
    check_handle(what, l, file, line);
    mupci_msg_t m = {MUPCI_MSG_LOCK_FREE, 0, 0, l.addr, 0};
    mupci_reply_t r;
    mupci_request((int)l.thread, &m, NULL, 0, &r);
    if (r.status == LOCK_STALE)
        stale(what, l, file, line);
    int i = held_index(l); /* freeing a lock this thread holds is allowed */
    if (i >= 0)
        forget_held(i);
}

/* Whether the lock `l` names has been freed (asked of its host on the
 * message path: only misuse is checked this way, never a correct call). */
static int lock_freed(mupc_lock_t l)
{
    shm_lock_t *rec = shm_record((int)l.thread, (uint32_t)l.addr);
    if (rec)
        return atomic_load(&rec->generation) != (uint32_t)(l.addr >> 32);
    mupci_msg_t m = {MUPCI_MSG_LOCK_FREE, LOCK_FREE_PROBE, 0, l.addr, 0};
    mupci_reply_t r;
    mupci_request((int)l.thread, &m, NULL, 0, &r);
    return r.status == LOCK_STALE;
}

void mupc_lock_free(mupc_lock_t l, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_FREE, GASP_START, 0, file, line, &l);
    if (!mupc_ptr_is_null(l))
        free_lock("upc_lock_free", l, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_FREE, GASP_END, 0, file, line, &l);
}

/* Collective: the rendezvous answers no thread before every thread has
 * arrived, so thread 0 frees the lock only after every thread has made
 * its last use of it (and may free it held, as upc_lock_free may). */
void mupc_all_lock_free(mupc_lock_t l, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_FREE, GASP_START, 0, file, line, &l);
    uint64_t args[MUPCI_RV_NARGS] = {l.addr, l.thread};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_ALL_LOCK_FREE, args, "upc_all_lock_free", file, line, &r);
    if (mupc_mythread == 0 && !mupc_ptr_is_null(l))
        free_lock("upc_all_lock_free", l, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_FREE, GASP_END, 0, file, line, &l);
}

typedef struct ticket_wait {
    shm_lock_t *rec;
    uint32_t ticket;
    uint32_t generation; /* the handle's: a change means the lock was freed */
} ticket_wait_t;

static int ticket_served_or_freed(void *arg)
{
    const ticket_wait_t *w = arg;
    return atomic_load_explicit(&w->rec->serving, memory_order_acquire) == w->ticket ||
           atomic_load(&w->rec->generation) != w->generation;
}

/* Take a ticket and wait for it (spin, then sleep on the record until a
 * release or free wakes it), or, for upc_lock_attempt, take one only if it would be
 * served at once.  A waiter whose lock is freed stops with LOCK_STALE. */
static int shm_acquire(int host, shm_lock_t *rec, uint32_t generation, int attempt)
{
    if (attempt) {
        uint32_t served = atomic_load_explicit(&rec->serving, memory_order_acquire);
        uint32_t expected = served;
        if (!atomic_compare_exchange_strong(&rec->next, &expected, served + 1))
            return LOCK_DENIED;
    } else {
        ticket_wait_t w = {rec, atomic_fetch_add(&rec->next, 1), generation};
        if (!ticket_served_or_freed(&w))
            mupci_engine_wait_sleep(ticket_served_or_freed, &w, &rec->serving,
                                    sleepers_of(host), 0);
        if (atomic_load(&rec->generation) != generation)
            return LOCK_STALE;
    }
    atomic_store(&rec->holder, mupc_mythread);
    return LOCK_GRANTED;
}

/* Ask the host; returns LOCK_GRANTED or LOCK_DENIED. */
static int acquire(const char *what, mupc_lock_t l, int attempt, const char *file, int line)
{
    check_handle(what, l, file, line);
    if (held_index(l) >= 0 && lock_freed(l)) /* freed by another thread while held here */
        stale(what, l, file, line);
    if (held_index(l) >= 0)
        mupci_fatal_at(file, line,
                       "%s: this thread already holds the lock (host thread %u); UPC locks are "
                       "not recursive, so this would wait forever",
                       what, l.thread);
    /* Acquire is a consistency point.  A request to another node waits
     * for its reply, which polls: its fence need not poll first. */
    shm_lock_t *rec = shm_record((int)l.thread, (uint32_t)l.addr);
    if (rec)
        mupci_fence(file, line);
    else
        mupci_fence_before_wait(file, line);
    mupci_reply_t r;
    if (rec) {
        uint32_t generation = (uint32_t)(l.addr >> 32);
        if (atomic_load(&rec->generation) != generation)
            stale(what, l, file, line);
        r.status = shm_acquire((int)l.thread, rec, generation, attempt);
    } else {
        mupci_msg_t m = {MUPCI_MSG_LOCK, (uint16_t)attempt, 0, l.addr, 0};
        mupci_request((int)l.thread, &m, NULL, 0, &r);
    }
    if (r.status == LOCK_STALE)
        stale(what, l, file, line);
    if (r.status == LOCK_GRANTED) {
        if (nheld == held_cap) {
            uint32_t cap = (uint32_t)held_cap;
            held = grow(held, &cap, sizeof *held);
            held_cap = (int)cap;
        }
        held[nheld++] = l;
    }
    return r.status;
}

void mupc_lock(mupc_lock_t l, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_LOCK, GASP_START, 0, file, line, &l);
    acquire("upc_lock", l, 0, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_LOCK, GASP_END, 0, file, line, &l);
}

int mupc_lock_attempt(mupc_lock_t l, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_ATTEMPT, GASP_START, 0, file, line, &l);
    int got = acquire("upc_lock_attempt", l, 1, file, line) == LOCK_GRANTED;
    MUPCI_GASP_EVENT(GASP_UPC_LOCK_ATTEMPT, GASP_END, 0, file, line, &l, got);
    return got;
}

void mupc_unlock(mupc_lock_t l, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_UNLOCK, GASP_START, 0, file, line, &l);
    check_handle("upc_unlock", l, file, line);
    int i = held_index(l);
    if (i < 0 && lock_freed(l))
        stale("upc_unlock", l, file, line);
    if (i < 0)
        mupci_fatal_at(file, line,
                       "upc_unlock: this thread does not hold the lock (host thread %u); only "
                       "the thread that acquired a lock may release it",
                       l.thread);
    forget_held(i);
    mupci_fence(file, line); /* the critical section's writes are applied (Table 4.1) */
    shm_lock_t *rec = shm_record((int)l.thread, (uint32_t)l.addr);
    if (rec) {
        if (atomic_load(&rec->generation) != (uint32_t)(l.addr >> 32))
            stale("upc_unlock", l, file, line); /* another thread freed it while held here */
        atomic_store(&rec->holder, -1);
        atomic_fetch_add_explicit(&rec->serving, 1, memory_order_seq_cst);
        mupci_wake_sleepers(&rec->serving, sleepers_of((int)l.thread), 0);
    } else { /* the host catches a lock freed meanwhile; `size` carries the line */
        mupci_msg_t m = {MUPCI_MSG_UNLOCK, 0, 0, l.addr, (uint64_t)(uint32_t)line};
        mupci_engine_lock();
        mupci_post_locked((int)l.thread, &m, NULL, 0);
        mupci_engine_unlock();
    }
    MUPCI_GASP_EVENT(GASP_UPC_UNLOCK, GASP_END, 0, file, line, &l);
}

int mupc_lock_waiters(mupc_lock_t l)
{
    if (l.phase != LOCK_TAG || l.thread != (uint32_t)mupc_mythread)
        return -1;
    mupci_engine_lock();
    lock_rec_t *rec = lookup(l.addr);
    int n = -1;
    shm_lock_t *ticket = shm_record(mupc_mythread, (uint32_t)l.addr);
    if (rec && ticket) {
        uint32_t waiting = atomic_load(&ticket->next) - atomic_load(&ticket->serving);
        n = waiting > 0 ? (int)waiting - 1 : 0; /* tickets taken beyond the holder's */
    } else if (rec) {
        n = 0;
        for (const waiter_t *w = rec->head; w; w = w->next)
            n++;
    }
    mupci_engine_unlock();
    return n;
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_LOCK, mupci_handle_LOCK},
    {MUPCI_MSG_UNLOCK, mupci_handle_UNLOCK},
    {MUPCI_MSG_LOCK_FREE, mupci_handle_LOCK_FREE},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
