/* SPDX-License-Identifier: MIT */
/*
 * gasp-profile -- a GASP tool that sums, per event and per source line,
 * the number of calls, the bytes they moved and the time they took, over
 * every thread, and prints the tables at exit from thread 0:
 *
 *   mupcc --profile --tool gasp-profile -o prog prog.c
 *   mupcrun -n 4 ./prog            (tables on standard output, or in
 *                                   the file $GASP_PROFILE_FILE)
 *
 * Time is inclusive (a START..END interval includes the events nested in
 * it, e.g. a collective's barriers); atomic events (cache hits, misses)
 * count calls and bytes only.  While measurement is off (pupc_control(0))
 * nothing is counted.  The threads' tables reach thread 0 through
 * mupc_gasp_gather, a UPC upcall made in the GASP_UPC_COLLECTIVE_EXIT
 * START callback; after upc_global_exit only the exiting thread's own
 * table is printed, since the other threads are not there to send theirs.
 */
#include <gasp.h>
#include <gasp_upc.h>
#include <mupc.h>
#include <pupc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row: an event at a source line, summed. */
typedef struct {
    unsigned int tag;
    int line;
    const char *file;
    uint64_t calls, bytes;
    uint64_t timed, ns; /* completed START..END intervals, their total time */
} row_t;

/* The rows as they travel to thread 0 (file names by value). */
typedef struct {
    uint32_t tag;
    int32_t line;
    uint64_t calls, bytes, timed, ns;
    char file[112];
} wire_row_t;

/* Rows in a dense array (an index stays valid as it grows), found
 * through an open-addressing index of row numbers + 1 (0: empty). */
typedef struct {
    row_t *rows;
    size_t n, rows_cap;
    size_t *slots;
    size_t nslots; /* a power of two, at least twice n */
    int by_name;   /* files compared by name; else by pointer (fast: each
                    * call site passes the same __FILE__ literal) */
} table_t;

/* An open START: which row it belongs to and when it began. */
typedef struct {
    unsigned int tag;
    size_t row;
    pupc_tick_t start;
} open_t;

struct _gasp_context_S {
    table_t table;
    open_t open[128];
    int depth, lost_depth; /* lost_depth: STARTs beyond open[] */
    int on;
};
static struct _gasp_context_S profile = {.on = 1};

static void out_of_memory(void)
{
    fprintf(stderr, "gasp-profile: thread %d: out of memory for the profile table\n",
            mupc_mythread);
    abort();
}

/* ---------------------------------------------------------------- */
/* The table: (event, file, line) -> sums                            */
/* ---------------------------------------------------------------- */

static size_t hash(const table_t *t, unsigned int tag, const char *file, int line)
{
    size_t h = 1469598103934665603u ^ tag;
    if (t->by_name)
        for (const char *p = file; *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211u;
    else
        h = (h ^ (size_t)(uintptr_t)file) * 1099511628211u;
    return (h ^ (size_t)line) * 1099511628211u;
}

static int same_key(const table_t *t, const row_t *r, unsigned int tag, const char *file, int line)
{
    return r->tag == tag && r->line == line &&
           (r->file == file || (t->by_name && strcmp(r->file, file) == 0));
}

static void *grown(void *p, size_t count, size_t size)
{
    void *q = realloc(p, count * size);
    if (!q)
        out_of_memory();
    return q;
}

static void rehash(table_t *t)
{
    t->nslots = t->nslots ? 2 * t->nslots : 512;
    free(t->slots);
    t->slots = calloc(t->nslots, sizeof *t->slots);
    if (!t->slots)
        out_of_memory();
    for (size_t r = 0; r < t->n; r++) {
        size_t i = hash(t, t->rows[r].tag, t->rows[r].file, t->rows[r].line) & (t->nslots - 1);
        while (t->slots[i])
            i = (i + 1) & (t->nslots - 1);
        t->slots[i] = r + 1;
    }
}

/* The row number for this key, a new zeroed row if the key is new.  `file`
 * must outlive the table (a __FILE__ literal, or a string the merge owns). */
static size_t find_row(table_t *t, unsigned int tag, const char *file, int line)
{
    if (2 * (t->n + 1) > t->nslots)
        rehash(t);
    size_t i = hash(t, tag, file, line) & (t->nslots - 1);
    for (; t->slots[i]; i = (i + 1) & (t->nslots - 1))
        if (same_key(t, &t->rows[t->slots[i] - 1], tag, file, line))
            return t->slots[i] - 1;
    if (t->n == t->rows_cap) {
        t->rows_cap = t->rows_cap ? 2 * t->rows_cap : 256;
        t->rows = grown(t->rows, t->rows_cap, sizeof *t->rows);
    }
    t->rows[t->n] = (row_t){.tag = tag, .line = line, .file = file};
    t->slots[i] = t->n + 1;
    return t->n++;
}

static void free_table(table_t *t)
{
    free(t->rows);
    free(t->slots);
}

/* ---------------------------------------------------------------- */
/* Events                                                            */
/* ---------------------------------------------------------------- */

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    (void)lang, (void)argc, (void)argv;
    return &profile;
}

