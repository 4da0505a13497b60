/* SPDX-License-Identifier: MIT */
/*
 * gasp-dump -- a GASP tool that prints one line per event per thread:
 *
 *   <µs since gasp_init> <thread> <event> <START|END|ATOMIC> <file>:<line> <arguments>
 *
 * e.g.  "    41.207 1 GASP_UPC_GET END test.c:12 relaxed n=8 src=(0,64)".
 * Pointers-to-shared print as (thread,offset).  Lines go to standard error,
 * or to the file $GASP_DUMP_FILE with ".<thread>" appended.  Build and link
 * it like any tool (doc/gasp.md):
 *
 *   mupcc --profile -o prog prog.c -lgasp-dump
 */
#include <gasp.h>
#include <gasp_upc.h>
#include <mupc.h>
#include <pupc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct _gasp_context_S {
    FILE *out;
    int thread;
    pupc_tick_t start;
    int on;
};
static struct _gasp_context_S dump;

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    (void)lang, (void)argc, (void)argv;
    dump.thread = mupc_mythread;
    dump.on = 1;
    const char *file = getenv("GASP_DUMP_FILE");
    if (file && *file) {
        char name[4096];
        snprintf(name, sizeof name, "%s.%d", file, dump.thread);
        dump.out = fopen(name, "w");
        if (!dump.out)
            fprintf(stderr, "gasp-dump: thread %d: cannot write %s; dumping to stderr\n",
                    dump.thread, name);
    }
    if (!dump.out) {
        /* Our own stream on standard error: line-buffered, each line leaves
         * in one write, so the threads' lines do not interleave mid-line. */
        int fd = dup(2);
        dump.out = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (!dump.out)
            dump.out = stderr;
    }
    setvbuf(dump.out, NULL, _IOLBF, 4096);
    dump.start = pupc_ticks_now();
    return &dump;
}

static void pts(FILE *f, const char *label, gasp_upc_PTS_t *p)
{
    const mupc_ptr_t *q = p;
    fprintf(f, " %s=(%u,%llu)", label, q->thread, (unsigned long long)q->addr);
}

