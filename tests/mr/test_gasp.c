/* SPDX-License-Identifier: MIT */
/*
 * test_gasp.c -- the GASP events a tool receives, with their varargs
 * (the GASP 1.4 specification's tables), file and line, filtering and measurement control.
 *
 * The tool is defined in this file; the program is linked twice with the
 * stub `mupcc` would generate: test_gasp_local (--profile-local: every
 * event, local accesses too) and test_gasp_only (--profile with
 * --profile-only tests/mr/gasp_only.events: the listed events, no local
 * accesses).  Expectations follow from the stub's own settings (no
 * mupc_gasp_profile_only list: every event).
 */
#include "check.h"

#include <gasp.h>
#include <gasp_upc.h>
#include <pupc.h>
#include <upc_castable.h>
#include <stdarg.h>
#include <string.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

extern const int mupc_gasp_profile_level;
extern const char *const mupc_gasp_profile_only[] __attribute__((weak));

/* ---- the tool: records what it is told ---- */

typedef struct {
    unsigned int tag;
    gasp_evttype_t type;
    char file[512];  /* __FILE__ may be an absolute path (a separate build directory) */
    int no_file; /* file was NULL */
    int line;
    long long a[5]; /* decoded scalar varargs */
    mupc_ptr_t pts; /* the pointer-to-shared argument, if any */
    char text[32];  /* a string argument (GASP_C_FUNC) */
    long long bytes; /* mupc_gasp_event_bytes */
} record_t;

struct _gasp_context_S {
    int init_calls;
    int lang;
    int on;
    unsigned int next_user;
    int exit_start, exit_end;
    int n;
    record_t log[64];
    int cache_n;         /* cache events are kept apart, with their */
    record_t cache[16];  /* position in log (a[2]) */
    pthread_t pthread;   /* the pthread gasp_init ran on */
    int depth;           /* open START events, innermost last */
    unsigned int open[16];
    int wrong_context, wrong_pthread, bad_nesting;
    int exit_positions;     /* exit events with a position (the runtime has none to give) */
    int nhandles;           /* handles returned by NB_*_INIT ends, not yet synced */
    unsigned long long handles[64];
    int unknown_syncs;      /* NB_SYNC of a handle no INIT returned */
    unsigned int control_off_at; /* pupc_control(0) inside this event's START callback */
};
static struct _gasp_context_S tool = {.on = 1, .next_user = GASP_UPC_USEREVT_START + 100};
static int main_started, main_finished;
static int listed(unsigned int tag);

/* After main: the final barrier raised COLLECTIVE_EXIT start and end. */
static void check_exit_events(void)
{
    if (!main_finished)
        return; /* a failed CHECK ended the job: that failure is the report */
    int want = listed(GASP_UPC_COLLECTIVE_EXIT);
    if (tool.depth != 0 || tool.bad_nesting || tool.wrong_context || tool.wrong_pthread) {
        fprintf(stderr, "FAIL: thread %d: %d events left open, %d badly nested, %d with a "
                        "wrong context, %d off the computation pthread\n",
                MYTHREAD, tool.depth, tool.bad_nesting, tool.wrong_context, tool.wrong_pthread);
        _exit(1);
    }
    if (tool.exit_start != want || tool.exit_end != want) {
        fprintf(stderr, "FAIL: thread %d: COLLECTIVE_EXIT start %d end %d, want %d\n",
                MYTHREAD, tool.exit_start, tool.exit_end, want);
        _exit(1);
    }
    /* where main returned is unknown: NULL and 0, not the runtime's own file */
    if (tool.exit_positions != 0) {
        fprintf(stderr, "FAIL: thread %d: %d COLLECTIVE_EXIT events carry a position\n",
                MYTHREAD, tool.exit_positions);
        _exit(1);
    }
    if (tool.unknown_syncs != 0) {
        fprintf(stderr, "FAIL: thread %d: %d NB_SYNC events of handles no NB_*_INIT returned\n",
                MYTHREAD, tool.unknown_syncs);
        _exit(1);
    }
}

/* mupc_gasp_gather, as a tool uses it at exit: thread t sends 70000 x t + 5
 * bytes (several 64 KiB rounds, unequal, one thread with almost nothing),
 * byte i of thread t being (t + i) % 251. */
static void check_gather(void)
{
    size_t mine = 70000 * (size_t)MYTHREAD + 5, *sizes = calloc((size_t)THREADS, sizeof *sizes);
    unsigned char *buf = malloc(mine);
    CHECK(buf && sizes, "out of memory");
    for (size_t i = 0; i < mine; i++)
        buf[i] = (unsigned char)((MYTHREAD + i) % 251);
    int before = tool.n;
    unsigned char *all = mupc_gasp_gather(buf, mine, sizes);
    CHECK(tool.n == before, "mupc_gasp_gather raised %d events", tool.n - before);
    if (MYTHREAD != 0) {
        CHECK(all == NULL, "mupc_gasp_gather returned data on thread %d", MYTHREAD);
    } else {
        size_t at = 0;
        for (int t = 0; t < THREADS; t++) {
            CHECK(sizes[t] == 70000 * (size_t)t + 5, "gather: thread %d sent %zu bytes", t,
                  sizes[t]);
            for (size_t i = 0; i < sizes[t]; i++, at++)
                CHECK(all[at] == (t + i) % 251, "gather: byte %zu of thread %d is %d", i, t,
                      all[at]);
        }
    }
    free(all);
    free(buf);
    free(sizes);
}

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    tool.init_calls++;
    tool.lang = lang;
    tool.pthread = pthread_self();
    CHECK(!main_started, "gasp_init must come before main");
    atexit(check_exit_events);
    return &tool;
}

