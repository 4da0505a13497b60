/* SPDX-License-Identifier: MIT */
/*
 * wake.c -- the futex calls behind wake.h.
 */
#include "base/wake.h"

#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void mupci_futex_wait(_Atomic uint32_t *word, uint32_t seen, int64_t timeout_ns)
{
    struct timespec ts = {timeout_ns / 1000000000, timeout_ns % 1000000000};
    /* EAGAIN (the word changed), EINTR and ETIMEDOUT all mean: look again */
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

void mupci_futex_wake_all(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