/* The arguments the GASP 1.4 specification lists for this event, as gasp_upc.h documents. */
static void arguments(FILE *f, unsigned int tag, gasp_evttype_t type, va_list ap)
{
    int end = type == GASP_END;
    switch (tag) {
    case GASP_UPC_GET:
    case GASP_UPC_NB_GET_INIT: {
        int relaxed = va_arg(ap, int);
        (void)va_arg(ap, void *);
        gasp_upc_PTS_t *src = va_arg(ap, gasp_upc_PTS_t *);
        fprintf(f, " %s n=%zu", relaxed ? "relaxed" : "strict", va_arg(ap, size_t));
        pts(f, "src", src);
        if (tag == GASP_UPC_NB_GET_INIT && end)
            fprintf(f, " handle=%#llx", (unsigned long long)va_arg(ap, gasp_upc_nb_handle_t));
        break;
    }
    case GASP_UPC_PUT:
    case GASP_UPC_NB_PUT_INIT: {
        int relaxed = va_arg(ap, int);
        gasp_upc_PTS_t *dst = va_arg(ap, gasp_upc_PTS_t *);
        (void)va_arg(ap, void *);
        fprintf(f, " %s n=%zu", relaxed ? "relaxed" : "strict", va_arg(ap, size_t));
        pts(f, "dst", dst);
        if (tag == GASP_UPC_NB_PUT_INIT && end)
            fprintf(f, " handle=%#llx", (unsigned long long)va_arg(ap, gasp_upc_nb_handle_t));
        break;
    }
    case GASP_UPC_NB_SYNC:
        fprintf(f, " handle=%#llx", (unsigned long long)va_arg(ap, gasp_upc_nb_handle_t));
        break;
    case GASP_MUPC_NB_SYNC_ATTEMPT:
        fprintf(f, " handle=%#llx", (unsigned long long)va_arg(ap, gasp_upc_nb_handle_t));
        if (end)
            fprintf(f, " result=%d", va_arg(ap, int));
        break;
    case GASP_UPC_MEMGET:
        (void)va_arg(ap, void *);
        pts(f, "src", va_arg(ap, gasp_upc_PTS_t *));
        fprintf(f, " n=%zu", va_arg(ap, size_t));
        break;
    case GASP_UPC_MEMPUT:
    case GASP_UPC_MEMCPY:
        pts(f, "dst", va_arg(ap, gasp_upc_PTS_t *));
        (void)va_arg(ap, void *);
        fprintf(f, " n=%zu", va_arg(ap, size_t));
        break;
    case GASP_UPC_MEMSET: {
        gasp_upc_PTS_t *dst = va_arg(ap, gasp_upc_PTS_t *);
        int c = va_arg(ap, int);
        pts(f, "dst", dst);
        fprintf(f, " c=%d n=%zu", c, va_arg(ap, size_t));
        break;
    }
    case GASP_UPC_NOTIFY:
    case GASP_UPC_WAIT:
    case GASP_UPC_BARRIER: {
        int named = va_arg(ap, int);
        fprintf(f, " named=%d expr=%d", named, va_arg(ap, int));
        break;
    }
    case GASP_UPC_COLLECTIVE_EXIT:
    case GASP_UPC_NONCOLLECTIVE_EXIT:
        fprintf(f, " status=%d", va_arg(ap, int));
        break;
    case GASP_UPC_GLOBAL_ALLOC:
    case GASP_UPC_ALL_ALLOC: {
        size_t nblocks = va_arg(ap, size_t);
        fprintf(f, " nblocks=%zu nbytes=%zu", nblocks, va_arg(ap, size_t));
        if (end)
            pts(f, "ptr", va_arg(ap, gasp_upc_PTS_t *));
        break;
    }
    case GASP_UPC_ALLOC:
        fprintf(f, " nbytes=%zu", va_arg(ap, size_t));
        if (end)
            pts(f, "ptr", va_arg(ap, gasp_upc_PTS_t *));
        break;
    case GASP_UPC_FREE:
        pts(f, "ptr", va_arg(ap, gasp_upc_PTS_t *));
        break;
    case GASP_UPC_GLOBAL_LOCK_ALLOC:
    case GASP_UPC_ALL_LOCK_ALLOC:
        if (end)
            pts(f, "lock", va_arg(ap, gasp_upc_lock_t *));
        break;
    case GASP_UPC_LOCK_FREE:
    case GASP_UPC_LOCK:
    case GASP_UPC_UNLOCK:
    case GASP_UPC_LOCK_ATTEMPT:
        pts(f, "lock", va_arg(ap, gasp_upc_lock_t *));
        if (tag == GASP_UPC_LOCK_ATTEMPT && end)
            fprintf(f, " result=%d", va_arg(ap, int));
        break;
    case GASP_UPC_CACHE_MISS: {
        size_t n = va_arg(ap, size_t);
        fprintf(f, " n=%zu fetched=%zu", n, va_arg(ap, size_t));
        break;
    }
    case GASP_UPC_CACHE_HIT:
        fprintf(f, " n=%zu", va_arg(ap, size_t));
        break;
    case GASP_UPC_CACHE_INVALIDATE:
        fprintf(f, " dirty=%zu", va_arg(ap, size_t));
        break;
    case GASP_UPC_ALL_BROADCAST:
    case GASP_UPC_ALL_SCATTER:
    case GASP_UPC_ALL_GATHER:
    case GASP_UPC_ALL_GATHER_ALL:
    case GASP_UPC_ALL_EXCHANGE:
    case GASP_UPC_ALL_PERMUTE: {
        pts(f, "dst", va_arg(ap, gasp_upc_PTS_t *));
        pts(f, "src", va_arg(ap, gasp_upc_PTS_t *));
        if (tag == GASP_UPC_ALL_PERMUTE)
            (void)va_arg(ap, gasp_upc_PTS_t *);
        size_t n = va_arg(ap, size_t);
        fprintf(f, " nbytes=%zu flags=%#x", n, va_arg(ap, int));
        break;
    }
    case GASP_UPC_ALL_REDUCE:
    case GASP_UPC_ALL_PREFIX_REDUCE: {
        pts(f, "dst", va_arg(ap, gasp_upc_PTS_t *));
        pts(f, "src", va_arg(ap, gasp_upc_PTS_t *));
        int op = va_arg(ap, int);
        size_t nelems = va_arg(ap, size_t);
        fprintf(f, " op=%d nelems=%zu blk=%zu", op, nelems, va_arg(ap, size_t));
        break;
    }
    case GASP_C_FUNC:
        fprintf(f, " %s", va_arg(ap, const char *));
        break;
    case GASP_C_MALLOC:
        fprintf(f, " nbytes=%zu", va_arg(ap, size_t));
        if (end)
            fprintf(f, " ptr=%p", va_arg(ap, void *));
        break;
    case GASP_C_REALLOC: {
        void *old = va_arg(ap, void *);
        fprintf(f, " ptr=%p size=%zu", old, va_arg(ap, size_t));
        if (end)
            fprintf(f, " new=%p", va_arg(ap, void *));
        break;
    }
    case GASP_C_FREE:
        fprintf(f, " ptr=%p", va_arg(ap, void *));
        break;
    case GASP_MUPC_ATOMIC: {
        pts(f, "target", va_arg(ap, gasp_upc_PTS_t *));
        int op = va_arg(ap, int);
        int upc_type = va_arg(ap, int);
        fprintf(f, " op=%#x type=%d relaxed=%d", op, upc_type, va_arg(ap, int));
        break;
    }
    default: /* fences, forall, user events (their varargs are the program's) */
        break;
    }
}

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    (void)col;
    static const char *const types[] = {"START", "END", "ATOMIC"};
    const char *name = mupc_gasp_event_name(tag);
    char user[32];
    if (!name) {
        snprintf(user, sizeof user, "user:%#x", tag);
        name = user;
    }
    fprintf(c->out, "%10.3f %d %s %s %s:%d", (double)(pupc_ticks_now() - c->start) / 1e3,
            c->thread, name, types[type], file ? file : "?", line);
    arguments(c->out, tag, type, ap);
    fputc('\n', c->out);
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
    static unsigned int next = GASP_UPC_USEREVT_START;
    (void)c, (void)desc;
    fprintf(dump.out, "gasp-dump: thread %d: user event %#x is '%s'\n", dump.thread, next,
            name ? name : "?");
    return next++;
}
