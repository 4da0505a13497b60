/* SPDX-License-Identifier: MIT */
/*
 * gasp.c -- GASP delivery ("GASP performance tool interface, version 1.4",
 * GASP 1.4 below): which events reach the tool, weak default tool
 * symbols, the pupc_* user API and the pupc timer.
 *
 * Whether a tool is active is decided at link time: `mupcc --profile*`
 * compiles a small stub (tools/mupc-profile-stub.sh) that defines
 * mupc_gasp_profile_level and mupc_gasp_profile_only.  Without it the
 * weak references below stay null, gasp_init is never called and every
 * MUPCI_GASP_EVENT costs one branch on mupci_gasp_on.
 */
#define _GNU_SOURCE
#define MUPC_PUPC_NO_MACROS
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "mupc.h"

#include <pthread.h>
#include <pupc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* From the mupcc stub: 1 = --profile (no local-affinity accesses),
 * 2 = --profile-local; with --profile-only, the NULL-terminated list of
 * the event names in the file (possibly none).  Without --profile-only
 * the stub defines no list, and every event is delivered. */
extern const int mupc_gasp_profile_level __attribute__((weak));
extern const char *const mupc_gasp_profile_only[] __attribute__((weak));

int mupci_gasp_on;

static gasp_context_t context;
static int profile_level;     /* 0: no tool */
static int measuring = 1;     /* measurement on (pupc_control / gasp_control) */
static int last_on = 1;       /* the last value given to pupc_control */
static int in_callback;       /* a tool's upcall must not raise events */
static unsigned int next_user_event = GASP_UPC_USEREVT_START;
static pthread_t event_pthread; /* the computation pthread, which raises every event */

/* The STARTs delivered whose END has not been, innermost last: their ENDs
 * are delivered even after pupc_control(0) (GASP 1.4 §3.3 leaves not
 * measuring to the tool), so a tool never sees a START without its END. */
static unsigned int *open_tags;
static size_t open_depth, open_capacity;

/* System events are numbered 0x00100000 + small offsets, implementation
 * events 0x60000000 + small offsets (gasp_upc.h). */
#define EVENT_BASE 0x00100000u
#define EVENT_SLOTS 256u
#define IMPL_BASE 0x60000000u
#define IMPL_SLOTS 16u
static unsigned char event_enabled[EVENT_SLOTS + IMPL_SLOTS];

/* The filter slot of an event, or -1 for a tag libmupc never raises. */
static int event_slot(unsigned int evt)
{
    if (evt - EVENT_BASE < EVENT_SLOTS)
        return (int)(evt - EVENT_BASE);
    if (evt - IMPL_BASE < IMPL_SLOTS)
        return (int)(EVENT_SLOTS + evt - IMPL_BASE);
    return -1;
}

/* ---------------------------------------------------------------- */
/* Weak defaults: programs link and run with no tool.                */
/* ---------------------------------------------------------------- */

__attribute__((weak)) gasp_context_t gasp_init(gasp_lang_t srclanguage, int *argc, char ***argv)
{
    return NULL;
}

__attribute__((weak)) void gasp_event_notify(gasp_context_t c, unsigned int evttag,
                                             gasp_evttype_t evttype, const char *filename,
                                             int linenum, int colnum, ...)
{
}

__attribute__((weak)) void gasp_event_notifyVA(gasp_context_t c, unsigned int evttag,
                                               gasp_evttype_t evttype, const char *filename,
                                               int linenum, int colnum, va_list varargs)
{
}

/* The last value received, nonzero before the first call (GASP 1.4
 * §3.3). */
__attribute__((weak)) int gasp_control(gasp_context_t c, int on)
{
    static int last = 1;
    int previous = last;
    last = on;
    return previous;
}

__attribute__((weak)) unsigned int gasp_create_event(gasp_context_t c, const char *name,
                                                     const char *desc)
{
    return GASP_UPC_USEREVT_START;
}

/* ---------------------------------------------------------------- */
/* Event names and the --profile-only filter                         */
/* ---------------------------------------------------------------- */

static const struct {
    const char *name;
    unsigned int tag;
} event_names[] = {
#define MUPCI_EVENT_ROW(n) {#n, n},
    MUPC_GASP_UPC_EVENTS(MUPCI_EVENT_ROW)
#undef MUPCI_EVENT_ROW
};
#define NEVENTS (sizeof event_names / sizeof event_names[0])

const char *mupc_gasp_event_name(unsigned int evttag)
{
    for (size_t i = 0; i < NEVENTS; i++)
        if (event_names[i].tag == evttag)
            return event_names[i].name;
    return NULL;
}

static int lookup_event(const char *name, unsigned int *tag)
{
    for (size_t i = 0; i < NEVENTS; i++)
        if (strcmp(event_names[i].name, name) == 0) {
            *tag = event_names[i].tag;
            return 0;
        }
    return -1;
}

/* Every event (no list), or only the listed ones; names this runtime does
 * not raise are reported once (by thread 0) and ignored, as GASP 1.4
 * §3.1.2 allows.  A list that names none of them delivers no system event. */