static void decode(record_t *r, va_list ap)
{
    switch (r->tag) {
    case GASP_UPC_GET:
    case GASP_UPC_NB_GET_INIT:
        r->a[0] = va_arg(ap, int);
        (void)va_arg(ap, void *);
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        r->a[1] = (long long)va_arg(ap, size_t);
        if (r->tag == GASP_UPC_NB_GET_INIT && r->type == GASP_END)
            r->a[2] = (long long)va_arg(ap, gasp_upc_nb_handle_t);
        break;
    case GASP_UPC_PUT:
    case GASP_UPC_NB_PUT_INIT:
        r->a[0] = va_arg(ap, int);
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        r->a[3] = va_arg(ap, void *) == NULL; /* src NULL: memset_nb, or a copy done at once */
        r->a[1] = (long long)va_arg(ap, size_t);
        if (r->tag == GASP_UPC_NB_PUT_INIT && r->type == GASP_END)
            r->a[2] = (long long)va_arg(ap, gasp_upc_nb_handle_t);
        break;
    case GASP_UPC_NB_SYNC:
        r->a[0] = (long long)va_arg(ap, gasp_upc_nb_handle_t);
        break;
    case GASP_MUPC_NB_SYNC_ATTEMPT:
        r->a[0] = (long long)va_arg(ap, gasp_upc_nb_handle_t);
        if (r->type == GASP_END)
            r->a[1] = va_arg(ap, int);
        break;
    case GASP_UPC_BARRIER:
    case GASP_UPC_NOTIFY:
    case GASP_UPC_WAIT:
        r->a[0] = va_arg(ap, int);
        r->a[1] = va_arg(ap, int);
        break;
    case GASP_UPC_MEMGET:
        (void)va_arg(ap, void *);
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        r->a[1] = (long long)va_arg(ap, size_t);
        break;
    case GASP_UPC_MEMPUT:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        (void)va_arg(ap, void *);
        r->a[1] = (long long)va_arg(ap, size_t);
        break;
    case GASP_UPC_MEMSET:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        r->a[0] = va_arg(ap, int);
        r->a[1] = (long long)va_arg(ap, size_t);
        break;
    case GASP_UPC_MEMCPY:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        (void)va_arg(ap, gasp_upc_PTS_t *);
        r->a[1] = (long long)va_arg(ap, size_t);
        break;
    case GASP_UPC_COLLECTIVE_EXIT:
        r->a[0] = va_arg(ap, int);
        break;
    case GASP_C_FUNC:
        snprintf(r->text, sizeof r->text, "%s", va_arg(ap, const char *));
        break;
    case GASP_C_MALLOC:
        r->a[0] = (long long)va_arg(ap, size_t);
        if (r->type == GASP_END)
            r->a[1] = (long long)(intptr_t)va_arg(ap, void *);
        break;
    case GASP_C_REALLOC:
        r->a[0] = (long long)(intptr_t)va_arg(ap, void *);
        r->a[1] = (long long)va_arg(ap, size_t);
        if (r->type == GASP_END)
            r->a[2] = (long long)(intptr_t)va_arg(ap, void *);
        break;
    case GASP_C_FREE:
        r->a[0] = (long long)(intptr_t)va_arg(ap, void *);
        break;
    case GASP_MUPC_ATOMIC:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        r->a[0] = va_arg(ap, int);
        r->a[1] = va_arg(ap, int);
        r->a[2] = va_arg(ap, int);
        break;
    case GASP_UPC_GLOBAL_ALLOC:
        r->a[0] = (long long)va_arg(ap, size_t);
        r->a[1] = (long long)va_arg(ap, size_t);
        if (r->type == GASP_END)
            r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        break;
    case GASP_UPC_FREE:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *);
        break;
    case GASP_UPC_GLOBAL_LOCK_ALLOC:
        if (r->type == GASP_END)
            r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_lock_t *);
        break;
    case GASP_UPC_LOCK:
    case GASP_UPC_UNLOCK:
    case GASP_UPC_LOCK_FREE:
    case GASP_UPC_LOCK_ATTEMPT:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_lock_t *);
        if (r->tag == GASP_UPC_LOCK_ATTEMPT && r->type == GASP_END)
            r->a[0] = va_arg(ap, int);
        break;
    case GASP_UPC_CACHE_MISS:
        r->a[0] = (long long)va_arg(ap, size_t);
        r->a[1] = (long long)va_arg(ap, size_t);
        break;
    case GASP_UPC_ALL_BROADCAST:
    case GASP_UPC_ALL_EXCHANGE:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *); /* dst */
        (void)va_arg(ap, gasp_upc_PTS_t *);
        r->a[0] = (long long)va_arg(ap, size_t);
        r->a[1] = va_arg(ap, int);
        break;
    case GASP_UPC_ALL_REDUCE:
        r->pts = *(mupc_ptr_t *)va_arg(ap, gasp_upc_PTS_t *); /* dst */
        (void)va_arg(ap, gasp_upc_PTS_t *);
        r->a[0] = va_arg(ap, int);
        r->a[1] = (long long)va_arg(ap, size_t);
        r->a[2] = (long long)va_arg(ap, size_t);
        (void)va_arg(ap, void *);
        r->a[3] = va_arg(ap, int);
        r->a[4] = (long long)va_arg(ap, gasp_upc_reduction_t);
        break;
    case GASP_UPC_CACHE_HIT:
    case GASP_UPC_CACHE_INVALIDATE:
        r->a[0] = (long long)va_arg(ap, size_t);
        break;
    default:
        if (r->tag >= GASP_UPC_USEREVT_START)
            r->a[0] = va_arg(ap, int);
    }
}

