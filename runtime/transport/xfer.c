/* SPDX-License-Identifier: MIT */
/*
 * xfer.c -- get/put/memset/fence protocol and its message handlers.
 *
 * Small transfers travel inline in batches; larger ones as fragments with
 * the operation's data tag straight between user memory and the segment.
 * Puts are not acknowledged one by one: a fence sends one ACK_REQ to every
 * thread written since the last fence, and MPI's non-overtaking order
 * makes each ACK mean "everything before it is applied".
 *
 * A target whose segment is mapped here (shm, node.h) takes none of this:
 * its gets and puts are memcpy on the mapping, complete on return, so
 * program order per target holds and a fence is a processor fence.
 */
#include "transport/xfer.h"
#include "transport/direct.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "transport/node.h"
#include "transport/segment.h"

#include <stdlib.h>
#include <string.h>

/* Largest masked put message: 32 words = a 2K line (the largest allowed). */
#define MUPCI_MASKED_PIECE_WORDS 32

/* The threads put to since the last fence: a flag per thread of the job
 * (one byte) and the list of those set, so a fence costs what was written,
 * not the size of the job (doc/architecture.md, "What a rank costs"). */
static char *written;      /* written[t]: t is in written_list */
static int *written_list;  /* grows as distinct targets are written */
static int nwritten, written_cap;

void mupci_xfer_init(int threads)
{
    written = calloc((size_t)threads, 1);
    if (!written)
        mupci_fatal("out of memory");
}

static void note_written(int thread)
{
    if (written[thread])
        return;
    if (nwritten == written_cap) {
        int cap = written_cap ? 2 * written_cap : 16;
        int *grown = realloc(written_list, (size_t)cap * sizeof *grown);
        if (!grown)
            mupci_fatal("out of memory (the list of %d threads written since the last "
                        "fence)",
                        cap);
        written_list = grown;
        written_cap = cap;
    }
    written[thread] = 1;
    written_list[nwritten++] = thread;
}

/* The handle of a non-blocking access that completed before it returned. */
static uint64_t completed_handle(void)
{
    mupci_engine_lock();
    uint64_t h = mupci_op_handle(mupci_op_alloc(0, NULL));
    mupci_engine_unlock();
    return h;
}

static void send_msg(int dest, int type, uint32_t op, uint64_t offset, uint64_t size,
                     const void *payload, size_t len)
{
    mupci_msg_t m = {(uint16_t)type, 0, op, offset, size};
    mupci_engine_send(dest, &m, payload, len);
}

/* Wait for an operation and free its slot (lock held). */
static void finish_locked(mupci_op_t *op)
{
    mupci_engine_wait_op_locked(op);
    mupci_op_free(op);
}

static void finish(mupci_op_t *op)
{
    mupci_engine_lock();
    finish_locked(op);
    mupci_engine_unlock();
}

/* ---- gets ---- */

/* Lock held. */
static mupci_op_t *start_get_locked(void *dst, int thread, uint64_t offset, size_t n)
{
    mupci_op_t *op;
    if (n <= mupci_engine_inline_max()) {
        op = mupci_op_alloc(1, dst);
        send_msg(thread, MUPCI_MSG_GET_REQ, op->slot, offset, n, NULL, 0);
    } else {
        op = mupci_op_alloc(mupci_engine_fragments(n), dst);
        /* post the receives before asking, so the data never waits */
        mupci_engine_recv_data(dst, n, thread, MUPCI_TAG_GET_DATA(op->slot), op);
        send_msg(thread, MUPCI_MSG_GET_LARGE_REQ, op->slot, offset, n, NULL, 0);
    }
    mupci_engine_flush(thread);
    return op;
}

/* Large gets from a thread on this node are copied straight from its
 * segment (direct.h), unless a put of ours to it may still be in flight:
 * the get must see it, and only the message path keeps that order.
 * (`written` is the computation pthread's own: no lock needed.) */
static int goes_direct(int thread, size_t n)
{
    return n > mupci_engine_inline_max() && !written[thread] && mupci_direct_usable(thread);
}

