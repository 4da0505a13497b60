/* SPDX-License-Identifier: MIT */
/*
 * check_msg.c -- batch packing and unpacking of protocol messages.
 */
#include "transport/msg.h"

#include "run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

START_TEST(round_trip_mixed_batch)
{
    char buf[1024];
    size_t used = 0;
    mupci_msg_t put = {MUPCI_MSG_PUT, 0, 0, 4096, 5};
    mupci_msg_t ack = {MUPCI_MSG_ACK_REQ, 0, 17, 0, 0};
    mupci_msg_t get = {MUPCI_MSG_GET_REQ, 0, 3, 128, 8};
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &put, "hello", 5), 0);
    ck_assert_uint_eq(used, MUPCI_MSG_HEADER_BYTES + 8); /* padded to 8 */
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &ack, NULL, 0), 0);
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &get, NULL, 0), 0);

    size_t pos = 0, plen;
    mupci_msg_t m;
    const void *payload;
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &m, &payload, &plen), 1);
    ck_assert_int_eq(m.type, MUPCI_MSG_PUT);
    ck_assert_uint_eq(m.offset, 4096);
    ck_assert_uint_eq(plen, 5);
    ck_assert_mem_eq(payload, "hello", 5);
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &m, &payload, &plen), 1);
    ck_assert_int_eq(m.type, MUPCI_MSG_ACK_REQ);
    ck_assert_uint_eq(m.op, 17);
    ck_assert_uint_eq(plen, 0);
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &m, &payload, &plen), 1);
    ck_assert_int_eq(m.type, MUPCI_MSG_GET_REQ);
    ck_assert_uint_eq(m.size, 8);
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &m, &payload, &plen), 0);
}
END_TEST

START_TEST(full_batch_refuses)
{
    char buf[64];
    size_t used = 0;
    mupci_msg_t put = {MUPCI_MSG_PUT, 0, 0, 64, 16};
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &put, "0123456789abcdef", 16), 0);
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &put, "0123456789abcdef", 16), -1);
    ck_assert_uint_eq(used, 40);
}
END_TEST

START_TEST(malformed_batches_are_detected)
{
    char buf[128];
    size_t used = 0, pos = 0, plen;
    mupci_msg_t m = {MUPCI_MSG_PUT, 0, 0, 64, 100}, out;
    const void *payload;
    memcpy(buf, &m, sizeof m); /* claims 100 bytes, batch has 24 */
    ck_assert_int_eq(mupci_msg_next(buf, sizeof m, &pos, &out, &payload, &plen), -1);
    m.type = 999;
    memcpy(buf, &m, sizeof m);
    pos = 0;
    ck_assert_int_eq(mupci_msg_next(buf, sizeof m, &pos, &out, &payload, &plen), -1);
    pos = 0;
    ck_assert_int_eq(mupci_msg_next(buf, 10, &pos, &out, &payload, &plen), -1); /* truncated */
    (void)used;
}
END_TEST

/* A masked put's payload is its mask words, then its data: size/64 words
 * more than `size`; a size that would overflow is malformed. */
START_TEST(masked_put_payload_carries_the_mask)
{
    uint64_t buf[64];
    unsigned char payload[128 + 2 * 8];
    memset(payload, 0xAB, sizeof payload);
    size_t used = 0, pos = 0, plen;
    mupci_msg_t m = {MUPCI_MSG_PUT_MASKED, 0, 0, 4096, 128}, out;
    const void *got;
    ck_assert_int_eq(mupci_msg_append(buf, sizeof buf, &used, &m, payload, sizeof payload), 0);
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &out, &got, &plen), 1);
    ck_assert_uint_eq(plen, sizeof payload);
    ck_assert_mem_eq(got, payload, sizeof payload);
    m.size = UINT64_MAX;
    memcpy(buf, &m, sizeof m);
    pos = 0;
    ck_assert_int_eq(mupci_msg_next(buf, used, &pos, &out, &got, &plen), -1);
}
END_TEST

START_TEST(every_type_has_a_name)
{
    for (unsigned t = 0; t < MUPCI_MSG_NTYPES; t++)
        ck_assert_str_ne(mupci_msg_type_name(t), "UNKNOWN");
    ck_assert_str_eq(mupci_msg_type_name(MUPCI_MSG_NTYPES), "UNKNOWN");
    ck_assert_str_eq(mupci_msg_type_name(MUPCI_MSG_GET_REQ), "GET_REQ");
    ck_assert_uint_eq(sizeof(mupci_msg_t) % 8, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("msg");
    TCase *tc = tcase_create("batches");
    tcase_add_test(tc, round_trip_mixed_batch);
    tcase_add_test(tc, full_batch_refuses);
    tcase_add_test(tc, malformed_batches_are_detected);
    tcase_add_test(tc, masked_put_payload_carries_the_mask);
    tcase_add_test(tc, every_type_has_a_name);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