/* Every START is closed by an END of the same event on the same thread,
 * properly nested; ATOMIC events never open anything. */
static void track_nesting(struct _gasp_context_S *c, unsigned int tag, gasp_evttype_t type)
{
    if (type == GASP_START) {
        if (c->depth == (int)(sizeof c->open / sizeof c->open[0]))
            c->bad_nesting++;
        else
            c->open[c->depth++] = tag;
    } else if (type == GASP_END) {
        if (c->depth == 0 || c->open[c->depth - 1] != tag)
            c->bad_nesting++;
        else
            c->depth--;
    }
}

/* Every handle a SYNC names must have come from an INIT's end. */
static void track_handles(struct _gasp_context_S *c, unsigned int tag, gasp_evttype_t type,
                          va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    if ((tag == GASP_UPC_NB_GET_INIT || tag == GASP_UPC_NB_PUT_INIT) && type == GASP_END) {
        (void)va_arg(copy, int);
        (void)va_arg(copy, void *);
        (void)va_arg(copy, void *);
        (void)va_arg(copy, size_t);
        unsigned long long h = va_arg(copy, gasp_upc_nb_handle_t);
        if (h != GASP_NB_TRIVIAL && c->nhandles < (int)(sizeof c->handles / sizeof c->handles[0]))
            c->handles[c->nhandles++] = h;
    } else if (tag == GASP_UPC_NB_SYNC) {
        unsigned long long h = va_arg(copy, gasp_upc_nb_handle_t);
        int i = 0;
        while (i < c->nhandles && c->handles[i] != h)
            i++;
        if (i == c->nhandles)
            c->unknown_syncs += type == GASP_START;
        else if (type == GASP_END)
            c->handles[i] = c->handles[--c->nhandles];
    }
    va_end(copy);
}

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    c->wrong_context += c != &tool;
    c = &tool;
    c->wrong_pthread += !pthread_equal(pthread_self(), c->pthread);
    track_nesting(c, tag, type);
    if (listed(GASP_UPC_NB_GET_INIT) && listed(GASP_UPC_NB_PUT_INIT))
        track_handles(c, tag, type, ap);
    if (tag == c->control_off_at && type == GASP_START) {
        c->control_off_at = 0;
        pupc_control(0); /* an upcall: measurement off while this event is open */
    }
    if (tag == GASP_UPC_COLLECTIVE_EXIT) {
        c->exit_positions += file != NULL || line != 0;
        c->exit_start += type == GASP_START;
        c->exit_end += type == GASP_END;
        if (type == GASP_START)
            check_gather();
        return;
    }
    int cache_event = tag == GASP_UPC_CACHE_MISS || tag == GASP_UPC_CACHE_HIT ||
                      tag == GASP_UPC_CACHE_INVALIDATE;
    record_t *r;
    if (cache_event) {
        if (c->cache_n == (int)(sizeof c->cache / sizeof c->cache[0]))
            return;
        r = &c->cache[c->cache_n++];
    } else {
        if (c->n == (int)(sizeof c->log / sizeof c->log[0]))
            return;
        r = &c->log[c->n++];
    }
    memset(r, 0, sizeof *r);
    r->tag = tag;
    r->type = type;
    snprintf(r->file, sizeof r->file, "%s", file ? file : "(null)");
    r->no_file = file == NULL;
    r->line = line;
    r->bytes = (long long)mupc_gasp_event_bytes(tag, ap); /* must not consume ap */
    decode(r, ap);
    if (cache_event)
        r->a[2] = c->n; /* how many other events came before it */
}

void gasp_event_notify(gasp_context_t c, unsigned int tag, gasp_evttype_t type, const char *file,
                       int line, int col, ...)
{
    va_list ap;
    va_start(ap, col);
    gasp_event_notifyVA(c, tag, type, file, line, col, ap);
    va_end(ap);
}

int gasp_control(gasp_context_t c, int on)
{
    int previous = c->on;
    c->on = on;
    return previous;
}

unsigned int gasp_create_event(gasp_context_t c, const char *name, const char *desc)
{
    return c->next_user++;
}

/* ---- expectations ---- */

MUPC_SHARED_ARRAY(data, long, 64, 64, MUPC_PER_THREAD)

static int listed(unsigned int tag)
{
    if (&mupc_gasp_profile_only == NULL)
        return 1;
    for (int i = 0; mupc_gasp_profile_only[i]; i++)
        if (strcmp(mupc_gasp_profile_only[i], mupc_gasp_event_name(tag)) == 0)
            return 1;
    return 0;
}

static int reported(unsigned int tag, int local)
{
    return listed(tag) && (!local || mupc_gasp_profile_level >= 2);
}

/* The log holds exactly a START and an END of `tag` at test.upc:line, or
 * nothing if the event is filtered out; returns the END record. */