/* A blocking get takes the progress lock once: ask, wait, free the slot. */
void mupci_xfer_get(void *dst, int thread, uint64_t offset, size_t n)
{
    const char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memcpy(dst, mapped, n);
        return;
    }
    if (goes_direct(thread, n)) {
        mupci_direct_read(dst, thread, offset, n);
        return;
    }
    mupci_engine_lock();
    finish_locked(start_get_locked(dst, thread, offset, n));
    mupci_engine_unlock();
}

/* A direct non-blocking get is copied by whoever makes progress: the
 * communication pthread while the caller computes, the caller itself once
 * it waits in upc_sync. */
uint64_t mupci_xfer_get_nb(void *dst, int thread, uint64_t offset, size_t n)
{
    const char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memcpy(dst, mapped, n);
        return completed_handle();
    }
    int direct = goes_direct(thread, n);
    mupci_engine_lock();
    mupci_op_t *op;
    if (direct) {
        op = mupci_op_alloc(1, dst);
        mupci_direct_read_async(dst, thread, offset, n, op);
    } else {
        op = start_get_locked(dst, thread, offset, n);
    }
    uint64_t h = mupci_op_handle(op);
    mupci_engine_unlock();
    if (direct)
        mupci_engine_wake_comm();
    return h;
}

/* ---- puts ---- */

/* Queue a put; returns the op counting the local completion of large
 * data (NULL for inline puts, whose source was copied already).  With
 * `ack`, one more count for the target's acknowledgement. */
static mupci_op_t *start_put(int thread, uint64_t offset, const void *src, size_t n, int ack)
{
    mupci_op_t *op = NULL;
    mupci_engine_lock();
    note_written(thread);
    if (n <= mupci_engine_inline_max()) {
        send_msg(thread, MUPCI_MSG_PUT, 0, offset, n, src, n);
        if (ack)
            op = mupci_op_alloc(1, NULL);
    } else {
        op = mupci_op_alloc(mupci_engine_fragments(n) + (ack ? 1 : 0), NULL);
        send_msg(thread, MUPCI_MSG_PUT_LARGE, op->slot, offset, n, NULL, 0);
        mupci_engine_flush(thread); /* the header must arrive before the data is matched */
        mupci_engine_send_data(src, n, thread, MUPCI_TAG_PUT_DATA(op->slot), op);
    }
    if (ack) {
        send_msg(thread, MUPCI_MSG_ACK_REQ, op->slot, 0, 0, NULL, 0);
        mupci_engine_flush(thread);
    }
    mupci_engine_unlock();
    return op;
}

void mupci_xfer_put(int thread, uint64_t offset, const void *src, size_t n)
{
    char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memcpy(mapped, src, n);
        return;
    }
    mupci_op_t *op = start_put(thread, offset, src, n, 0);
    if (op)
        finish(op); /* large put: the source buffer is reusable after this */
}

uint64_t mupci_xfer_put_nb(int thread, uint64_t offset, const void *src, size_t n)
{
    char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memcpy(mapped, src, n);
        return completed_handle();
    }
    return mupci_op_handle(start_put(thread, offset, src, n, 1));
}

/* dst[i] = data[i] for each byte i of [0, n) whose mask bit is set. */
static void apply_masked(unsigned char *dst, const uint64_t *mask, const unsigned char *data,
                         size_t n)
{
    for (size_t w = 0; w < n / 64; w++) {
        uint64_t bits = mask[w];
        if (bits == ~(uint64_t)0) {
            memcpy(dst + w * 64, data + w * 64, 64);
            continue;
        }
        for (; bits != 0; bits &= bits - 1) {
            int i = __builtin_ctzll(bits);
            dst[w * 64 + (size_t)i] = data[w * 64 + (size_t)i];
        }
    }
}

