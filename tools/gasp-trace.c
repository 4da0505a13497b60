/* SPDX-License-Identifier: MIT */
/*
 * gasp-trace -- a GASP tool that writes a Chrome trace-event JSON file,
 * one track per UPC thread, which Perfetto (ui.perfetto.dev) and
 * chrome://tracing open:
 *
 *   mupcc --profile --tool gasp-trace -o prog prog.c
 *   mupcrun -n 4 ./prog          (writes mupc-trace.json, or $GASP_TRACE_FILE)
 *
 * START/END pairs become "B"/"E" slices, atomic events (cache hits and
 * misses, user atomics) instant events; every slice carries its source
 * file:line and, where the event has one, its size in bytes.  Timestamps
 * are CLOCK_MONOTONIC microseconds (pupc_ticks_now), one clock for the
 * threads of a node; threads on different nodes are not aligned.
 *
 * Each thread streams its events to "<file>.<thread>.part" as it runs;
 * in the GASP_UPC_COLLECTIVE_EXIT START callback the threads close their
 * parts, meet at a barrier (a UPC upcall) and thread 0 joins the parts
 * into the file and deletes them, so the parts must be on a file system
 * thread 0 can read (the working directory usually is).  After
 * upc_global_exit the parts are left as they are, with a message.
 */
#include <gasp.h>
#include <gasp_upc.h>
#include <mupc.h>
#include <pupc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_USER_EVENTS = 256 };

struct _gasp_context_S {
    FILE *part;
    char path[4096]; /* the JSON file */
    int on;
    /* The written STARTs still open, innermost last.  An END is written
     * only when it matches the innermost one: an END whose START came
     * while measurement was off must not close another slice. */
    unsigned int open[256];
    int depth, lost_depth; /* lost_depth: STARTs beyond open[] */
    unsigned int next_user;
    const char *user_names[MAX_USER_EVENTS];
};
static struct _gasp_context_S trace = {.on = 1, .next_user = GASP_UPC_USEREVT_START};

static void part_name(char *buf, size_t size, const char *path, int thread)
{
    snprintf(buf, size, "%s.%d.part", path, thread);
}

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    (void)lang, (void)argc, (void)argv;
    const char *path = getenv("GASP_TRACE_FILE");
    snprintf(trace.path, sizeof trace.path, "%s", path && *path ? path : "mupc-trace.json");
    char part[4200];
    part_name(part, sizeof part, trace.path, mupc_mythread);
    trace.part = fopen(part, "w");
    if (!trace.part)
        fprintf(stderr, "gasp-trace: thread %d: cannot write %s; this thread is not traced\n",
                mupc_mythread, part);
    else
        setvbuf(trace.part, NULL, _IOFBF, 1 << 20);
    return &trace;
}

/* ---------------------------------------------------------------- */
/* Events, one JSON object per line, each after a comma (the joined  */
/* file opens with metadata, so every event follows an element)     */
/* ---------------------------------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

static void event_name(FILE *f, gasp_context_t c, unsigned int tag)
{
    const char *name = mupc_gasp_event_name(tag);
    if (name && strncmp(name, "GASP_", 5) == 0)
        name += 5;
    if (!name && tag - GASP_UPC_USEREVT_START < MAX_USER_EVENTS)
        name = c->user_names[tag - GASP_UPC_USEREVT_START];
    if (name)
        json_string(f, name);
    else
        fprintf(f, "\"user:%#x\"", tag);
}

static void write_event(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                        const char *file, int line, va_list ap)
{
    FILE *f = c->part;
    double us = (double)pupc_ticks_now() / 1e3;
    if (type == GASP_END) { /* "E" closes the innermost open slice of the track */
        fprintf(f, ",\n{\"ph\":\"E\",\"pid\":0,\"tid\":%d,\"ts\":%.3f}", mupc_mythread, us);
        return;
    }
    fprintf(f, ",\n{\"ph\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"name\":",
            type == GASP_START ? "B" : "i\",\"s\":\"t", mupc_mythread, us);
    event_name(f, c, tag);
    char where[4200];
    snprintf(where, sizeof where, "%s:%d", file ? file : "?", line);
    fputs(",\"args\":{\"at\":", f);
    json_string(f, where);
    size_t bytes = mupc_gasp_event_bytes(tag, ap);
    if (bytes)
        fprintf(f, ",\"bytes\":%zu", bytes);
    fputs("}}", f);
}

