/* SPDX-License-Identifier: MIT */
/*
 * gasp_hooks.h -- the runtime's single path to a GASP tool.
 *
 * Every API entry point reports its events through MUPCI_GASP_EVENT(); with no
 * tool, or with measurement switched off, the cost is one predictable
 * branch on mupci_gasp_on.  Events are only ever raised on the computation
 * pthread, with the caller's source file and line.
 */
#ifndef MUPCI_GASP_HOOKS_H
#define MUPCI_GASP_HOOKS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <gasp.h>
#include <gasp_upc.h>

#ifndef MUPCI_GASP
#define MUPCI_GASP 1
#endif

/* Nonzero while a tool is linked (program built with mupcc --profile*) and
 * measurement is on (gasp_control / pupc_control), or a START the tool
 * received still waits for its END (delivered whatever the measurement). */
extern int mupci_gasp_on;
/* A tool asked for events on data with local affinity (--profile-local). */
int mupci_gasp_local_events(void);
/* A tool is linked (--profile*): accesses to other threads raise events,
 * whether measurement is on now or not. */
int mupci_gasp_tool_linked(void);

/* On the computation pthread, after runtime start-up and before main:
 * decides from the profile level linked in by mupcc whether a tool is
 * active and, if so, calls gasp_init once for this thread. */
void mupci_gasp_thread_init(int *argc, char ***argv);

/* Deliver one event.  `is_local` marks accesses to data with local
 * affinity, which only --profile-local reports.  Varargs exactly as the
 * GASP 1.4 specification lists them for `evt`. */
void mupci_gasp_notify(unsigned int evt, gasp_evttype_t type, int is_local,
                       const char *file, int line, ...);

/* GASP_UPC_COLLECTIVE_EXIT / NONCOLLECTIVE_EXIT: delivered to a linked
 * tool even while measurement is off, so that it can write its results.
 * `file` is the user's position, or NULL (and `line` 0) if unknown.  An
 * exit() on the computation pthread before main returned raises
 * NONCOLLECTIVE_EXIT by itself (an exit handler registered after gasp_init). */
void mupci_gasp_exit_event(unsigned int evt, gasp_evttype_t type, const char *file, int line,
                           int status);

/* Around a runtime-made upcall (gasp_tools.c): events are not raised
 * until the matching end, which takes begin's return value. */
int mupci_gasp_upcall_begin(void);
void mupci_gasp_upcall_end(int was);

#if MUPCI_GASP
#define MUPCI_GASP_EVENT(evt, type, is_local, file, line, ...)                     \
    do {                                                                           \
        if (__builtin_expect(mupci_gasp_on, 0))                                    \
            mupci_gasp_notify((evt), (type), (is_local), (file), (line), ##__VA_ARGS__); \
    } while (0)
#else /* compiled out; the arguments still count as used, so no warnings */
#define MUPCI_GASP_EVENT(evt, type, is_local, file, line, ...)                     \
    do {                                                                           \
        if (0)                                                                     \
            mupci_gasp_notify((evt), (type), (is_local), (file), (line), ##__VA_ARGS__); \
    } while (0)
#endif

#endif