void mupci_xfer_put_masked(int thread, uint64_t offset, const void *src, const uint64_t *mask,
                           size_t n)
{
    char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        apply_masked((unsigned char *)mapped, mask, src, n);
        return;
    }
    /* Pieces of whole 64-byte words, each mask and data inline in one message. */
    size_t words_per_msg = mupci_engine_inline_max() / (64 + sizeof(uint64_t));
    unsigned char buf[MUPCI_MASKED_PIECE_WORDS * (64 + sizeof(uint64_t))];
    if (words_per_msg > MUPCI_MASKED_PIECE_WORDS)
        words_per_msg = MUPCI_MASKED_PIECE_WORDS;
    mupci_engine_lock();
    note_written(thread);
    for (size_t w = 0; w < n / 64; w += words_per_msg) {
        size_t k = n / 64 - w < words_per_msg ? n / 64 - w : words_per_msg;
        memcpy(buf, mask + w, k * sizeof(uint64_t));
        memcpy(buf + k * sizeof(uint64_t), (const char *)src + w * 64, k * 64);
        send_msg(thread, MUPCI_MSG_PUT_MASKED, 0, offset + w * 64, k * 64, buf,
                 k * (64 + sizeof(uint64_t)));
    }
    mupci_engine_unlock();
}

void mupci_xfer_memset(int thread, uint64_t offset, int c, size_t n)
{
    char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memset(mapped, c, n);
        return;
    }
    mupci_engine_lock();
    note_written(thread);
    send_msg(thread, MUPCI_MSG_MEMSET, (uint32_t)(unsigned char)c, offset, n, NULL, 0);
    mupci_engine_unlock();
}

uint64_t mupci_xfer_memset_nb(int thread, uint64_t offset, int c, size_t n)
{
    char *mapped = mupci_xfer_mapped(thread, offset);
    if (mapped) {
        memset(mapped, c, n);
        return completed_handle();
    }
    mupci_engine_lock();
    note_written(thread);
    send_msg(thread, MUPCI_MSG_MEMSET, (uint32_t)(unsigned char)c, offset, n, NULL, 0);
    mupci_op_t *op = mupci_op_alloc(1, NULL);
    send_msg(thread, MUPCI_MSG_ACK_REQ, op->slot, 0, 0, NULL, 0);
    mupci_engine_flush(thread);
    mupci_engine_unlock();
    return mupci_op_handle(op);
}

void mupci_xfer_copy(int dst_thread, uint64_t dst_offset, int src_thread, uint64_t src_offset,
                     size_t n)
{
    char *to = mupci_xfer_mapped(dst_thread, dst_offset);
    char *from = mupci_xfer_mapped(src_thread, src_offset);
    if (to && from) {
        memmove(to, from, n);
        return;
    }
    /* Third-party copy through a bounce buffer, one piece at a time. */
    size_t piece = n < ((size_t)1 << 20) ? n : ((size_t)1 << 20);
    char *bounce = malloc(piece ? piece : 1);
    if (!bounce)
        mupci_fatal("out of memory for a %zu-byte copy buffer", piece);
    for (size_t done = 0; done < n; done += piece) {
        size_t len = n - done < piece ? n - done : piece;
        mupci_xfer_get(bounce, src_thread, src_offset + done, len);
        mupci_xfer_put(dst_thread, dst_offset + done, bounce, len);
    }
    free(bounce);
}

/* ---- completion ---- */

int mupci_xfer_sync(uint64_t handle, int wait)
{
    mupci_engine_lock();
    mupci_op_t *op = mupci_op_from_handle(handle);
    if (!op) {
        mupci_engine_unlock();
        return -1;
    }
    if (!wait && !mupci_op_complete(op))
        mupci_engine_progress(1);
    int complete = mupci_op_complete(op);
    mupci_engine_unlock();
    if (!complete && !wait)
        return 0;
    finish(op);
    return 1;
}

