/* SPDX-License-Identifier: MIT */
/*
 * request.h -- control requests answered by one reply (heap, locks,
 * atomics, collective rendezvous).
 *
 * A request to this thread itself does not go through MPI: its handler
 * runs directly, in order with everything else this thread does, under
 * the progress lock like any handler.  A reply carries a 16-bit status and
 * two 64-bit words.
 */
#ifndef MUPCI_REQUEST_H
#define MUPCI_REQUEST_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "transport/msg.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mupci_reply {
    uint64_t word[2];
    uint16_t status; /* meaning defined by the request type; 0 = success */
} mupci_reply_t;

/* Send `m` (its op field is filled in) to `dest` and wait for the reply.
 * The _locked form is entered and left holding the progress lock. */
void mupci_request(int dest, mupci_msg_t *m, const void *payload, size_t len,
                   mupci_reply_t *reply);
void mupci_request_locked(int dest, mupci_msg_t *m, const void *payload, size_t len,
                          mupci_reply_t *reply);

/* Post a message that needs no reply (to this thread: run its handler). */
void mupci_post_locked(int dest, const mupci_msg_t *m, const void *payload, size_t len);

/* From a handler: answer request `op` of thread `dest`. */
void mupci_reply(int dest, uint32_t op, uint16_t status, uint64_t w0, uint64_t w1);

#endif
