/* SPDX-License-Identifier: MIT */
/*
 * coll_shm.c -- collective data pushed into the segments of the node's
 * other threads (see coll_shm.h for the protocol).
 */
#include "collectives/coll_shm.h"
#include "mupc.h"
#include "transport/engine.h"
#include "transport/node.h"
#include "base/wake.h"

#include <stdatomic.h>
#include <string.h>

/* In each thread's control block (node.h), written by the node's threads. */
typedef struct coll_slot {
    _Atomic uint32_t entered;  /* the owner's pushing calls so far */
    _Atomic uint32_t arrivals; /* pushes into the owner's segment so far */
    mupci_bell_t bell;         /* rung by the owner's entry and by each push */
} coll_slot_t;

_Static_assert(sizeof(coll_slot_t) <= 64, "the collective slot must fit its 64 bytes");

static uint32_t calls; /* this thread's pushing calls so far */

static coll_slot_t *slot_of(int thread)
{
    return (coll_slot_t *)((char *)mupci_node_ctl(thread) + MUPCI_NODE_CTL_COLL);
}

int mupci_coll_shm_peer(int thread)
{
    return thread != mupc_mythread && mupci_node_sharing && mupci_node_ctl(thread) != NULL;
}

uint32_t mupci_coll_shm_enter(void)
{
    coll_slot_t *mine = slot_of(mupc_mythread);
    /* release: this thread's earlier reads of its destination come before
     * any pusher's writes to it */
    atomic_store_explicit(&mine->entered, ++calls, memory_order_release);
    mupci_bell_ring(&mine->bell);
    return calls;
}

/* Counters wrap: compare by the signed distance. */
static int reached(_Atomic uint32_t *counter, uint32_t goal)
{
    return (int32_t)(atomic_load_explicit(counter, memory_order_acquire) - goal) >= 0;
}

typedef struct awaited {
    _Atomic uint32_t *counter;
    uint32_t goal;
} awaited_t;

static int awaited_reached(void *arg)
{
    awaited_t *a = arg;
    return reached(a->counter, a->goal);
}

/* Sleep on `slot`'s bell until *counter reaches goal; whoever moves the
 * counter rings that bell after. */
static void await_counter(coll_slot_t *slot, _Atomic uint32_t *counter, uint32_t goal)
{
    awaited_t a = {counter, goal};
    if (!awaited_reached(&a))
        mupci_engine_wait_sleep(awaited_reached, &a, &slot->bell.word, &slot->bell.sleepers, 0);
}

void mupci_coll_shm_push(int to, uint32_t call, uint64_t addr, const void *src, size_t n)
{
    coll_slot_t *target = slot_of(to);
    await_counter(target, &target->entered, call);
    memcpy(mupci_node_segment(to) + addr, src, n);
    atomic_fetch_add_explicit(&target->arrivals, 1, memory_order_release);
    mupci_bell_ring(&target->bell);
}

void mupci_coll_shm_await(uint32_t call, int pushers)
{
    coll_slot_t *mine = slot_of(mupc_mythread);
    await_counter(mine, &mine->arrivals, call * (uint32_t)pushers);
}
