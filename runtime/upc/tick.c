/* SPDX-License-Identifier: MIT */
/*
 * tick.c -- upc_tick.h: ticks are CLOCK_MONOTONIC nanoseconds.
 */
#include <upc_tick.h>

#include <time.h>

upc_tick_t upc_ticks_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (upc_tick_t)ts.tv_sec * 1000000000u + (upc_tick_t)ts.tv_nsec;
}

uint64_t upc_ticks_to_ns(upc_tick_t ticks) { return ticks; }