static record_t *expect_pair(unsigned int tag, int line, int want)
{
    const char *name = mupc_gasp_event_name(tag);
    if (!want) {
        CHECK(tool.n == 0, "%s is filtered out, yet %d events arrived (first %s)", name, tool.n,
              mupc_gasp_event_name(tool.log[0].tag));
        return NULL;
    }
    CHECK(tool.n == 2, "%s: %d events, want start and end", name, tool.n);
    for (int i = 0; i < 2; i++) {
        CHECK(tool.log[i].tag == tag, "event %d is %s, want %s", i,
              mupc_gasp_event_name(tool.log[i].tag), name);
        CHECK(tool.log[i].type == (i == 0 ? GASP_START : GASP_END), "%s: type %d", name,
              (int)tool.log[i].type);
        CHECK(strcmp(tool.log[i].file, "test.upc") == 0 && tool.log[i].line == line,
              "%s at %s:%d, want test.upc:%d", name, tool.log[i].file, tool.log[i].line, line);
    }
    return &tool.log[1];
}

static void accesses(int peer)
{
    int local = peer == MYTHREAD;
    mupc_ptr_t p = MUPC_ELEM(data, (size_t)peer * 64 + 3);

    tool.n = 0;
    (void)mupc_get_long(p, MUPC_RELAXED, "test.upc", 10);
    record_t *r = expect_pair(GASP_UPC_GET, 10, reported(GASP_UPC_GET, local));
    if (r) {
        CHECK_EQ_LL(r->a[0], 1); /* is_relaxed */
        CHECK_EQ_LL(r->a[1], sizeof(long));
        CHECK_EQ_LL(r->bytes, sizeof(long));
        CHECK(mupc_ptr_equal(r->pts, p), "GET src is not the pointer passed");
    }
    tool.n = 0;
    mupc_put_int(p, 5, MUPC_STRICT, "test.upc", 11);
    r = expect_pair(GASP_UPC_PUT, 11, reported(GASP_UPC_PUT, local));
    if (r) {
        CHECK_EQ_LL(r->a[0], 0); /* strict */
        CHECK_EQ_LL(r->a[1], sizeof(int));
        CHECK_EQ_LL(r->bytes, sizeof(int));
    }
    char buf[100];
    tool.n = 0;
    mupc_memget(buf, p, 100, "test.upc", 12);
    r = expect_pair(GASP_UPC_MEMGET, 12, reported(GASP_UPC_MEMGET, local));
    if (r) {
        CHECK_EQ_LL(r->a[1], 100);
        CHECK_EQ_LL(r->bytes, 100);
    }
    tool.n = 0;
    mupc_memset(p, 7, 33, "test.upc", 13);
    r = expect_pair(GASP_UPC_MEMSET, 13, reported(GASP_UPC_MEMSET, local));
    if (r) {
        CHECK_EQ_LL(r->a[0], 7);
        CHECK_EQ_LL(r->a[1], 33);
        CHECK_EQ_LL(r->bytes, 33);
    }
}

static void nonblocking(int peer)
{
    int local = peer == MYTHREAD;
    long v;
    tool.n = 0;
    mupc_handle_t h = mupc_get_nb(&v, MUPC_ELEM(data, (size_t)peer * 64), sizeof v, "test.upc", 20);
    record_t *r = expect_pair(GASP_UPC_NB_GET_INIT, 20, reported(GASP_UPC_NB_GET_INIT, local));
    if (r)
        CHECK_EQ_LL(r->a[2], h);
    tool.n = 0;
    mupc_sync(h, "test.upc", 21);
    /* GASP 1.4: a transfer completed at initiation gets GASP_NB_TRIVIAL
     * and no SYNC callbacks */
    int trivial = h == MUPC_HANDLE_TRIVIAL;
    CHECK(trivial == local, "handle %#llx for a %s get", (unsigned long long)h,
          local ? "local" : "remote");
    r = expect_pair(GASP_UPC_NB_SYNC, 21, !trivial && reported(GASP_UPC_NB_SYNC, 0));
    if (r)
        CHECK_EQ_LL(r->a[0], h);

    /* upc_memset_nb is a non-blocking put (NB_PUT_INIT, src NULL) whose end
     * returns the handle the SYNC names, never the blocking MEMSET */
    tool.n = 0;
    h = mupc_memset_nb(MUPC_ELEM(data, (size_t)peer * 64 + 20), 9, 40, "test.upc", 22);
    r = expect_pair(GASP_UPC_NB_PUT_INIT, 22, reported(GASP_UPC_NB_PUT_INIT, local));
    if (r) {
        CHECK(r->a[0] == 1 && r->a[1] == 40 && r->a[3] == 1,
              "memset_nb: relaxed %lld n %lld src NULL %lld", r->a[0], r->a[1], r->a[3]);
        CHECK_EQ_LL(r->a[2], h);
        CHECK_EQ_LL(r->bytes, 40);
        CHECK(mupc_ptr_equal(r->pts, MUPC_ELEM(data, (size_t)peer * 64 + 20)), "memset_nb dst");
    }
    tool.n = 0;
    mupc_sync(h, "test.upc", 23);
    expect_pair(GASP_UPC_NB_SYNC, 23, h != MUPC_HANDLE_TRIVIAL && reported(GASP_UPC_NB_SYNC, 0));
    long got = 0;
    mupc_memget(&got, MUPC_ELEM(data, (size_t)peer * 64 + 21), sizeof got, "test.upc", 24);
    CHECK(got == 0x0909090909090909L, "memset_nb wrote %#lx", (unsigned long)got);

    /* upc_memcpy_nb: a get into the local side, a put from it, or (both
     * sides on one side) a put done at once; never the blocking MEMCPY */
    int from = (peer + 1) % THREADS, to_me = peer == MYTHREAD && from != MYTHREAD;
    tool.n = 0;
    h = mupc_memcpy_nb(MUPC_ELEM(data, (size_t)peer * 64 + 24),
                       MUPC_ELEM(data, (size_t)from * 64 + 28), 16, "test.upc", 25);
    unsigned int init = to_me ? GASP_UPC_NB_GET_INIT : GASP_UPC_NB_PUT_INIT;
    int both_local = peer == MYTHREAD && from == MYTHREAD;
    r = expect_pair(init, 25, reported(init, both_local));
    if (r) {
        CHECK_EQ_LL(r->a[1], 16);
        CHECK_EQ_LL(r->a[2], h);
    }
    tool.n = 0;
    mupc_sync(h, "test.upc", 26);
    expect_pair(GASP_UPC_NB_SYNC, 26, h != MUPC_HANDLE_TRIVIAL && reported(GASP_UPC_NB_SYNC, 0));
}

