/* SPDX-License-Identifier: MIT */
/*
 * trend_collect.c -- the collection half of mupc-trend (ti-trend-prof): a GASP
 * tool that counts, per source location and operation, the remote
 * communication events and their bytes, sums them over all threads and
 * has thread 0 write one profile file per run.  Installed as the object
 * mupc-trend.o:
 *
 *   mupcc --profile --tool mupc-trend -o prog prog.c
 *   MUPC_TREND_FEATURE=size=1000 mupcrun -n 4 ./prog 1000
 *       -> mupc-trend-prog-4t-size=1000.prof  (or $MUPC_TREND_FILE;
 *          in $MUPC_TREND_DIR if set)
 *
 * What counts: every shared access the program makes to another thread's
 * data (with --profile, accesses to local data raise no events), whether
 * or not the remote reference cache then serves it, since the cache does
 * not change what the program asks for; upc_mem*, locks, barriers,
 * collectives, atomics and shared allocations.  The file format is
 * described in trend_profile.h.
 */
#include <gasp.h>
#include <gasp_upc.h>
#include <mupc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trend_ops.h"

/* One site: counts for an operation at a source line. */
typedef struct {
    const char *file;
    int line;
    int op;
    uint64_t count, bytes;
} site_t;

/* Sites as they travel to thread 0 (file names by value). */
typedef struct {
    int32_t line, op;
    uint64_t count, bytes;
    char file[120];
} wire_site_t;

struct _gasp_context_S {
    site_t *sites;
    size_t n, cap;
    int on;
    char program[256];
};
static struct _gasp_context_S trend = {.on = 1};

static void out_of_memory(void)
{
    fprintf(stderr, "mupc-trend: thread %d: out of memory for the profile\n", mupc_mythread);
    abort();
}

gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv)
{
    (void)lang;
    const char *name = argc && *argc > 0 && argv && (*argv)[0] ? (*argv)[0] : "program";
    const char *slash = strrchr(name, '/');
    snprintf(trend.program, sizeof trend.program, "%s", slash ? slash + 1 : name);
    return &trend;
}

/* The site for (file, line, op); a program has few communicating lines, so
 * a move-to-front linear search is enough and keeps hot sites first. */
static site_t *find_site(gasp_context_t c, const char *file, int line, int op)
{
    for (size_t i = 0; i < c->n; i++) {
        site_t *s = &c->sites[i];
        if (s->line == line && s->op == op && (s->file == file || strcmp(s->file, file) == 0)) {
            if (i > 0) {
                site_t hot = *s;
                c->sites[i] = c->sites[i - 1];
                c->sites[i - 1] = hot;
                return &c->sites[i - 1];
            }
            return s;
        }
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        site_t *more = realloc(c->sites, c->cap * sizeof *more);
        if (!more)
            out_of_memory();
        c->sites = more;
    }
    c->sites[c->n] = (site_t){file, line, op, 0, 0};
    return &c->sites[c->n++];
}

static void write_profile(gasp_context_t c);

void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t type,
                         const char *file, int line, int col, va_list ap)
{
    (void)col;
    if (tag == GASP_UPC_COLLECTIVE_EXIT && type == GASP_START) {
        write_profile(c);
        return;
    }
    if (!c->on || type == GASP_END)
        return; /* each operation counts once, at its start (or atomic event) */
    int op = mupc_trend_op_of_event(tag);
    if (op < 0)
        return;
    site_t *s = find_site(c, file ? file : "?", line, op);
    s->count++;
    s->bytes += mupc_gasp_event_bytes(tag, ap);
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
/* At exit: thread 0 sums the sites and writes the profile          */
/* ---------------------------------------------------------------- */

static wire_site_t *pack(gasp_context_t c)
{
    wire_site_t *w = calloc(c->n ? c->n : 1, sizeof *w);
    if (!w)
        out_of_memory();
    for (size_t i = 0; i < c->n; i++) {
        const site_t *s = &c->sites[i];
        size_t len = strlen(s->file);
        w[i] = (wire_site_t){s->line, s->op, s->count, s->bytes, ""};
        /* keep the tail of a long path: the file name matters most */
        snprintf(w[i].file, sizeof w[i].file, "%s",
                 len < sizeof w[i].file ? s->file : s->file + len - (sizeof w[i].file - 1));
    }
    return w;
}

/* Sums the gathered sites into `sum` (its file names point into `all`). */
static void merge(gasp_context_t sum, const wire_site_t *all, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        site_t *s = find_site(sum, all[i].file, all[i].line, all[i].op);
        s->count += all[i].count;
        s->bytes += all[i].bytes;
    }
}

