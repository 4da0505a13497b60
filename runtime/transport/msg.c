/* SPDX-License-Identifier: MIT */
/*
 * msg.c -- packing and unpacking of batched protocol messages (pure code).
 */
#include "transport/msg.h"

#include <string.h>

static const char *const type_names[] = {
#define MUPCI_MSG_NAME(name, desc) #name,
    MUPCI_MSG_TYPES(MUPCI_MSG_NAME)
#undef MUPCI_MSG_NAME
};

const char *mupci_msg_type_name(unsigned type)
{
    return type < MUPCI_MSG_NTYPES ? type_names[type] : "UNKNOWN";
}

/* These types carry an inline payload of `size` bytes; the others' `size`
 * describes a transfer or a value and nothing follows the header. */
int mupci_msg_has_payload(unsigned type)
{
    return type == MUPCI_MSG_GET_REPLY || type == MUPCI_MSG_PUT ||
           type == MUPCI_MSG_BARRIER_ROUND ||
           type == MUPCI_MSG_RV_ARRIVE || type == MUPCI_MSG_ATOMIC ||
           type == MUPCI_MSG_PUT_MASKED || type == MUPCI_MSG_COLL;
}

static size_t pad8(size_t n) { return (n + 7) & ~(size_t)7; }

size_t mupci_msg_wire_size(size_t payload) { return MUPCI_MSG_HEADER_BYTES + pad8(payload); }

int mupci_msg_append(void *buf, size_t cap, size_t *used, const mupci_msg_t *hdr,
                     const void *payload, size_t payload_len)
{
    size_t need = mupci_msg_wire_size(payload_len);
    if (*used + need > cap)
        return -1;
    char *at = (char *)buf + *used;
    memcpy(at, hdr, MUPCI_MSG_HEADER_BYTES);
    if (payload_len)
        memcpy(at + MUPCI_MSG_HEADER_BYTES, payload, payload_len);
    *used += need;
    return 0;
}

static size_t payload_length(const mupci_msg_t *hdr)
{
    if (hdr->type == MUPCI_MSG_PUT_MASKED) { /* one mask word per 64 data bytes */
        if (hdr->size > SIZE_MAX / 2)
            return SIZE_MAX; /* malformed: cannot fit any batch */
        return (size_t)hdr->size + (size_t)hdr->size / 64 * sizeof(uint64_t);
    }
    return mupci_msg_has_payload(hdr->type) ? (size_t)hdr->size : 0;
}

int mupci_msg_next(const void *buf, size_t len, size_t *pos, mupci_msg_t *hdr,
                   const void **payload, size_t *payload_len)
{
    if (*pos == len)
        return 0;
    if (len - *pos < MUPCI_MSG_HEADER_BYTES)
        return -1;
    const char *at = (const char *)buf + *pos;
    memcpy(hdr, at, MUPCI_MSG_HEADER_BYTES);
    if (hdr->type >= MUPCI_MSG_NTYPES)
        return -1;
    size_t plen = payload_length(hdr);
    if (plen > len - *pos - MUPCI_MSG_HEADER_BYTES)
        return -1;
    *payload = plen ? at + MUPCI_MSG_HEADER_BYTES : NULL;
    *payload_len = plen;
    *pos += mupci_msg_wire_size(plen);
    if (*pos > len) /* padding missing at the end: tolerate only exact fit */
        return -1;
    return 1;
}
