/* SPDX-License-Identifier: MIT */
/*
 * request.c -- request/reply plumbing for control operations (request.h).
 */
#include "transport/request.h"
#include "transport/engine.h"
#include "mupc.h"

#include <string.h>

void mupci_post_locked(int dest, const mupci_msg_t *m, const void *payload, size_t len)
{
    if (dest == mupc_mythread) {
        mupci_engine_deliver_local(m, payload, len);
        return;
    }
    mupci_engine_send(dest, m, payload, len);
    mupci_engine_flush(dest);
}

void mupci_request_locked(int dest, mupci_msg_t *m, const void *payload, size_t len,
                          mupci_reply_t *reply)
{
    mupci_op_t *op = mupci_op_alloc(1, reply);
    m->op = op->slot;
    mupci_post_locked(dest, m, payload, len);
    mupci_engine_wait_op_locked(op);
    mupci_op_free(op);
}

void mupci_request(int dest, mupci_msg_t *m, const void *payload, size_t len,
                   mupci_reply_t *reply)
{
    mupci_engine_lock();
    mupci_request_locked(dest, m, payload, len, reply);
    mupci_engine_unlock();
}

static void complete(int src, uint32_t slot, uint16_t status, uint64_t w0, uint64_t w1)
{
    mupci_op_t *op = mupci_op_from_slot(src, slot);
    mupci_reply_t *r = op->dst;
    r->word[0] = w0;
    r->word[1] = w1;
    r->status = status;
    mupci_op_part_done(op);
}

void mupci_reply(int dest, uint32_t op, uint16_t status, uint64_t w0, uint64_t w1)
{
    if (dest == mupc_mythread) {
        complete(dest, op, status, w0, w1);
        return;
    }
    mupci_msg_t m = {MUPCI_MSG_REPLY, status, op, w0, w1};
    mupci_engine_send(dest, &m, NULL, 0);
}

static void mupci_handle_REPLY(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    (void)payload;
    (void)len;
    complete(src, m->op, m->flags, m->offset, m->size);
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_REPLY, mupci_handle_REPLY},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