/* The _nbi calls: each raises its INIT, and upc_synci syncs exactly the
 * handles those INITs returned (checked by track_handles as they come). */
static void implicit_handles(int peer)
{
    long buf[4] = {1, 2, 3, 4};
    mupc_ptr_t p = MUPC_ELEM(data, (size_t)peer * 64 + 32);
    tool.n = 0;
    mupc_memset_nbi(p, 0, 32, "test.upc", 90);
    mupc_memput_nbi(MUPC_ELEM(data, (size_t)peer * 64 + 36), buf, sizeof buf, "test.upc", 91);
    mupc_memget_nbi(buf, p, sizeof buf, "test.upc", 92);
    mupc_memcpy_nbi(MUPC_ELEM(data, (size_t)MYTHREAD * 64 + 40), p, 16, "test.upc", 93);
    int inits = reported(GASP_UPC_NB_PUT_INIT, peer == MYTHREAD) ? 2 * 4 : 0;
    CHECK(tool.n == inits, "4 _nbi calls raised %d events, want %d", tool.n, inits);
    for (int i = 0; i < tool.n; i++)
        CHECK(tool.log[i].tag == GASP_UPC_NB_PUT_INIT || tool.log[i].tag == GASP_UPC_NB_GET_INIT,
              "_nbi event %d is %s", i, mupc_gasp_event_name(tool.log[i].tag));
    mupc_synci("test.upc", 94);
    CHECK(tool.unknown_syncs == 0, "%d syncs of handles no INIT returned", tool.unknown_syncs);
}

/* A upc_sync_attempt that finds the transfer unfinished raises no NB_SYNC
 * (at its end a tool takes the transfer as retired); the one that completes
 * it does.  Every attempt is a GASP_MUPC_NB_SYNC_ATTEMPT with its result. */
static void check_attempt(mupc_handle_t h, int done)
{
    int syncs = 0, attempts = 0;
    for (int i = 0; i < tool.n; i++) {
        record_t *r = &tool.log[i];
        CHECK(r->line == 81, "%s at line %d during upc_sync_attempt",
              mupc_gasp_event_name(r->tag), r->line);
        if (r->tag == GASP_UPC_NB_SYNC) {
            syncs++;
            CHECK_EQ_LL(r->a[0], h);
        } else if (r->tag == GASP_MUPC_NB_SYNC_ATTEMPT) {
            attempts++;
            CHECK_EQ_LL(r->a[0], h);
            if (r->type == GASP_END)
                CHECK(r->a[1] == done, "attempt result %lld, upc_sync_attempt said %d", r->a[1],
                      done);
        }
    }
    CHECK(syncs == (done && reported(GASP_UPC_NB_SYNC, 0) ? 2 : 0),
          "upc_sync_attempt returned %d with %d NB_SYNC events", done, syncs);
    CHECK(attempts == (reported(GASP_MUPC_NB_SYNC_ATTEMPT, 0) ? 2 : 0),
          "%d GASP_MUPC_NB_SYNC_ATTEMPT events", attempts);
}

static void sync_attempts(void)
{
    enum { N = 256 * 1024 };
    mupc_ptr_t big = upc_all_alloc((size_t)THREADS, N);
    char *buf = malloc(N);
    CHECK(buf != NULL, "out of memory");
    int unfinished = 0;
    for (int round = 0; THREADS > 1 && round < 20 && unfinished == 0; round++) {
        mupc_ptr_t src = mupc_ptr_index(big, (size_t)(MYTHREAD + 1) % THREADS, N, 1);
        /* a put not yet fenced keeps the get on the message path (a round
         * trip the first attempt cannot see complete), not a direct copy */
        mupc_memput(src, &round, sizeof round, "test.upc", 79);
        mupc_handle_t h = mupc_get_nb(buf, src, N, "test.upc", 80);
        CHECK(h != MUPC_HANDLE_TRIVIAL, "a remote get completed at once");
        int done;
        do {
            tool.n = 0;
            done = mupc_sync_attempt(h, "test.upc", 81);
            check_attempt(h, done);
            unfinished += !done;
        } while (!done);
    }
    if (THREADS > 1 && unfinished == 0 && MYTHREAD == 0)
        fprintf(stderr, "note: every upc_sync_attempt found its transfer complete\n");
    free(buf);
    upc_barrier();
    upc_all_free(big);
}

/* pupc_control(0) inside an open event (here from the tool's START
 * callback, an upcall) still delivers that event's END. */
static void control_inside_events(void)
{
    int peer = (MYTHREAD + 1) % THREADS;
    tool.n = 0;
    tool.control_off_at = GASP_UPC_BARRIER;
    mupc_barrier(0, 0, "test.upc", 95);
    CHECK(tool.on == 0, "the tool switched measurement off");
    (void)mupc_get_long(MUPC_ELEM(data, (size_t)peer * 64), MUPC_RELAXED, "test.upc", 96);
    CHECK(pupc_control(1) == 0, "pupc_control(1) after pupc_control(0) returns 0");
    expect_pair(GASP_UPC_BARRIER, 95, reported(GASP_UPC_BARRIER, 0));
    tool.control_off_at = 0;
}