static void count_event(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                        const char *file, int line, va_list ap)
{
    if (type == GASP_END) {
        if (c->lost_depth > 0) {
            c->lost_depth--;
        } else if (c->depth > 0 && c->open[c->depth - 1].tag == tag) {
            open_t *o = &c->open[--c->depth];
            c->table.rows[o->row].timed++;
            c->table.rows[o->row].ns += pupc_ticks_now() - o->start;
        }
        return; /* otherwise its START came while measurement was off */
    }
    size_t row = find_row(&c->table, tag, file ? file : "?", line);
    c->table.rows[row].calls++;
    c->table.rows[row].bytes += mupc_gasp_event_bytes(tag, ap);
    if (type != GASP_START)
        return;
    if (c->depth == (int)(sizeof c->open / sizeof c->open[0])) {
        c->lost_depth++;
        return;
    }
    c->open[c->depth++] = (open_t){tag, row, pupc_ticks_now()};
}

static void report(gasp_context_t c, int collective);

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    (void)col;
    if (tag == GASP_UPC_COLLECTIVE_EXIT) {
        if (type == GASP_START)
            report(c, 1);
        return;
    }
    if (tag == GASP_UPC_NONCOLLECTIVE_EXIT) {
        report(c, 0);
        return;
    }
    /* The END of a START counted before gasp_control(0) still closes it. */
    if (c->on || type == GASP_END)
        count_event(c, tag, type, file, line, ap);
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
    (void)c, (void)name, (void)desc;
    return next++;
}

/* ---------------------------------------------------------------- */
/* At exit: gather, merge, print                                     */
/* ---------------------------------------------------------------- */

/* The tail of a path when it is too long for a wire row. */
static void copy_file_name(char *dst, size_t size, const char *file)
{
    size_t len = strlen(file);
    snprintf(dst, size, "%s", len < size ? file : file + len - (size - 1));
}

static wire_row_t *pack(const table_t *t)
{
    wire_row_t *w = calloc(t->n ? t->n : 1, sizeof *w), *p = w;
    if (!w)
        out_of_memory();
    for (size_t i = 0; i < t->n; i++) {
        const row_t *r = &t->rows[i];
        *p = (wire_row_t){r->tag, r->line, r->calls, r->bytes, r->timed, r->ns, ""};
        copy_file_name(p->file, sizeof p->file, r->file);
        p++;
    }
    return w;
}

/* Thread 0: every thread's wire rows summed into one table. */
static table_t merge(wire_row_t *all, size_t nrows)
{
    table_t sum = {.by_name = 1};
    for (size_t i = 0; i < nrows; i++) {
        size_t at = find_row(&sum, all[i].tag, all[i].file, all[i].line); /* may move rows */
        row_t *r = &sum.rows[at];
        r->calls += all[i].calls;
        r->bytes += all[i].bytes;
        r->timed += all[i].timed;
        r->ns += all[i].ns;
    }
    return sum;
}

