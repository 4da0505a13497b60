/* SPDX-License-Identifier: MIT */
/*
 * gasp_count_tool.c -- the cheapest useful GASP tool: it counts events by
 * identifier, for bench/gasp_count (gasp.overhead.count_pct).  With
 * GASP_COUNT_REPORT set, every thread prints its count of GASP_UPC_GET
 * starts at exit, so the benchmark can be seen to count.
 */
#include <gasp.h>
#include <gasp_upc.h>
#include <mupc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct _gasp_context_S {
    unsigned long long by_slot[512]; /* system and implementation events */
    unsigned long long other;
    int on;
};
static struct _gasp_context_S counts = {.on = 1};

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    (void)lang, (void)argc, (void)argv;
    return &counts;
}

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    (void)file, (void)line, (void)col, (void)ap;
    if (tag == GASP_UPC_COLLECTIVE_EXIT && type == GASP_START && getenv("GASP_COUNT_REPORT"))
        printf("gasp_count_tool: thread %d counted %llu gets\n", mupc_mythread,
               c->by_slot[(GASP_UPC_GET & 0xff) * 2]);
    if (!c->on)
        return;
    unsigned slot = (tag & 0xff) * 2 + (type == GASP_END);
    if ((tag >> 8) == (GASP_UPC_GET >> 8) && slot < 512)
        c->by_slot[slot]++;
    else
        c->other++;
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
    (void)c, (void)name, (void)desc;
    return GASP_UPC_USEREVT_START;
}