static void synchronization(void)
{
    tool.n = 0;
    mupc_barrier(1, 42, "test.upc", 30);
    record_t *r = expect_pair(GASP_UPC_BARRIER, 30, reported(GASP_UPC_BARRIER, 0));
    if (r) {
        CHECK_EQ_LL(r->a[0], 1);
        CHECK_EQ_LL(r->a[1], 42);
    }
    tool.n = 0;
    mupc_fence("test.upc", 31);
    expect_pair(GASP_UPC_FENCE, 31, reported(GASP_UPC_FENCE, 0));
}

/* The one cache event of the last access: `tag` at test.upc:line, between
 * the access's start and end (the GASP 1.4 specification §5.4.7); NULL if filtered out. */
static record_t *expect_cache_event(unsigned int tag, int line, int want)
{
    const char *name = mupc_gasp_event_name(tag);
    if (!want) {
        CHECK(tool.cache_n == 0, "%s is filtered out, yet %d cache events arrived", name,
              tool.cache_n);
        return NULL;
    }
    CHECK(tool.cache_n == 1, "%s: %d cache events, want 1", name, tool.cache_n);
    record_t *r = &tool.cache[0];
    CHECK(r->tag == tag, "cache event is %s, want %s", mupc_gasp_event_name(r->tag), name);
    CHECK(r->type == GASP_ATOMIC, "%s: type %d, want GASP_ATOMIC", name, (int)r->type);
    CHECK(strcmp(r->file, "test.upc") == 0 && r->line == line, "%s at %s:%d, want test.upc:%d",
          name, r->file, r->line, line);
    CHECK(r->a[2] == 1, "%s came after %lld events, want between start and end", name, r->a[2]);
    return r;
}

static void cache_events_from(int peer);

/* Relaxed remote accesses through the cache (the GASP 1.4 specification, Table 9). */
static void cache_events(void)
{
    mupc_cache_stats_t stats;
    /* a thread of this node (shm) is read without the cache: the layouts
     * with other nodes (run-mr.sh: shm = off, simulate_nodes = 2) test it */
    int peer = (MYTHREAD + 1) % THREADS;
    if (THREADS == 1 || !mupc_cache_stats(&stats))
        return;
    if (!upc_thread_info((size_t)peer).guaranteedCastable)
        cache_events_from(peer);
    upc_barrier(); /* nobody reads data while others still write it */
}

static void cache_events_from(int peer)
{
    mupc_ptr_t p = MUPC_ELEM(data, (size_t)peer * 64 + 5);
    mupc_fence("test.upc", 59); /* start with an empty cache */
    tool.n = tool.cache_n = 0;
    (void)mupc_get_long(p, MUPC_RELAXED, "test.upc", 60);
    expect_pair(GASP_UPC_GET, 60, reported(GASP_UPC_GET, 0));
    record_t *r = expect_cache_event(GASP_UPC_CACHE_MISS, 60, listed(GASP_UPC_CACHE_MISS));
    if (r) {
        CHECK_EQ_LL(r->a[0], sizeof(long));
        CHECK(r->a[1] >= 64, "CACHE_MISS brought %lld bytes, want a line", r->a[1]);
        CHECK_EQ_LL(r->bytes, r->a[1]);
    }
    tool.n = tool.cache_n = 0;
    (void)mupc_get_long(p, MUPC_RELAXED, "test.upc", 61);
    r = expect_cache_event(GASP_UPC_CACHE_HIT, 61, listed(GASP_UPC_CACHE_HIT));
    if (r)
        CHECK_EQ_LL(r->a[0], sizeof(long));
    tool.n = tool.cache_n = 0;
    mupc_put_short(p, 3, MUPC_RELAXED, "test.upc", 62);
    expect_pair(GASP_UPC_PUT, 62, reported(GASP_UPC_PUT, 0));
    r = expect_cache_event(GASP_UPC_CACHE_HIT, 62, listed(GASP_UPC_CACHE_HIT));
    if (r)
        CHECK_EQ_LL(r->a[0], sizeof(short));
    tool.n = tool.cache_n = 0;
    mupc_fence("test.upc", 63);
    expect_pair(GASP_UPC_FENCE, 63, reported(GASP_UPC_FENCE, 0));
    r = expect_cache_event(GASP_UPC_CACHE_INVALIDATE, 63, listed(GASP_UPC_CACHE_INVALIDATE));
    if (r)
        CHECK_EQ_LL(r->a[0], 1); /* one dirty line written back */
}