static void finish(gasp_context_t c, int collective);

/* Whether to write this event (see open[] above). */
static int slice_is_traced(gasp_context_t c, unsigned int tag, gasp_evttype_t type)
{
    if (type == GASP_ATOMIC)
        return c->on;
    if (type == GASP_START) {
        if (!c->on)
            return 0;
        if (c->depth == (int)(sizeof c->open / sizeof c->open[0]))
            c->lost_depth++;
        else
            c->open[c->depth++] = tag;
        return 1;
    }
    if (c->lost_depth > 0) {
        c->lost_depth--;
        return 1;
    }
    if (c->depth == 0 || c->open[c->depth - 1] != tag)
        return 0;
    c->depth--;
    return 1;
}

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    (void)col;
    if (tag == GASP_UPC_COLLECTIVE_EXIT || tag == GASP_UPC_NONCOLLECTIVE_EXIT) {
        if (type != GASP_END)
            finish(c, tag == GASP_UPC_COLLECTIVE_EXIT);
        return;
    }
    if (c->part && slice_is_traced(c, tag, type))
        write_event(c, tag, type, file, line, ap);
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
    (void)desc;
    unsigned int tag = c->next_user++;
    if (tag - GASP_UPC_USEREVT_START < MAX_USER_EVENTS && name)
        c->user_names[tag - GASP_UPC_USEREVT_START] = strdup(name);
    return tag;
}

/* ---------------------------------------------------------------- */
/* At exit: thread 0 joins the parts                                 */
/* ---------------------------------------------------------------- */

static int append_part(FILE *out, const char *path, int thread)
{
    char part[4200], buf[1 << 16];
    part_name(part, sizeof part, path, thread);
    FILE *in = fopen(part, "r");
    if (!in) {
        fprintf(stderr, "gasp-trace: cannot read %s (thread %d's events); is it on a file "
                        "system thread 0 can see?\n", part, thread);
        return -1;
    }
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    remove(part);
    return 0;
}

static void join_parts(const char *path)
{
    FILE *out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "gasp-trace: cannot write %s; the per-thread parts %s.<thread>.part "
                        "are left in place\n", path, path);
        return;
    }
    fprintf(out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n"
                 "{\"ph\":\"M\",\"pid\":0,\"name\":\"process_name\",\"args\":{\"name\":"
                 "\"UPC program (%d threads)\"}}", mupc_threads);
    for (int t = 0; t < mupc_threads; t++)
        fprintf(out, ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\","
                     "\"args\":{\"name\":\"UPC thread %d\"}}", t, t);
    int missing = 0;
    for (int t = 0; t < mupc_threads; t++)
        missing += append_part(out, path, t) != 0;
    fputs("\n]}\n", out);
    if (fclose(out) != 0)
        fprintf(stderr, "gasp-trace: error writing %s\n", path);
    else
        fprintf(stderr, "gasp-trace: wrote %s (%d of %d threads); open it in ui.perfetto.dev\n",
                path, mupc_threads - missing, mupc_threads);
}

static void finish(gasp_context_t c, int collective)
{
    if (c->part && fclose(c->part) != 0)
        fprintf(stderr, "gasp-trace: thread %d: error writing its part of %s\n", mupc_mythread,
                c->path);
    c->part = NULL;
    if (!collective) {
        fprintf(stderr, "gasp-trace: non-collective exit (upc_global_exit or exit): the trace "
                        "is not joined; thread %d's events are in %s.%d.part\n",
                mupc_mythread, c->path, mupc_mythread);
        return;
    }
    mupc_barrier(0, 0, __FILE__, __LINE__); /* every part is closed */
    if (mupc_mythread == 0)
        join_parts(c->path);
}