static const char *event_name(unsigned int tag, char *buf, size_t size)
{
    const char *name = mupc_gasp_event_name(tag);
    if (name)
        return strncmp(name, "GASP_", 5) == 0 ? name + 5 : name;
    snprintf(buf, size, "user:%#x", tag);
    return buf;
}

static int by_time_then_calls(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    if (x->ns != y->ns)
        return x->ns < y->ns ? 1 : -1;
    if (x->calls != y->calls)
        return x->calls < y->calls ? 1 : -1;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* The rows of `t`, packed and sorted; `per_event` first sums the lines. */
static row_t *sorted_rows(const table_t *t, int per_event, size_t *n)
{
    table_t events = {.by_name = 1};
    const table_t *src = t;
    if (per_event) {
        for (size_t i = 0; i < t->n; i++) {
            const row_t *r = &t->rows[i];
            size_t at = find_row(&events, r->tag, "", 0); /* may move rows */
            row_t *e = &events.rows[at];
            e->calls += r->calls, e->bytes += r->bytes;
            e->timed += r->timed, e->ns += r->ns;
        }
        src = &events;
    }
    row_t *rows = grown(NULL, src->n ? src->n : 1, sizeof *rows);
    memcpy(rows, src->rows, src->n * sizeof *rows);
    *n = src->n;
    free_table(&events);
    qsort(rows, *n, sizeof *rows, by_time_then_calls);
    return rows;
}

static void print_row(FILE *f, const row_t *r, const char *where)
{
    char name[32], mean[32] = "-";
    if (r->timed)
        snprintf(mean, sizeof mean, "%.3f", (double)r->ns / 1e3 / (double)r->timed);
    fprintf(f, "%-24s %-*s %12llu %14llu %12.3f %12s\n", event_name(r->tag, name, sizeof name),
            *where ? 30 : 0, where, (unsigned long long)r->calls, (unsigned long long)r->bytes,
            (double)r->ns / 1e6, mean);
}

static void print_section(FILE *f, const table_t *t, int per_event)
{
    size_t n;
    row_t *rows = sorted_rows(t, per_event, &n);
    fprintf(f, "%-24s %-*s %12s %14s %12s %12s\n", "event", per_event ? 0 : 30,
            per_event ? "" : "file:line", "calls", "bytes", "total ms", "mean us");
    for (size_t i = 0; i < n; i++) {
        char where[64] = "";
        if (!per_event)
            snprintf(where, sizeof where, "%s:%d", rows[i].file, rows[i].line);
        print_row(f, &rows[i], where);
    }
    free(rows);
}

static void print_tables(const table_t *t, int threads, const char *note)
{
    const char *path = getenv("GASP_PROFILE_FILE");
    FILE *f = path && *path ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "gasp-profile: cannot write %s; printing to standard output\n", path);
        f = stdout;
    }
    fprintf(f, "gasp-profile: %d thread(s)%s; time is inclusive, summed over threads\n",
            threads, note);
    fprintf(f, "\n-- per event --\n");
    print_section(f, t, 1);
    fprintf(f, "\n-- per event and source line --\n");
    print_section(f, t, 0);
    if (f != stdout)
        fclose(f);
    else
        fflush(f);
}

static void report(gasp_context_t c, int collective)
{
    wire_row_t *mine = pack(&c->table);
    if (!collective) {
        table_t own = merge(mine, c->table.n);
        char note[96];
        snprintf(note, sizeof note, " (upc_global_exit: thread %d's events only)", mupc_mythread);
        print_tables(&own, 1, note);
        free_table(&own);
        free(mine);
        return;
    }
    size_t *sizes = grown(NULL, (size_t)mupc_threads, sizeof *sizes);
    wire_row_t *all = mupc_gasp_gather(mine, c->table.n * sizeof *mine, sizes);
    free(mine);
    if (mupc_mythread == 0) {
        size_t bytes = 0;
        for (int t = 0; t < mupc_threads; t++)
            bytes += sizes[t];
        table_t sum = merge(all, bytes / sizeof *all);
        print_tables(&sum, mupc_threads, "");
        free_table(&sum); /* before `all`, which holds its file names */
    }
    free(all);
    free(sizes);
}
