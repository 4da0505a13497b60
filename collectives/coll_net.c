/* SPDX-License-Identifier: MIT */
/*
 * coll_net.c -- collective messages (COLL) and the mailbox that holds
 * them until the receiving thread asks (see coll_net.h).
 *
 * A message longer than fits in a batch travels as several COLL messages
 * ("chunks"); each names its byte offset and the message's total length,
 * and MPI's per-source order delivers them in order.
 */
#include "collectives/coll_net.h"
#include "transport/engine.h"
#include "base/fatal.h"

#include <stdlib.h>
#include <string.h>

/* COLL header: op = call number, flags = round, offset = chunk offset in
 * the low 32 bits and the message's total length in the high 32. */
#define CHUNK_OFFSET_BITS 32
#define MAX_MESSAGE ((((uint64_t)1) << CHUNK_OFFSET_BITS) - 1)

typedef struct letter {
    uint32_t call;
    uint16_t round;
    int src;
    size_t size, received;
    struct letter *next;
    unsigned char data[]; /* size bytes */
} letter_t;

/* One queue per source, in arrival order.  A source's messages arrive in
 * the order of its calls, so the wanted letter is at or near the head
 * even when a fast thread has run many calls ahead (UPC_IN_NOSYNC,
 * MYSYNC) and its later letters pile up behind. */
typedef struct queue {
    letter_t *head, *tail;
} queue_t;

static queue_t *queues; /* [THREADS], progress lock held */
static uint32_t current_call;
static const char *call_what, *call_file; /* the current call, for messages */
static int call_line;

static queue_t *queue_of(int src)
{
    if (!queues && !(queues = calloc((size_t)mupc_threads, sizeof *queues)))
        mupci_fatal("out of memory for %d collective queues", mupc_threads);
    return &queues[src];
}

void mupci_coll_begin(const char *what, const char *file, int line)
{
    current_call++;
    call_what = what;
    call_file = file;
    call_line = line;
}

void mupci_coll_send(int dest, int round, const void *buf, size_t n)
{
    if (MUPCI_CHECKS && mupci_unlikely((uint64_t)n > MAX_MESSAGE))
        mupci_fatal("a collective call moves %zu bytes between two threads; the limit is "
                    "4 GiB per pair: split the call",
                    n);
    size_t chunk = mupci_engine_inline_max() & ~(size_t)7;
    mupci_engine_lock();
    size_t done = 0;
    do {
        size_t len = n - done < chunk ? n - done : chunk;
        mupci_msg_t m = {MUPCI_MSG_COLL, (uint16_t)round, current_call,
                         (uint64_t)done | ((uint64_t)n << CHUNK_OFFSET_BITS), len};
        if (dest == mupc_mythread)
            mupci_engine_deliver_local(&m, (const char *)buf + done, len);
        else
            mupci_engine_send(dest, &m, (const char *)buf + done, len);
        done += len;
    } while (done < n);
    if (dest != mupc_mythread)
        mupci_engine_flush(dest);
    mupci_engine_unlock();
}

/* Lock held.  The letter this chunk continues (the source's last one, if
 * incomplete: chunks of one message are sent back to back), or a new one. */
static letter_t *letter_for(int src, uint32_t call, uint16_t round, size_t size)
{
    queue_t *q = queue_of(src);
    if (q->tail && q->tail->received < q->tail->size)
        return q->tail;
    letter_t *l = malloc(sizeof *l + size);
    if (!l)
        mupci_fatal("out of memory for a %zu-byte collective message", size);
    l->received = 0;
    l->next = NULL;
    l->call = call;
    l->round = round;
    l->src = src;
    l->size = size;
    if (q->tail)
        q->tail->next = l;
    else
        q->head = l;
    q->tail = l;
    return l;
}

static void mupci_handle_COLL(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    size_t offset = (size_t)(m->offset & MAX_MESSAGE);
    size_t size = (size_t)(m->offset >> CHUNK_OFFSET_BITS);
    letter_t *l = letter_for(src, m->op, m->flags, size);
    if (offset != l->received || len > size - offset || l->call != m->op)
        mupci_fatal("internal error: collective message chunk at %zu (%zu bytes) from thread "
                    "%d does not continue the %zu bytes received of %zu",
                    offset, len, src, l->received, size);
    memcpy(l->data + offset, payload, len);
    l->received += len;
}

typedef struct wanted {
    int src;
    uint16_t round;
    letter_t *found, *before; /* the letter, and its predecessor in its queue */
} wanted_t;

/* Lock held: look through one source's letters of the current call. */
static int search_queue(wanted_t *w, int src)
{
    letter_t *prev = NULL;
    for (letter_t *l = queue_of(src)->head; l; prev = l, l = l->next) {
        if ((int32_t)(l->call - current_call) > 0)
            return 0; /* later calls only from here on */
        if (l->call == current_call && l->round == w->round && l->received == l->size) {
            w->found = l;
            w->before = prev;
            return 1;
        }
    }
    return 0;
}

/* Lock held: whether the wanted letter is complete; remembers where. */
static int letter_arrived(void *arg)
{
    wanted_t *w = arg;
    if (w->src != MUPCI_COLL_ANY)
        return search_queue(w, w->src);
    for (int t = 0; t < mupc_threads; t++)
        if (search_queue(w, t))
            return 1;
    return 0;
}

static void unlink_letter(const wanted_t *w)
{
    queue_t *q = queue_of(w->found->src);
    if (w->before)
        w->before->next = w->found->next;
    else
        q->head = w->found->next;
    if (q->tail == w->found)
        q->tail = w->before;
}

int mupci_coll_recv(int src, int round, void *buf, size_t n)
{
    wanted_t w = {src, (uint16_t)round, NULL, NULL};
    mupci_engine_lock();
    mupci_engine_wait_locked(letter_arrived, &w);
    letter_t *l = w.found;
    unlink_letter(&w);
    mupci_engine_unlock();
    if (l->size != n)
        mupci_fatal_at(call_file, call_line,
                       "%s: collective call number %u: thread %d sent %zu bytes where this "
                       "thread expected %zu; every thread must make the same collective calls "
                       "in the same order, with the same nbytes, nelems, blk_size, op, src and "
                       "dst",
                       call_what, current_call, l->src, l->size, n);
    memcpy(buf, l->data, n);
    int from = l->src;
    free(l);
    return from;
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_COLL, mupci_handle_COLL},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