/* Table 10: start and end with the call's arguments. */
static void collectives(void)
{
    mupc_ptr_t a = upc_all_alloc((size_t)THREADS, 64), b = upc_all_alloc((size_t)THREADS, 64);
    upc_flag_t flags = UPC_IN_MYSYNC | UPC_OUT_ALLSYNC;
    tool.n = 0;
    mupc_all_broadcast(b, a, 16, flags, "test.upc", 70);
    record_t *r = expect_pair(GASP_UPC_ALL_BROADCAST, 70, listed(GASP_UPC_ALL_BROADCAST));
    if (r) {
        CHECK(mupc_ptr_equal(r->pts, b), "broadcast dst");
        CHECK_EQ_LL(r->a[0], 16);
        CHECK_EQ_LL(r->a[1], flags);
        CHECK_EQ_LL(r->bytes, 16);
    }
    tool.n = 0;
    mupc_all_exchange(b, a, 4, 0, "test.upc", 71);
    r = expect_pair(GASP_UPC_ALL_EXCHANGE, 71, listed(GASP_UPC_ALL_EXCHANGE));
    if (r)
        CHECK_EQ_LL(r->a[0], 4);
    tool.n = 0;
    mupc_all_reduceD(b, a, UPC_MAX, 3, 2, NULL, UPC_OUT_NOSYNC, "test.upc", 72);
    r = expect_pair(GASP_UPC_ALL_REDUCE, 72, listed(GASP_UPC_ALL_REDUCE));
    if (r) {
        CHECK(mupc_ptr_equal(r->pts, b), "reduce dst");
        CHECK(r->a[0] == UPC_MAX && r->a[1] == 3 && r->a[2] == 2 && r->a[3] == UPC_OUT_NOSYNC,
              "reduce varargs %lld %lld %lld %lld", r->a[0], r->a[1], r->a[2], r->a[3]);
        CHECK_EQ_LL(r->a[4], GASP_UPC_REDUCTION_D);
        CHECK_EQ_LL(r->bytes, 3 * sizeof(double));
    }
    upc_barrier();
    upc_all_free(a);
    upc_all_free(b);
}

static void heap_and_locks(void)
{
    tool.n = 0;
    mupc_ptr_t p = mupc_global_alloc(3, 16, "test.upc", 50);
    record_t *r = expect_pair(GASP_UPC_GLOBAL_ALLOC, 50, reported(GASP_UPC_GLOBAL_ALLOC, 0));
    if (r) {
        CHECK_EQ_LL(r->a[0], 3);
        CHECK_EQ_LL(r->a[1], 16);
        CHECK_EQ_LL(r->bytes, 3 * 16);
        CHECK(mupc_ptr_equal(r->pts, p), "GLOBAL_ALLOC end carries the new pointer");
    }
    tool.n = 0;
    mupc_free(p, "test.upc", 51);
    r = expect_pair(GASP_UPC_FREE, 51, reported(GASP_UPC_FREE, 0));
    if (r)
        CHECK(mupc_ptr_equal(r->pts, p), "FREE carries the pointer");
    tool.n = 0;
    mupc_lock_t l = mupc_global_lock_alloc("test.upc", 52);
    r = expect_pair(GASP_UPC_GLOBAL_LOCK_ALLOC, 52, reported(GASP_UPC_GLOBAL_LOCK_ALLOC, 0));
    if (r)
        CHECK(mupc_ptr_equal(r->pts, l), "GLOBAL_LOCK_ALLOC end carries the lock");
    tool.n = 0;
    mupc_lock(l, "test.upc", 53);
    expect_pair(GASP_UPC_LOCK, 53, reported(GASP_UPC_LOCK, 0));
    tool.n = 0;
    mupc_unlock(l, "test.upc", 54);
    expect_pair(GASP_UPC_UNLOCK, 54, reported(GASP_UPC_UNLOCK, 0));
    tool.n = 0;
    int got = mupc_lock_attempt(l, "test.upc", 55);
    CHECK(got == 1, "lock_attempt on a free lock");
    r = expect_pair(GASP_UPC_LOCK_ATTEMPT, 55, reported(GASP_UPC_LOCK_ATTEMPT, 0));
    if (r)
        CHECK_EQ_LL(r->a[0], 1);
    mupc_unlock(l, "test.upc", 56);
    tool.n = 0;
    mupc_lock_free(l, "test.upc", 57);
    r = expect_pair(GASP_UPC_LOCK_FREE, 57, reported(GASP_UPC_LOCK_FREE, 0));
    if (r)
        CHECK(mupc_ptr_equal(r->pts, l), "LOCK_FREE carries the lock");
}

/* Events only a translator sees, and libmupc's own GASP_MUPC_ATOMIC. */
static void compiler_and_atomic_events(int peer)
{
    tool.n = 0;
    mupc_forall_start("test.upc", 60);
    mupc_forall_end("test.upc", 60);
    expect_pair(GASP_UPC_FORALL, 60, reported(GASP_UPC_FORALL, 0));
    tool.n = 0;
    mupc_func_start("int f(int)", "test.upc", 61);
    mupc_func_end("int f(int)", "test.upc", 61);
    record_t *r = expect_pair(GASP_C_FUNC, 61, reported(GASP_C_FUNC, 0));
    if (r)
        CHECK(strcmp(r->text, "int f(int)") == 0, "C_FUNC funcsig '%s'", r->text);
    tool.n = 0;
    void *p = mupc_c_malloc(100, "test.upc", 62);
    r = expect_pair(GASP_C_MALLOC, 62, reported(GASP_C_MALLOC, 0));
    if (r) {
        CHECK_EQ_LL(tool.log[0].a[0], 100);
        CHECK_EQ_LL(r->a[0], 100);
        CHECK(r->a[1] == (long long)(intptr_t)p, "C_MALLOC end carries the new block");
    }
    tool.n = 0;
    void *q = mupc_c_realloc(p, 200, "test.upc", 63);
    r = expect_pair(GASP_C_REALLOC, 63, reported(GASP_C_REALLOC, 0));
    if (r)
        CHECK(r->a[0] == (long long)(intptr_t)p && r->a[1] == 200 &&
                  r->a[2] == (long long)(intptr_t)q,
              "C_REALLOC end: old pointer, size, new pointer");
    tool.n = 0;
    long long freed = (long long)(intptr_t)q;
    mupc_c_free(q, "test.upc", 64);
    r = expect_pair(GASP_C_FREE, 64, reported(GASP_C_FREE, 0));
    if (r)
        CHECK(r->a[0] == freed, "C_FREE carries the pointer");
    tool.n = 0;
    mupc_ptr_t target = MUPC_ELEM(data, (size_t)peer * 64 + 5);
    (void)mupc_fetch_add_long(target, 1, "test.upc", 65);
    r = expect_pair(GASP_MUPC_ATOMIC, 65, reported(GASP_MUPC_ATOMIC, 0));
    if (r) {
        CHECK(mupc_ptr_equal(r->pts, target), "MUPC_ATOMIC carries the target");
        CHECK(r->a[0] == UPC_ADD && r->a[1] == UPC_LONG && r->a[2] == 1,
              "MUPC_ATOMIC op %lld type %lld relaxed %lld", r->a[0], r->a[1], r->a[2]);
    }
    upc_barrier();
}

