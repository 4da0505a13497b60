/*
 * rendezvous.h -- collective library calls (upc_all_alloc, upc_all_free,
 * upc_all_lock_alloc, upc_all_lock_free, atomic domains) gathered at
 * thread 0.
 *
 * Every thread makes the same collective calls in the same order, so the
 * k-th call of each thread belongs together.  Thread 0 collects the k-th
 * arrival of every thread, checks that all passed the same call and
 * arguments (a mismatch stops the job naming both), runs the call's
 * action once, and answers every thread with its result.  So each of these
 * calls is also a synchronization point: no thread leaves before all have
 * entered.
 */
#ifndef MUPCI_RENDEZVOUS_H
#define MUPCI_RENDEZVOUS_H

#include "request.h"

#include <stdint.h>

typedef enum {
    MUPCI_RV_ALL_ALLOC,
    MUPCI_RV_ALL_FREE,
    MUPCI_RV_ALL_LOCK_ALLOC,
    MUPCI_RV_ALL_LOCK_FREE,
    MUPCI_RV_DOMAIN_ALLOC,
    MUPCI_RV_DOMAIN_FREE,
    MUPCI_RV_NKINDS
} mupci_rv_kind_t;

/* Runs on thread 0 with the progress lock held, once all threads have
 * arrived; must not wait.  NULL action: the reply is all zeros. */
typedef void (*mupci_rv_action_t)(const uint64_t args[2], mupci_reply_t *out);

void mupci_rv_init(int threads);
void mupci_rv_set_action(mupci_rv_kind_t kind, mupci_rv_action_t action);

/* Collective; `line` is the caller's, for the mismatch message. */
void mupci_rendezvous(mupci_rv_kind_t kind, const uint64_t args[2], int line,
                      mupci_reply_t *result);

#endif
