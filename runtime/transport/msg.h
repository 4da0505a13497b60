/* SPDX-License-Identifier: MIT */
/*
 * msg.h -- the one message format and the table of message types.
 *
 * Every protocol message is a 24-byte header, optionally followed by an
 * inline payload padded to 8 bytes.  Messages to the same destination are
 * packed back to back into one MPI message (a batch, tag MUPCI_TAG_BATCH);
 * the MPI envelope carries the source.  Bulk data above the inline limit
 * travels separately as fragments with a per-operation data tag, straight
 * from and into user or segment memory.
 */
#ifndef MUPCI_MSG_H
#define MUPCI_MSG_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

/* X(NAME, description).  The handler of NAME is mupci_handle_<name> in the
 * module that owns the protocol, which registers it with the engine
 * (mupci_engine_register_handlers). */
#define MUPCI_MSG_TYPES(X)                                                              \
    X(GET_REQ, "reply GET_REPLY with `size` bytes at `offset` (op = requester's op)")    \
    X(GET_REPLY, "payload for the requester's op `op`")                                 \
    X(GET_LARGE_REQ, "send `size` bytes at `offset` as fragments with op's data tag")   \
    X(PUT, "store the payload at `offset`")                                             \
    X(PUT_LARGE, "receive `size` bytes at `offset` as fragments with op's data tag")    \
    X(MEMSET, "fill `size` bytes at `offset` with the byte `op`")                       \
    X(PUT_MASKED, "store the `size` data bytes after the mask words whose bits are set") \
    X(ACK_REQ, "reply ACK(op) once every earlier message from this source is applied") \
    X(ACK, "one acknowledgement for the requester's op `op`")                           \
    X(BARRIER_ROUND, "barrier epoch `offset`, dissemination round `flags`; payload: name info") \
    X(GLOBAL_EXIT, "upc_global_exit(status = `size`); reply ACK(op)")                  \
    X(REPLY, "answer to request `op`: status in `flags`, two words in `offset`, `size`") \
    X(HEAP_ALLOC, "(thread 0) `size` bytes per thread from the symmetric heap; REPLY")  \
    X(HEAP_FREE, "free the heap block at `offset` (flags 1: only check); REPLY the status") \
    X(HEAP_FLOOR, "(thread 0) sender's local heap floor is `offset`, change number `size` (flags 1: lowering; REPLY the verdict)") \
    X(RV_ARRIVE, "(thread 0) arrival at collective call number `offset`; payload: call") \
    X(LOCK, "acquire lock `offset` (flags: attempt); REPLY once granted or refused")    \
    X(UNLOCK, "release lock `offset` (`size`: the caller's line); no reply")           \
    X(LOCK_FREE, "free lock `offset` (flags 1: only check it exists); REPLY the status") \
    X(ATOMIC, "atomic op `flags` at `offset`; payload: operands; REPLY: old value")     \
    X(COLL, "collective call `op`, round `flags`: chunk of a message (coll_net.c)")     \
    X(BOUNDS_QUERY, "(heap keeper) live block at or below `offset`, extent on thread `size`; REPLY")

typedef enum {
#define MUPCI_MSG_ENUM(name, desc) MUPCI_MSG_##name,
    MUPCI_MSG_TYPES(MUPCI_MSG_ENUM)
#undef MUPCI_MSG_ENUM
    MUPCI_MSG_NTYPES
} mupci_msg_type_t;

typedef struct mupci_msg {
    uint16_t type;   /* mupci_msg_type_t */
    uint16_t flags;  /* per-type */
    uint32_t op;     /* requester's operation slot, or a small argument */
    uint64_t offset; /* segment offset, or barrier epoch */
    uint64_t size;   /* bytes to move, payload bytes, or a value */
} mupci_msg_t;

#define MUPCI_MSG_HEADER_BYTES ((size_t)sizeof(mupci_msg_t))

/* MPI tags.  Bulk data has one tag space per direction, so data a thread
 * receives for its own get can never match data a peer puts to it. */
#define MUPCI_MAX_OPS 1024
#define MUPCI_TAG_BATCH 1
#define MUPCI_TAG_GET_DATA(slot) (2 + (int)(slot))                 /* owner -> requester */
#define MUPCI_TAG_PUT_DATA(slot) (2 + MUPCI_MAX_OPS + (int)(slot)) /* requester -> owner */

/* Bytes a message with `payload` bytes takes in a batch. */
size_t mupci_msg_wire_size(size_t payload);

/* Append a message to a batch buffer of `cap` bytes holding `*used` bytes.
 * Returns 0 and advances *used, or -1 when it does not fit. */
int mupci_msg_append(void *buf, size_t cap, size_t *used, const mupci_msg_t *hdr,
                     const void *payload, size_t payload_len);

/* Iterate over a received batch: returns 1 with the next header and its
 * payload (payload_len bytes), 0 at the end, -1 if the batch is malformed
 * (truncated message or unknown type). */
int mupci_msg_next(const void *buf, size_t len, size_t *pos, mupci_msg_t *hdr,
                   const void **payload, size_t *payload_len);

/* Name of a message type, for diagnostics. */
const char *mupci_msg_type_name(unsigned type);

/* Which message types carry an inline payload of `size` bytes. */
int mupci_msg_has_payload(unsigned type);

#endif