static void control_and_user_events(void)
{
    int peer = (MYTHREAD + 1) % THREADS;
    CHECK(pupc_control(0) != 0, "pupc_control returns the previous (on) setting");
    CHECK(tool.on == 0, "pupc_control(0) reaches gasp_control");
    tool.n = 0;
    (void)mupc_get_long(MUPC_ELEM(data, (size_t)peer * 64), MUPC_RELAXED, "test.upc", 40);
    mupc_barrier(0, 0, "test.upc", 41);
    CHECK(tool.n == 0, "measurement off, yet %d events", tool.n);
    CHECK(pupc_control(1) == 0, "pupc_control returns the previous (off) setting");

    unsigned int ev = pupc_create_event("phase", "%d");
    CHECK(ev == GASP_UPC_USEREVT_START + 100, "user event id %#x comes from the tool", ev);
    tool.n = 0;
    pupc_event_start(ev, 5);
    pupc_event_end(ev, 6);
    CHECK(tool.n == 2, "user events: %d records", tool.n);
    CHECK(tool.log[0].tag == ev && tool.log[0].type == GASP_START && tool.log[0].a[0] == 5,
          "user event start");
    CHECK(strstr(tool.log[1].file, "test_gasp.c") != NULL && tool.log[1].line > 0,
          "user event carries the caller's position, got %s:%d", tool.log[1].file,
          tool.log[1].line);

    /* called as a function, no position: NULL and 0, not "" */
    tool.n = 0;
    (pupc_event_atomic)(ev, 7);
    CHECK(tool.n == 1 && tool.log[0].type == GASP_ATOMIC && tool.log[0].a[0] == 7,
          "pupc_event_atomic as a function: %d records", tool.n);
    CHECK(tool.log[0].no_file && tool.log[0].line == 0,
          "pupc_event_atomic as a function passes file '%s' line %d, want NULL and 0",
          tool.log[0].file, tool.log[0].line);

    /* pupc_control(0) inside open user events: the ENDs of the delivered
     * STARTs still come, properly nested; what started while off does not
     * end (its START never came) */
    unsigned int inner = pupc_create_event("inner", NULL), late = pupc_create_event("late", NULL);
    tool.n = 0;
    pupc_event_start(ev, 1);
    pupc_event_start(inner, 0);
    CHECK(pupc_control(0) != 0, "pupc_control(0) returns the previous (on) setting");
    pupc_event_start(late, 0);
    (void)mupc_get_long(MUPC_ELEM(data, (size_t)peer * 64), MUPC_RELAXED, "test.upc", 42);
    pupc_event_end(inner, 0);
    CHECK(pupc_control(1) == 0, "pupc_control(1) returns the previous (off) setting");
    pupc_event_end(late, 0);
    pupc_event_end(ev, 2);
    CHECK(tool.n == 4, "user events around pupc_control(0): %d records, want 4", tool.n);
    unsigned int want_tag[4] = {ev, inner, inner, ev};
    gasp_evttype_t want_type[4] = {GASP_START, GASP_START, GASP_END, GASP_END};
    for (int i = 0; i < 4; i++)
        CHECK(tool.log[i].tag == want_tag[i] && tool.log[i].type == want_type[i],
              "record %d: %#x type %d, want %#x type %d", i, tool.log[i].tag,
              (int)tool.log[i].type, want_tag[i], (int)want_type[i]);
    CHECK(tool.depth == 0, "%d events left open", tool.depth);
}

int main(void)
{
    main_started = 1;
    CHECK(tool.init_calls == 1, "gasp_init called %d times", tool.init_calls);
    CHECK(tool.lang == GASP_LANG_UPC, "gasp_init language %d", tool.lang);
    for (int t = 0; t < THREADS; t++) {
        accesses(t);
        nonblocking(t);
        implicit_handles(t);
    }
    upc_barrier(); /* the nb tests write every thread's data */
    sync_attempts();
    control_inside_events();
    synchronization();
    cache_events();
    collectives();
    heap_and_locks();
    compiler_and_atomic_events((MYTHREAD + 1) % THREADS);
    control_and_user_events();
    CHECK(pupc_ticks_to_ns(pupc_ticks_now()) > 0 && pupc_tick_granularityus() > 0,
          "pupc timer");
    upc_barrier();
    /* The exit events still come with measurement off: a tool writes its
     * results then (check_exit_events). */
    CHECK(pupc_control(0) != 0, "pupc_control(0) before exit");
    main_finished = 1;
    return 0;
}
