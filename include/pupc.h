/* SPDX-License-Identifier: MIT */
/*
 * pupc.h -- what a UPC program uses to talk to a performance tool
 * (the GASP 1.4 specification §5.2-5.3) and a high-resolution timer.
 *
 * Without `mupcc --profile*` these calls do nothing (pupc_create_event
 * still returns distinct identifiers in the user range), so a program
 * never depends on a tool being present.
 */
#ifndef PUPC_H
#define PUPC_H

#include <gasp.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Measurement on/off at run time; returns the previous value set (nonzero
 * if never switched).  Switching off also stops the runtime's callbacks,
 * except the END of each START the tool already received (and the exit
 * events): the tool, told by gasp_control, decides what to measure. */
int pupc_control(int on);

/* A user event; `desc` is NULL or a printf-style format describing the
 * values later passed to pupc_event_start/end/atomic.  The identifier is
 * in GASP_UPC_USEREVT_START..GASP_UPC_USEREVT_END. */
unsigned int pupc_create_event(const char *name, const char *desc);
void pupc_event_start(unsigned int evtag, ...);
void pupc_event_end(unsigned int evtag, ...);
void pupc_event_atomic(unsigned int evtag, ...);

/* The same with the caller's source position, which the tool receives as
 * the event's file and line.  The macros below route the pupc_event_*
 * calls here (define MUPC_PUPC_NO_MACROS to call the functions, which
 * pass file NULL and line 0). */
void mupc_pupc_event_at(const char *file, int line, gasp_evttype_t type, unsigned int evtag, ...);
#ifndef MUPC_PUPC_NO_MACROS
#define pupc_event_start(...) mupc_pupc_event_at(__FILE__, __LINE__, GASP_START, __VA_ARGS__)
#define pupc_event_end(...) mupc_pupc_event_at(__FILE__, __LINE__, GASP_END, __VA_ARGS__)
#define pupc_event_atomic(...) mupc_pupc_event_at(__FILE__, __LINE__, GASP_ATOMIC, __VA_ARGS__)
#endif

/* High-resolution timer: ticks are nanoseconds of
 * CLOCK_MONOTONIC, comparable within one process. */
typedef uint64_t pupc_tick_t;
#define PUPC_TICK_MIN ((pupc_tick_t)0)
#define PUPC_TICK_MAX ((pupc_tick_t)UINT64_MAX)
pupc_tick_t pupc_ticks_now(void);
uint64_t pupc_ticks_to_us(pupc_tick_t ticks);
uint64_t pupc_ticks_to_ns(pupc_tick_t ticks);
double pupc_tick_granularityus(void); /* the clock's resolution */
double pupc_tick_overheadus(void);    /* cost of one pupc_ticks_now, measured */

#ifdef __cplusplus
}
#endif

#endif
