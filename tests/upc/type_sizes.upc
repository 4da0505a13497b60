/* SPDX-License-Identifier: MIT */
/* type_sizes.upc -- sizeof and _Alignof of a type name equal those of an
 * object of that type (C11 §6.5.3.4), for every type name that involves
 * UPC: pointers-to-shared written out or through typedefs, upc_lock_t *
 * and upc_atomicdomain_t * (library §7.2.4, §7.4), arrays of and
 * structures with pointers-to-shared, shared types themselves (§6.4.2: a
 * THREADS dimension counts), in malloc/memset/qsort arguments, macros,
 * constant expressions and offsetof.  Before, sizeof(upc_lock_t *) was a
 * C pointer's 8 bytes and malloc(n * sizeof(upc_lock_t *)) overflowed. */
#include <upc.h>
#include <upc_atomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "type_sizes"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)
#define SAME(a, b) CHECK((a) == (b), #a " == " #b)

typedef shared int shared_int_t;
typedef shared int *int_pts_t;
typedef shared [4] double blocked_t;
typedef upc_lock_t *lock_handle_t;
struct with_pts { shared int *p; int x; shared [2] char *q; };
typedef struct with_pts with_pts_t;
typedef struct { upc_lock_t *lock; long count; } guarded_t;

shared float big[10 * THREADS];
shared int errs[THREADS];
shared int data[4 * THREADS];

/* a constant expression: file scope, array dimension, enumerator */
static const size_t lock_bytes = sizeof(upc_lock_t *);
static char room[sizeof(shared int *)];
enum { PTS_BYTES = sizeof(shared void *) };

#define HANDLES_BYTES(n) ((n) * sizeof(upc_lock_t *))

static int by_thread(const void *a, const void *b)
{
    size_t ta = upc_threadof(*(shared int *const *)a), tb = upc_threadof(*(shared int *const *)b);
    return ta < tb ? -1 : ta > tb;
}

int main(void)
{
    int errors = 0;
    upc_lock_t *lock;
    upc_atomicdomain_t *domain;
    shared int *p;
    int_pts_t tp;
    shared_int_t *sp;
    blocked_t *bp;
    lock_handle_t handle;
    struct with_pts w;
    guarded_t g;
    shared int *row[3];
    upc_lock_t *locks[5];
    (void)lock, (void)domain, (void)p, (void)tp, (void)sp, (void)bp, (void)handle, (void)row, (void)locks;

    SAME(sizeof(upc_lock_t *), sizeof lock);
    SAME(sizeof(upc_atomicdomain_t *), sizeof domain);
    SAME(sizeof(shared int *), sizeof p);
    SAME(sizeof(shared void *), sizeof p);
    SAME(sizeof(shared [] char *), sizeof p);
    SAME(sizeof(int_pts_t), sizeof tp);
    SAME(sizeof(shared_int_t *), sizeof sp);
    SAME(sizeof(blocked_t *), sizeof bp);
    SAME(sizeof(lock_handle_t), sizeof handle);
    SAME(sizeof(struct with_pts), sizeof w);
    SAME(sizeof(with_pts_t), sizeof w);
    SAME(sizeof(guarded_t), sizeof g);
    SAME(sizeof(shared int *[3]), sizeof row);
    SAME(sizeof(upc_lock_t *[5]), sizeof locks);
    SAME(sizeof(upc_lock_t **), sizeof(int *));
    SAME(sizeof(shared int **), sizeof(void *));
    SAME(sizeof(int (*)[4]), sizeof(void *));
    SAME(lock_bytes, sizeof lock);
    SAME(sizeof room, sizeof p);
    SAME((size_t)PTS_BYTES, sizeof p);
    SAME(_Alignof(upc_lock_t *), _Alignof(shared void *));
    SAME(__alignof__(shared int *), __alignof__(p));
    SAME(_Alignof(struct with_pts), __alignof__(w));
    SAME(offsetof(struct with_pts, x), (size_t)((char *)&w.x - (char *)&w));
    SAME(offsetof(struct with_pts, q), (size_t)((char *)&w.q - (char *)&w));
    SAME(offsetof(guarded_t, count), (size_t)((char *)&g.count - (char *)&g));
    /* UPC 1.3 §6.4.2: sizeof of a shared type is the size of its C type */
    SAME(sizeof(shared int), sizeof(int));
    SAME(sizeof(shared [4] double), sizeof(double));
    SAME(sizeof(shared float [10 * THREADS]), sizeof big);
    SAME(sizeof(shared float [10 * THREADS]), 10 * THREADS * sizeof(float));

    /* the use that corrupted the heap: an array of lock handles */
    upc_lock_t **all = malloc(HANDLES_BYTES(THREADS + 1));
    CHECK(all != NULL, "malloc of lock handles");
    for (int i = 0; i <= THREADS; i++)
        all[i] = upc_global_lock_alloc();
    memset(room, 0, sizeof room);
    for (int i = 0; i <= THREADS; i++) {
        upc_lock(all[i]);
        upc_unlock(all[i]);
        upc_lock_free(all[i]);
    }
    free(all);

    /* qsort of pointers-to-shared, sized by the type name */
    shared int **ptrs = calloc(4, sizeof(shared int *));
    for (int i = 0; i < 4; i++)
        ptrs[i] = &data[(3 - i) % THREADS];
    qsort(ptrs, 4, sizeof(shared int *), by_thread);
    for (int i = 1; i < 4; i++)
        CHECK(upc_threadof(ptrs[i - 1]) <= upc_threadof(ptrs[i]), "qsort by thread");
    shared int **copy = malloc(4 * sizeof(int_pts_t));
    memcpy(copy, ptrs, 4 * sizeof(int_pts_t));
    for (int i = 0; i < 4; i++)
        CHECK(copy[i] == ptrs[i], "memcpy of pointers-to-shared");
    free(copy);
    free(ptrs);

    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