void mupci_xfer_fence(int poll_when_idle)
{
    /* the stores to mapped segments, and the loads after the fence */
    if (mupci_node_sharing)
        mupci_node_fence();
    if (mupci_node_all_mapped())
        return; /* every access is a load or a store: nothing in flight */
    mupci_engine_lock();
    int targets = nwritten;
    if (targets == 0) {
        mupci_engine_unlock();
        /* Nothing to complete, but a fence is where a thread spinning on
         * strict data lets incoming writes in. */
        if (poll_when_idle)
            mupci_engine_poll();
        return;
    }
    mupci_op_t *op = mupci_op_alloc(targets, NULL);
    for (int i = 0; i < nwritten; i++) {
        int t = written_list[i];
        written[t] = 0;
        send_msg(t, MUPCI_MSG_ACK_REQ, op->slot, 0, 0, NULL, 0);
    }
    nwritten = 0;
    mupci_engine_flush_all();
    mupci_engine_unlock();
    finish(op);
}

/* ---- handlers (progress lock held) ---- */

static void check_incoming(int src, const mupci_msg_t *m)
{
    if (!mupci_segment_range_ok(m->offset, (size_t)m->size))
        mupci_fatal("internal error: %s from thread %d for %llu bytes at offset %llu lies "
                    "outside this thread's %zu-byte segment",
                    mupci_msg_type_name(m->type), src, (unsigned long long)m->size,
                    (unsigned long long)m->offset, mupci_segment_bytes);
}

static void mupci_handle_GET_REQ(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    send_msg(src, MUPCI_MSG_GET_REPLY, m->op, 0, m->size, mupci_segment_addr(m->offset),
             (size_t)m->size);
}

static void mupci_handle_GET_REPLY(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_op_t *op = mupci_op_from_slot(src, m->op);
    memcpy(op->dst, payload, len);
    mupci_op_part_done(op);
}

static void mupci_handle_GET_LARGE_REQ(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    mupci_engine_send_data(mupci_segment_addr(m->offset), (size_t)m->size, src,
                           MUPCI_TAG_GET_DATA(m->op), NULL);
}

static void mupci_handle_PUT(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    memcpy(mupci_segment_addr(m->offset), payload, len);
}

static void mupci_handle_PUT_LARGE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    mupci_engine_recv_data_now(mupci_segment_addr(m->offset), (size_t)m->size, src,
                               MUPCI_TAG_PUT_DATA(m->op));
}

static void mupci_handle_PUT_MASKED(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    size_t words = (size_t)m->size / 64;
    uint64_t mask[MUPCI_MASKED_PIECE_WORDS];
    if (words > MUPCI_MASKED_PIECE_WORDS)
        mupci_fatal("internal error: masked put of %zu words from thread %d", words, src);
    memcpy(mask, payload, words * sizeof(uint64_t)); /* the payload may be unaligned */
    apply_masked(mupci_segment_addr(m->offset), mask,
                 (const unsigned char *)payload + words * sizeof(uint64_t), (size_t)m->size);
}

static void mupci_handle_MEMSET(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    check_incoming(src, m);
    memset(mupci_segment_addr(m->offset), (int)m->op, (size_t)m->size);
}

static void mupci_handle_ACK_REQ(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    send_msg(src, MUPCI_MSG_ACK, m->op, 0, 0, NULL, 0);
}

static void mupci_handle_ACK(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_op_part_done(mupci_op_from_slot(src, m->op));
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_GET_REQ, mupci_handle_GET_REQ},
    {MUPCI_MSG_GET_REPLY, mupci_handle_GET_REPLY},
    {MUPCI_MSG_GET_LARGE_REQ, mupci_handle_GET_LARGE_REQ},
    {MUPCI_MSG_PUT, mupci_handle_PUT},
    {MUPCI_MSG_PUT_LARGE, mupci_handle_PUT_LARGE},
    {MUPCI_MSG_PUT_MASKED, mupci_handle_PUT_MASKED},
    {MUPCI_MSG_MEMSET, mupci_handle_MEMSET},
    {MUPCI_MSG_ACK_REQ, mupci_handle_ACK_REQ},
    {MUPCI_MSG_ACK, mupci_handle_ACK},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