static int by_location(const void *a, const void *b)
{
    const site_t *x = a, *y = b;
    int by_file = strcmp(x->file, y->file);
    if (by_file)
        return by_file;
    if (x->line != y->line)
        return x->line > y->line ? 1 : -1;
    return (x->op > y->op) - (x->op < y->op);
}

/* The file name: $MUPC_TREND_FILE, or one that names the configuration,
 * so that a rerun of the same configuration replaces its profile. */
static void profile_path(const char *program, char *buf, size_t size)
{
    const char *file = getenv("MUPC_TREND_FILE"), *dir = getenv("MUPC_TREND_DIR");
    const char *features = getenv("MUPC_TREND_FEATURE");
    char prefix[4096] = "";
    if (dir && *dir)
        snprintf(prefix, sizeof prefix, "%s/", dir);
    if (file && *file) {
        snprintf(buf, size, "%s%s", file[0] == '/' ? "" : prefix, file);
        return;
    }
    char tail[512] = "";
    if (features && *features) {
        snprintf(tail, sizeof tail, "-%s", features);
        for (char *p = tail; *p; p++)
            if (*p == ',' || *p == '/' || *p == ' ')
                *p = '-';
    }
    snprintf(buf, size, "%smupc-trend-%s-%dt%s.prof", prefix, program, mupc_threads, tail);
}

/* MUPC_TREND_FEATURE=name=value[,name=value...] -> "feature" records. */
static int write_features(FILE *f)
{
    const char *spec = getenv("MUPC_TREND_FEATURE");
    if (!spec || !*spec)
        return 0;
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", spec);
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '='), *end = NULL;
        if (eq)
            strtod(eq + 1, &end);
        if (!eq || eq == item || !end || end == eq + 1 || *end) {
            fprintf(stderr, "mupc-trend: MUPC_TREND_FEATURE: '%s' is not name=number "
                            "(e.g. MUPC_TREND_FEATURE=size=1000,iters=10)\n", item);
            return -1;
        }
        *eq = '\0';
        fprintf(f, "feature\t%s\t%s\n", item, eq + 1);
    }
    return 0;
}

static void save(gasp_context_t sum, const char *program)
{
    char path[8192];
    profile_path(program, path, sizeof path);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "mupc-trend: cannot write the profile %s\n", path);
        return;
    }
    fprintf(f, "# mupc-trend profile: remote communication per source location, summed over "
               "threads\nversion\t%d\nprogram\t%s\nthreads\t%d\n",
            MUPC_TREND_FORMAT_VERSION, program, mupc_threads);
    int bad = write_features(f);
    qsort(sum->sites, sum->n, sizeof *sum->sites, by_location);
    for (size_t i = 0; i < sum->n; i++) {
        const site_t *s = &sum->sites[i];
        fprintf(f, "site\t%s\t%d\t%s\t%llu\t%llu\n", s->file, s->line, mupc_trend_op_name(s->op),
                (unsigned long long)s->count, (unsigned long long)s->bytes);
    }
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "mupc-trend: the profile %s is incomplete%s\n", path,
                bad ? " (bad MUPC_TREND_FEATURE)" : "");
        remove(path);
        return;
    }
    if (getenv("MUPC_TREND_QUIET") == NULL)
        fprintf(stderr, "mupc-trend: wrote %s\n", path);
}

static void write_profile(gasp_context_t c)
{
    wire_site_t *mine = pack(c);
    size_t *sizes = calloc((size_t)mupc_threads, sizeof *sizes);
    if (!sizes)
        out_of_memory();
    wire_site_t *all = mupc_gasp_gather(mine, c->n * sizeof *mine, sizes);
    free(mine);
    if (mupc_mythread == 0) {
        size_t bytes = 0;
        for (int t = 0; t < mupc_threads; t++)
            bytes += sizes[t];
        struct _gasp_context_S sum = {0};
        merge(&sum, all, bytes / sizeof *all);
        save(&sum, c->program);
        free(sum.sites);
    }
    free(all);
    free(sizes);
}
