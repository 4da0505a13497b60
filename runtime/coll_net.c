/*
 * coll_net.c -- collective messages (COLL) and the mailbox that holds
 * them until the receiving thread asks (see coll_net.h).
 *
 * A message longer than fits in a batch travels as several COLL messages
 * ("chunks"); each names its byte offset and the message's total length,
 * and MPI's per-source order delivers them in order.  The mailbox is a
 * short list: a thread has at most a few messages per peer outstanding.
 */
#include "coll_net.h"
#include "engine.h"
#include "fatal.h"

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
    unsigned char *data;
    struct letter *next;
} letter_t;

static letter_t *mailbox; /* arrival order */
static uint32_t current_call;

void mupci_coll_begin(void) { current_call++; }

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

/* Lock held.  The incomplete letter this chunk continues, or a new one. */
static letter_t *letter_for(int src, uint32_t call, uint16_t round, size_t size)
{
    letter_t **at = &mailbox;
    for (; *at; at = &(*at)->next) {
        letter_t *l = *at;
        if (l->src == src && l->call == call && l->round == round && l->received < l->size)
            return l;
    }
    letter_t *l = calloc(1, sizeof *l);
    if (!l || !(l->data = malloc(size ? size : 1)))
        mupci_fatal("out of memory for a %zu-byte collective message", size);
    l->call = call;
    l->round = round;
    l->src = src;
    l->size = size;
    *at = l;
    return l;
}

void mupci_handle_COLL(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    size_t offset = (size_t)(m->offset & MAX_MESSAGE);
    size_t size = (size_t)(m->offset >> CHUNK_OFFSET_BITS);
    letter_t *l = letter_for(src, m->op, m->flags, size);
    if (offset != l->received || len > size - offset)
        mupci_fatal("internal error: collective message chunk at %zu (%zu bytes) from thread "
                    "%d does not continue the %zu bytes received of %zu",
                    offset, len, src, l->received, size);
    memcpy(l->data + offset, payload, len);
    l->received += len;
}

typedef struct wanted {
    int src;
    uint16_t round;
    letter_t **found; /* link pointing at the letter */
} wanted_t;

/* Lock held: whether the letter is complete; remembers where it is. */
static int letter_arrived(void *arg)
{
    wanted_t *w = arg;
    for (letter_t **at = &mailbox; *at; at = &(*at)->next) {
        letter_t *l = *at;
        if (l->call == current_call && l->round == w->round && l->received == l->size &&
            (w->src == MUPCI_COLL_ANY || l->src == w->src)) {
            w->found = at;
            return 1;
        }
    }
    return 0;
}

int mupci_coll_recv(int src, int round, void *buf, size_t n)
{
    wanted_t w = {src, (uint16_t)round, NULL};
    mupci_engine_lock();
    mupci_engine_wait_locked(letter_arrived, &w);
    letter_t *l = *w.found;
    *w.found = l->next;
    mupci_engine_unlock();
    if (l->size != n)
        mupci_fatal_plain("collective call number %u: thread %d sent %zu bytes where thread %d "
                          "expected %zu: every thread must make the same collective calls in "
                          "the same order, with the same nbytes, nelems, blk_size, op, src and "
                          "dst",
                          current_call, l->src, l->size, mupc_mythread, n);
    memcpy(buf, l->data, n);
    int from = l->src;
    free(l->data);
    free(l);
    return from;
}
