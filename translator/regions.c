/* SPDX-License-Identifier: MIT */
/* regions.c -- line markers of the preprocessed text (see regions.h). */
#define _GNU_SOURCE /* realpath */
#include "regions.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

typedef struct marker {
    int line;
    char *file;
    int enter, leave, system;
    size_t start, end; /* of the marker line, newline included */
} marker_t;

/* Parse `# LINE "FILE" FLAGS\n` at p (the start of a line); 0 if it is not one. */
static int parse_marker(const char *text, size_t len, size_t p, marker_t *m)
{
    size_t i = p;
    if (i + 2 >= len || text[i] != '#' || text[i + 1] != ' ' || text[i + 2] < '0' ||
        text[i + 2] > '9')
        return 0;
    i += 2;
    m->line = 0;
    while (i < len && text[i] >= '0' && text[i] <= '9')
        m->line = m->line * 10 + (text[i++] - '0');
    if (i + 1 >= len || text[i] != ' ' || text[i + 1] != '"')
        return 0;
    i += 2;
    strbuf_t f;
    sb_init(&f);
    while (i < len && text[i] != '"') {
        if (text[i] == '\\' && i + 1 < len)
            i++;
        sb_add(&f, text + i, 1);
        i++;
    }
    m->file = sb_take(&f);
    m->enter = m->leave = m->system = 0;
    for (i++; i < len && text[i] != '\n'; i++) {
        m->enter |= text[i] == '1' && text[i - 1] == ' ';
        m->leave |= text[i] == '2' && text[i - 1] == ' ';
        m->system |= text[i] == '3' && text[i - 1] == ' ';
    }
    m->start = p;
    m->end = i < len ? i + 1 : i;
    return 1;
}

static const char *intern(regions_t *r, char *file)
{
    for (size_t i = 0; i < r->nfiles; i++)
        if (!strcmp(r->files[i], file)) {
            free(file);
            return r->files[i];
        }
    r->files = xrealloc(r->files, (r->nfiles + 1) * sizeof *r->files);
    return r->files[r->nfiles++] = file;
}

/* Whether path lies under directory dir (its real path, or NULL), as
 * written or once resolved: `--prelude translator/prelude` names the
 * files `./translator/prelude/...`. */
static int under(const char *path, const char *dir, const char *dir_real)
{
    if (!dir || !strncmp(path, dir, strlen(dir)))
        return dir != NULL;
    char *real = dir_real ? realpath(path, NULL) : NULL;
    int in = real && !strncmp(real, dir_real, strlen(dir_real)) && real[strlen(dir_real)] == '/';
    free(real);
    return in;
}

static region_kind_t kind_of(const marker_t *m, const char *prelude_dir, const char *prelude_real)
{
    if (m->file[0] == '<')
        return REGION_BUILTIN;
    if (!m->system && under(m->file, prelude_dir, prelude_real))
        return REGION_PRELUDE;
    if (m->system && prelude_dir && !strncmp(m->file, prelude_dir, strlen(prelude_dir)))
        return REGION_PRELUDE;
    return m->system ? REGION_SYSTEM : REGION_USER;
}

static void add_region(regions_t *r, region_t reg)
{
    r->v = xrealloc(r->v, (r->n + 1) * sizeof *r->v);
    r->v[r->n++] = reg;
}

void regions_build(regions_t *r, const char *text, size_t len, const char *prelude_dir)
{
    *r = (regions_t){0};
    char *prelude_real = prelude_dir ? realpath(prelude_dir, NULL) : NULL;
    /* The include stack: whether each level is translated user code. */
    int stack[256], depth = 0;
    region_t cur = {0, 0, 0, "", 1, REGION_BUILTIN, 0, 0, 0, 0};
    for (size_t p = 0; p < len;) {
        marker_t m;
        if (parse_marker(text, len, p, &m)) {
            cur.end = p;
            add_region(r, cur);
            region_kind_t kind = kind_of(&m, prelude_dir, prelude_real);
            int parent_translated = depth > 0 ? stack[depth - 1] : 1;
            /* a file the command line includes (-include FILE) is the
             * program's: translated if it is the user's, re-included if it
             * is a system header */
            int entered = parent_translated || cur.kind == REGION_BUILTIN;
            int translated = kind == REGION_USER && (m.enter ? entered : 1);
            if (m.enter && depth < 256)
                stack[depth++] = translated;
            else if (m.leave && depth > 0)
                depth--;
            if (!m.enter && depth > 0)
                translated = stack[depth - 1] && kind == REGION_USER;
            cur = (region_t){m.end, 0, m.start, intern(r, m.file), m.line, kind, translated,
                             m.enter, m.enter && kind == REGION_SYSTEM && entered,
                             m.enter && kind == REGION_PRELUDE && parent_translated};
            p = m.end;
            continue;
        }
        const char *nl = memchr(text + p, '\n', len - p);
        p = nl ? (size_t)(nl - text) + 1 : len;
    }
    cur.end = len;
    add_region(r, cur);
    free(prelude_real);
}

void regions_free(regions_t *r)
{
    for (size_t i = 0; i < r->nfiles; i++)
        free(r->files[i]);
    free(r->files);
    free(r->v);
    *r = (regions_t){0};
}

const region_t *regions_at(const regions_t *r, size_t offset)
{
    size_t lo = 0, hi = r->n;
    while (lo < hi) { /* the last region starting at or before offset */
        size_t mid = (lo + hi) / 2;
        if (r->v[mid].start <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? &r->v[lo - 1] : NULL;
}

int regions_where(const regions_t *r, const char *text, size_t offset, const char **file,
                  int *line, int *column)
{
    const region_t *g = regions_at(r, offset);
    if (!g || !g->translated)
        return 0;
    int l = g->line;
    size_t bol = g->start;
    for (size_t i = g->start; i < offset; i++)
        if (text[i] == '\n') {
            l++;
            bol = i + 1;
        }
    *file = g->file;
    *line = l;
    if (column)
        *column = (int)(offset - bol) + 1;
    return 1;
}
