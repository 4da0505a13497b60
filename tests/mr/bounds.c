/* SPDX-License-Identifier: MIT */
/*
 * bounds.c MODE -- `checks = bounds` (checked by tests/scripts/bounds.sh,
 * which runs it with MUPC_CHECKS=bounds).  Mode "ok" makes correct
 * accesses of every kind up to the last byte of every kind of object and
 * must pass; every other mode makes one bad access, on the line marked
 * LINE_<MODE>, which must stop the job naming that line, the object and
 * its extent.
 */
#include <mupc_upc.h>
#include <upc_nb.h>
#include <stdio.h>
#include <string.h>

#define N 4 /* cells per thread */

MUPC_SHARED_ARRAY(cells, long, N, 1, MUPC_PER_THREAD) /* shared [1] long cells[N*THREADS] */
MUPC_SHARED_ARRAY(ptrs, mupc_ptr_t, 1, 1, MUPC_PER_THREAD) /* a pointer-to-shared per thread */

/* A static object registered without a name: shared [] char anon[24]. */
static mupc_static_t anon = {NULL, 1, 0, 24, 0, {0, 0, 0}, 0};
__attribute__((constructor)) static void register_anon(void) { mupc_static_register(&anon); }

static int failed; /* mode "ok": a wrong result */
#define EXPECT(cond, what)                                                              \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            printf("bounds ok FAILED: thread %d: %s\n", MYTHREAD, what);                  \
            failed = 1;                                                                 \
        }                                                                               \
    } while (0)

static int peer(void) { return (MYTHREAD + 1) % THREADS; }

/* Every thread upc_allocs nbytes; returns thread `owner`'s block. */
static mupc_ptr_t shared_alloc(int owner, size_t nbytes)
{
    MUPC_PUT(pts, MUPC_ELEM(ptrs, MYTHREAD), upc_alloc(nbytes));
    upc_barrier();
    return MUPC_GET(pts, MUPC_ELEM(ptrs, owner));
}

/* Correct accesses, each reaching the last byte of its object. */
static void correct_accesses(void)
{
    long buf[8] = {0};
    mupc_ptr_t last = MUPC_ELEM(cells, N * THREADS - 1); /* thread THREADS-1 */
    MUPC_PUT(long, last, 7);
    MUPC_PUT_STRICT(long, MUPC_ELEM(cells, (size_t)N * THREADS - THREADS + MYTHREAD), 7);
    upc_barrier();
    EXPECT(MUPC_GET(long, last) == 7 && MUPC_GET_STRICT(long, last) == 7, "the last cell");
    /* thread t's N cells are contiguous: a memget of all of them */
    upc_memget(buf, MUPC_ELEM(cells, peer()), N * sizeof(long));
    upc_memget(buf, mupc_ptr_add(anon.base, 23, 1, 0), 1);
    mupc_ptr_t a = shared_alloc(peer(), 64);
    upc_memput(a, buf, 64);
    upc_memset(mupc_ptr_add(a, 56, 1, 0), 0, 8);
    MUPC_FETCH_ADD(long, mupc_ptr_add(a, 7, sizeof(long), 0), 1);
    (void)MUPC_GET(long, mupc_ptr_add(a, 7, sizeof(long), 0)); /* cached when remote */
    upc_handle_t h = upc_memget_nb(buf, a, 64);
    upc_sync(h);
    mupc_ptr_t g = upc_all_alloc(THREADS + 1, 16); /* thread 0 has 2 blocks, the others 1 */
    upc_memset(mupc_ptr_add(g, 31, 1, 0), 1, 1);   /* thread 0's last byte */
    upc_memcpy(mupc_ptr_add(g, THREADS, 16, 1), g, 16); /* thread 0, second block */
    upc_memput_nbi(mupc_ptr_add(g, THREADS - 1, 16, 1), buf, 16);
    upc_synci();
    upc_barrier();
    upc_all_free(g);
    /* a zero-byte request stays the null pointer, with no block behind it */
    mupc_heap_info_t before, after;
    mupc_heap_info(&before);
    EXPECT(mupc_ptr_is_null(upc_all_alloc(0, 8)), "upc_all_alloc(0, 8) is not null");
    mupc_heap_info(&after);
    EXPECT(after.symmetric_blocks == before.symmetric_blocks, "upc_all_alloc(0, 8) took a block");
    if (MYTHREAD == 0)
        printf("bounds ok: %d threads OK\n", THREADS);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    long buf[32] = {0};
    if (!strcmp(mode, "ok")) {
        correct_accesses();
        return failed;
    }
    if (!strcmp(mode, "static-past-end") && MYTHREAD == 0) {
        (void)MUPC_GET(long, MUPC_ELEM(cells, N * THREADS)); /* LINE_static-past-end */
    } else if (!strcmp(mode, "static-crossing") && MYTHREAD == 0) {
        upc_memput(MUPC_ELEM(cells, N * THREADS - 1), buf, 16); /* LINE_static-crossing */
    } else if (!strcmp(mode, "static-strict") && MYTHREAD == 0) {
        MUPC_PUT_STRICT(long, MUPC_ELEM(cells, N * THREADS + 1), 1); /* LINE_static-strict */
    } else if (!strcmp(mode, "unnamed-static") && MYTHREAD == 0) {
        (void)MUPC_GET(int, mupc_ptr_add(anon.base, 22, 1, 0)); /* LINE_unnamed-static */
    } else if (!strcmp(mode, "alloc-overflow")) {
        mupc_ptr_t a = shared_alloc(0, 64);
        (void)upc_alloc(64); /* the neighbour a 192-byte write would overwrite */
        if (MYTHREAD == THREADS - 1)
            upc_memput(a, buf, 192); /* LINE_alloc-overflow */
    } else if (!strcmp(mode, "alloc-past-end")) {
        mupc_ptr_t a = shared_alloc(0, 60);
        if (MYTHREAD == THREADS - 1)
            MUPC_PUT(long, mupc_ptr_add(a, 56, 1, 0), 1); /* LINE_alloc-past-end */
    } else if (!strcmp(mode, "global-alloc") && MYTHREAD == THREADS - 1) {
        mupc_ptr_t g = upc_global_alloc(THREADS + 1, 16); /* 1 block on the last thread */
        g = mupc_ptr_add(g, THREADS - 1, 16, 1);
        upc_memget(buf, g, 24); /* LINE_global-alloc */
    } else if (!strcmp(mode, "all-alloc")) {
        mupc_ptr_t g = upc_all_alloc(THREADS, 32);
        if (MYTHREAD == THREADS - 1)
            upc_memset(g, 0, 40); /* LINE_all-alloc */
    } else if (!strcmp(mode, "freed") && MYTHREAD == 0) {
        mupc_ptr_t a = upc_alloc(64);
        upc_free(a);
        (void)MUPC_GET(long, a); /* LINE_freed */
    } else if (!strcmp(mode, "atomic")) {
        mupc_ptr_t a = shared_alloc(0, 64);
        if (MYTHREAD == THREADS - 1)
            MUPC_FETCH_ADD(long, mupc_ptr_add(a, 8, sizeof(long), 0), 1); /* LINE_atomic */
    } else if (!strcmp(mode, "nbi") && MYTHREAD == 0) {
        upc_memget_nbi(buf, MUPC_ELEM(cells, THREADS - 1), (N + 1) * sizeof(long)); /* LINE_nbi */
    } else if (!strcmp(mode, "memcpy") && MYTHREAD == 0) {
        upc_memcpy(MUPC_ELEM(cells, 0), anon.base, 40); /* LINE_memcpy */
    }
    upc_barrier();
    return 0;
}
