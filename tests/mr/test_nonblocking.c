/* SPDX-License-Identifier: MIT */
/*
 * test_nonblocking.c -- non-blocking get/put with handles: completion at
 * sync, sync_attempt eventually succeeding, many handles in flight, and
 * the local trivial handle.
 */
#include "check.h"

#include <string.h>

#define BYTES (1u << 20)
#define SMALL 64

MUPC_SHARED_ARRAY(data, char, BYTES, BYTES, MUPC_PER_THREAD)

int main(void)
{
    int to = (MYTHREAD + 1) % THREADS;
    char *mine = mupc_local_addr(MUPC_ELEM(data, (size_t)MYTHREAD * BYTES));
    for (size_t i = 0; i < BYTES; i++)
        mine[i] = (char)(MYTHREAD + i * 3);
    upc_barrier();

    /* a large get, completed with sync_attempt polling */
    char *buf = malloc(BYTES);
    mupc_handle_t h = MUPC_GET_NB(buf, MUPC_ELEM(data, (size_t)to * BYTES), BYTES);
    CHECK(THREADS == 1 || h != MUPC_HANDLE_TRIVIAL, "remote get has a real handle");
    long polls = 0;
    while (!MUPC_SYNC_ATTEMPT(h))
        polls++;
    for (size_t i = 0; i < BYTES; i++)
        CHECK(buf[i] == (char)(to + i * 3), "nb get byte %zu", i);

    /* many small gets in flight at once */
    char small[100][SMALL];
    mupc_handle_t hs[100];
    for (int k = 0; k < 100; k++)
        hs[k] = MUPC_GET_NB(small[k], MUPC_ELEM(data, (size_t)to * BYTES + k * 1000), SMALL);
    for (int k = 99; k >= 0; k--) {
        MUPC_SYNC(hs[k]);
        for (int i = 0; i < SMALL; i++)
            CHECK(small[k][i] == (char)(to + (k * 1000 + i) * 3), "small get %d byte %d", k, i);
    }
    upc_barrier();

    /* non-blocking puts: complete (applied at the target) at sync */
    memset(buf, 'x' + MYTHREAD % 3, BYTES);
    mupc_handle_t hp = MUPC_PUT_NB(MUPC_ELEM(data, (size_t)to * BYTES), buf, BYTES);
    mupc_handle_t hq = MUPC_PUT_NB(MUPC_ELEM(data, (size_t)to * BYTES + 10), "hello", 5);
    MUPC_SYNC(hq);
    MUPC_SYNC(hp);
    upc_barrier();
    int from = (MYTHREAD + THREADS - 1) % THREADS;
    CHECK(memcmp(mine + 10, "hello", 5) == 0, "small nb put landed");
    for (size_t i = 15; i < BYTES; i++)
        CHECK(mine[i] == (char)('x' + from % 3), "nb put byte %zu", i);
    /* local: trivially complete */
    mupc_handle_t hl = MUPC_GET_NB(buf, MUPC_ELEM(data, (size_t)MYTHREAD * BYTES), 10);
    CHECK(hl == MUPC_HANDLE_TRIVIAL && MUPC_SYNC_ATTEMPT(hl) == 1, "local handle");
    upc_barrier();
    free(buf);
    if (MYTHREAD == 0)
        printf("test_nonblocking: %d threads OK (%ld sync_attempt polls)\n", THREADS, polls);
    return 0;
}
