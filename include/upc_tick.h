/* SPDX-License-Identifier: MIT */
/*
 * upc_tick.h -- UPC 1.3 high-resolution timer.  A tick is one nanosecond
 * of CLOCK_MONOTONIC: comparable between calls on the same thread, and
 * (on one machine) between threads.
 */
#ifndef MUPC_UPC_TICK_H
#define MUPC_UPC_TICK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t upc_tick_t;
#define UPC_TICK_MIN ((upc_tick_t)0)
#define UPC_TICK_MAX ((upc_tick_t)UINT64_MAX)

upc_tick_t upc_ticks_now(void);
uint64_t upc_ticks_to_ns(upc_tick_t ticks);

#ifdef __cplusplus
}
#endif

#endif