static void build_filter(const char *const *only)
{
    memset(event_enabled, only == NULL, sizeof event_enabled);
    if (only == NULL)
        return;
    int enabled = 0;
    for (size_t i = 0; only[i] != NULL; i++) {
        unsigned int tag;
        if (lookup_event(only[i], &tag) == 0) {
            event_enabled[event_slot(tag)] = 1;
            enabled++;
        } else if (mupc_mythread == 0) {
            fprintf(stderr, "mupc: --profile-only: '%s' is not an event libmupc raises; "
                            "ignored (see gasp_upc.h for the list)\n", only[i]);
        }
    }
    if (enabled == 0 && mupc_mythread == 0)
        fprintf(stderr, "mupc: --profile-only: the list names no event libmupc raises; the "
                        "tool gets no system events (user events still reach it)\n");
}

static int event_wanted(unsigned int evt, int is_local)
{
    if (is_local && profile_level < 2)
        return 0;
    int slot = event_slot(evt);
    return slot >= 0 && event_enabled[slot];
}

/* ---------------------------------------------------------------- */
/* Measurement control and open events                               */
/* ---------------------------------------------------------------- */

/* The runtime raises events while measurement is on, and while a START
 * it delivered waits for its END. */
static void update_gasp_on(void)
{
    mupci_gasp_on = MUPCI_GASP && profile_level > 0 && (measuring || open_depth > 0);
}

static void open_push(unsigned int evt)
{
    if (open_depth == open_capacity) {
        size_t cap = open_capacity ? 2 * open_capacity : 16;
        unsigned int *grown = realloc(open_tags, cap * sizeof *grown);
        if (!grown)
            mupci_fatal_plain("out of memory for %zu open GASP events", cap);
        open_tags = grown;
        open_capacity = cap;
    }
    open_tags[open_depth++] = evt;
    update_gasp_on();
}

/* Closes the innermost open START of `evt`; 0 if none is open. */
static int open_pop(unsigned int evt)
{
    for (size_t i = open_depth; i-- > 0;)
        if (open_tags[i] == evt) {
            memmove(open_tags + i, open_tags + i + 1, (open_depth - i - 1) * sizeof *open_tags);
            open_depth--;
            update_gasp_on();
            return 1;
        }
    return 0;
}

/* Whether an event that passed the --profile-only filter reaches the tool:
 * with measurement on, everything but an END whose START was not delivered
 * (it came while measurement was off); with it off, only the ENDs of
 * delivered STARTs.  `always` (the exit events) ignores measurement. */
static int passes(unsigned int evt, gasp_evttype_t type, int always)
{
    if (type == GASP_END)
        return open_pop(evt);
    if (!measuring && !always)
        return 0;
    if (type == GASP_START)
        open_push(evt);
    return 1;
}

/* ---------------------------------------------------------------- */
/* Runtime side                                                      */
/* ---------------------------------------------------------------- */

int mupci_gasp_local_events(void)
{
    return MUPCI_GASP && &mupc_gasp_profile_level != NULL && mupc_gasp_profile_level >= 2;
}

int mupci_gasp_tool_linked(void)
{
    return MUPCI_GASP && &mupc_gasp_profile_level != NULL && mupc_gasp_profile_level >= 1;
}

void mupci_gasp_thread_init(int *argc, char ***argv)
{
    if (&mupc_gasp_profile_level == NULL || mupc_gasp_profile_level <= 0)
        return; /* not built with mupcc --profile*: no tool callbacks at all */
    profile_level = mupc_gasp_profile_level;
    build_filter(&mupc_gasp_profile_only == NULL ? NULL : mupc_gasp_profile_only);
    event_pthread = pthread_self();
    context = gasp_init(GASP_LANG_UPC, argc, argv);
    update_gasp_on();
}

static void deliver(unsigned int evt, gasp_evttype_t type, const char *file, int line, va_list ap)
{
    in_callback = 1;
    gasp_event_notifyVA(context, evt, type, file, line, 0, ap);
    in_callback = 0;
}

static void notify(unsigned int evt, gasp_evttype_t type, int is_local, int always,
                   const char *file, int line, va_list ap)
{
    if (in_callback || !event_wanted(evt, is_local) || !passes(evt, type, always))
        return;
    deliver(evt, type, file, line, ap);
}

void mupci_gasp_notify(unsigned int evt, gasp_evttype_t type, int is_local, const char *file,
                       int line, ...)
{
    va_list ap;
    va_start(ap, line);
    notify(evt, type, is_local, 0, file, line, ap);
    va_end(ap);
}

static void notify_always(unsigned int evt, gasp_evttype_t type, const char *file, int line, ...)
{
    va_list ap;
    va_start(ap, line);
    notify(evt, type, 0, 1, file, line, ap);
    va_end(ap);
}

/* The exit events tell a tool that the program ends, so that it can write
 * its results: they reach a linked tool even while measurement is off
 * (the GASP 1.4 specification §3.3 leaves not measuring to the tool, which gasp_control has
 * told).  --profile-only still filters them. */
void mupci_gasp_exit_event(unsigned int evt, gasp_evttype_t type, const char *file, int line,
                           int status)
{
    if (!MUPCI_GASP || profile_level == 0)
        return;
    notify_always(evt, type, file, line, status);
}

int mupci_gasp_upcall_begin(void)
{
    int was = in_callback;
    in_callback = 1;
    return was;
}

void mupci_gasp_upcall_end(int was) { in_callback = was; }

/* ---------------------------------------------------------------- */
/* pupc.h: measurement control and user events                       */
/* ---------------------------------------------------------------- */

/* The previous value set (GASP 1.4 §5.2: as gasp_control, which returns
 * the last value it received, nonzero before the first call). */
int pupc_control(int on)
{
    int previous = last_on;
    last_on = on;
    measuring = on != 0;
    if (profile_level > 0) {
        previous = gasp_control(context, on);
        update_gasp_on();
    }
    return previous;
}

unsigned int pupc_create_event(const char *name, const char *desc)
{
    if (profile_level > 0)
        return gasp_create_event(context, name, desc);
    /* No tool: still distinct identifiers in the user range. */
    return next_user_event < GASP_UPC_USEREVT_END ? next_user_event++ : GASP_UPC_USEREVT_END;
}

/* User events: not subject to --profile-only (they have no symbolic
 * names), paired like the system events. */
static void user_event(const char *file, int line, gasp_evttype_t type, unsigned int evtag,
                       va_list ap)
{
    if (!mupci_gasp_on || in_callback || !passes(evtag, type, 0))
        return;
    deliver(evtag, type, file, line, ap);
}

/* Called as functions (MUPC_PUPC_NO_MACROS, or `(pupc_event_start)(...)`),
 * they know no source position: NULL and 0 (GASP 1.4 §3.2). */
#define MUPCI_USER_EVENT_FN(fn, type)                                                  \
    void fn(unsigned int evtag, ...)                                                   \
    {                                                                                  \
        va_list ap;                                                                    \
        va_start(ap, evtag);                                                           \
        user_event(NULL, 0, type, evtag, ap);                                          \
        va_end(ap);                                                                    \
    }
MUPCI_USER_EVENT_FN(pupc_event_start, GASP_START)
MUPCI_USER_EVENT_FN(pupc_event_end, GASP_END)
MUPCI_USER_EVENT_FN(pupc_event_atomic, GASP_ATOMIC)

void mupc_pupc_event_at(const char *file, int line, gasp_evttype_t type, unsigned int evtag, ...)
{
    va_list ap;
    va_start(ap, evtag);
    user_event(file, line, type, evtag, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- */
/* Events only a compiler sees: the translator's entry points        */
/* ---------------------------------------------------------------- */

void mupc_forall_start(const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_FORALL, GASP_START, 0, file, line);
}

void mupc_forall_end(const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_FORALL, GASP_END, 0, file, line);
}

void mupc_func_start(const char *funcsig, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_C_FUNC, GASP_START, 0, file, line, funcsig);
}

void mupc_func_end(const char *funcsig, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_C_FUNC, GASP_END, 0, file, line, funcsig);
}

void *mupc_c_malloc(size_t nbytes, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_C_MALLOC, GASP_START, 0, file, line, nbytes);
    void *p = malloc(nbytes);
    MUPCI_GASP_EVENT(GASP_C_MALLOC, GASP_END, 0, file, line, nbytes, p);
    return p;
}

/* The END events pass the old pointer's value (the GASP 1.4 specification, Table 2), which
 * is not a use of the freed memory. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuse-after-free"
void *mupc_c_realloc(void *ptr, size_t size, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_C_REALLOC, GASP_START, 0, file, line, ptr, size);
    void *p = realloc(ptr, size);
    MUPCI_GASP_EVENT(GASP_C_REALLOC, GASP_END, 0, file, line, ptr, size, p);
    return p;
}

void mupc_c_free(void *ptr, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_C_FREE, GASP_START, 0, file, line, ptr);
    free(ptr);
    MUPCI_GASP_EVENT(GASP_C_FREE, GASP_END, 0, file, line, ptr);
}
#pragma GCC diagnostic pop

/* ---------------------------------------------------------------- */
/* pupc timer (the UPC Performance Tool Interface report)           */
/* ---------------------------------------------------------------- */

pupc_tick_t pupc_ticks_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (pupc_tick_t)ts.tv_sec * 1000000000u + (pupc_tick_t)ts.tv_nsec;
}

uint64_t pupc_ticks_to_ns(pupc_tick_t ticks) { return ticks; }
uint64_t pupc_ticks_to_us(pupc_tick_t ticks) { return ticks / 1000u; }

double pupc_tick_granularityus(void)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    return (double)res.tv_sec * 1e6 + (double)res.tv_nsec / 1e3;
}

double pupc_tick_overheadus(void)
{
    enum { N = 1000 };
    pupc_tick_t start = pupc_ticks_now();
    for (int i = 0; i < N; i++)
        (void)pupc_ticks_now();
    return (double)(pupc_ticks_now() - start) / 1e3 / N;
}
