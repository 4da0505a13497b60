/* SPDX-License-Identifier: MIT */
/*
 * trend_profile.c -- reading mupc-trend profile files (trend_profile.h).
 */
#define _GNU_SOURCE
#include "trend_profile.h"

#include "trend_ops.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_FIELDS = 8 };

static int fail(char *err, size_t size, const char *path, int lineno, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (lineno > 0)
        snprintf(err, size, "%s:%d: %s", path, lineno, what);
    else
        snprintf(err, size, "%s: %s", path, what);
    return -1;
}

/* Splits `line` at tabs in place; returns the number of fields. */
static int split(char *line, char **fields)
{
    int n = 0;
    for (char *save = NULL, *f = strtok_r(line, "\t\r\n", &save); f && n < MAX_FIELDS;
         f = strtok_r(NULL, "\t\r\n", &save))
        fields[n++] = f;
    return n;
}

static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return end != s && *end == '\0' && errno == 0 ? 0 : -1;
}

static int add_site(trend_profile_t *p, char **f)
{
    trend_site_t *more = realloc(p->sites, (p->nsites + 1) * sizeof *more);
    if (!more)
        return -1;
    p->sites = more;
    trend_site_t *s = &p->sites[p->nsites];
    double line;
    if (number(f[1], &line) != 0 || line < 0 || line != (int)line)
        return -2;
    if ((s->op = mupc_trend_op_lookup(f[2])) < 0)
        return -3;
    if (number(f[3], &s->count) != 0 || s->count < 0 || number(f[4], &s->bytes) != 0 ||
        s->bytes < 0)
        return -4;
    if (!(s->file = strdup(f[0])))
        return -1;
    s->line = (int)line;
    p->nsites++;
    return 0;
}

static int add_feature(trend_profile_t *p, const char *name, double value)
{
    trend_feature_t *more = realloc(p->features, (p->nfeatures + 1) * sizeof *more);
    if (!more)
        return -1;
    p->features = more;
    if (!(p->features[p->nfeatures].name = strdup(name)))
        return -1;
    p->features[p->nfeatures++].value = value;
    return 0;
}

/* One record; 0, or -1 with err set. */
static int record(trend_profile_t *p, char **f, int n, const char *path, int lineno, char *err,
                  size_t size)
{
    double v;
    if (strcmp(f[0], "program") == 0 && n == 2) {
        free(p->program);
        p->program = strdup(f[1]);
        return p->program ? 0 : fail(err, size, path, lineno, "out of memory");
    }
    if (strcmp(f[0], "threads") == 0 && n == 2) {
        if (number(f[1], &v) != 0 || v < 1 || v != (int)v)
            return fail(err, size, path, lineno, "threads '%s' is not a positive integer", f[1]);
        p->threads = (int)v;
        return 0;
    }
    if (strcmp(f[0], "feature") == 0 && n == 3) {
        if (number(f[2], &v) != 0)
            return fail(err, size, path, lineno, "feature %s: '%s' is not a number", f[1], f[2]);
        if (strcmp(f[1], "threads") == 0 || trend_profile_feature(p, f[1], &v) == 0)
            return fail(err, size, path, lineno, "feature '%s' given twice", f[1]);
        return add_feature(p, f[1], v) == 0 ? 0 : fail(err, size, path, lineno, "out of memory");
    }
    if (strcmp(f[0], "site") == 0 && n == 6) {
        static const char *const why[] = {"", "out of memory", "LINE is not a line number",
                                          "unknown operation (see trend_ops.h)",
                                          "COUNT and BYTES must be non-negative numbers"};
        int rc = add_site(p, f + 1);
        return rc == 0 ? 0 : fail(err, size, path, lineno, "site record: %s", why[-rc]);
    }
    return fail(err, size, path, lineno,
                "'%s' with %d field(s) is not a profile record (version, program, threads, "
                "feature NAME VALUE, site FILE LINE OP COUNT BYTES; tab-separated)",
                f[0], n - 1);
}

int trend_profile_read(FILE *in, const char *path, trend_profile_t *p, char *err, size_t size)
{
    memset(p, 0, sizeof *p);
    p->path = strdup(path);
    char *line = NULL, *fields[MAX_FIELDS];
    size_t cap = 0;
    int lineno = 0, seen_version = 0, rc = 0;
    while (rc == 0 && getline(&line, &cap, in) > 0) {
        lineno++;
        if (line[0] == '#')
            continue;
        int n = split(line, fields);
        if (n == 0)
            continue;
        if (!seen_version) {
            double v;
            if (strcmp(fields[0], "version") != 0 || n != 2 || number(fields[1], &v) != 0)
                rc = fail(err, size, path, lineno, "not a mupc-trend profile (it must start "
                                                   "with 'version<TAB>%d')",
                          MUPC_TREND_FORMAT_VERSION);
            else if (v != MUPC_TREND_FORMAT_VERSION)
                rc = fail(err, size, path, lineno, "profile format version %g; this mupc-trend "
                                                   "reads version %d",
                          v, MUPC_TREND_FORMAT_VERSION);
            seen_version = 1;
            continue;
        }
        rc = record(p, fields, n, path, lineno, err, size);
    }
    free(line);
    if (rc == 0 && !seen_version)
        rc = fail(err, size, path, 0, "empty: not a mupc-trend profile");
    if (rc == 0 && p->threads == 0)
        rc = fail(err, size, path, 0, "no 'threads' record");
    if (rc != 0)
        trend_profile_free(p);
    return rc;
}

int trend_profile_load(const char *path, trend_profile_t *p, char *err, size_t size)
{
    FILE *in = fopen(path, "r");
    if (!in)
        return fail(err, size, path, 0, "cannot read: %s", strerror(errno));
    int rc = trend_profile_read(in, path, p, err, size);
    fclose(in);
    return rc;
}

void trend_profile_free(trend_profile_t *p)
{
    for (size_t i = 0; i < p->nsites; i++)
        free(p->sites[i].file);
    for (size_t i = 0; i < p->nfeatures; i++)
        free(p->features[i].name);
    free(p->sites);
    free(p->features);
    free(p->path);
    free(p->program);
    memset(p, 0, sizeof *p);
}

int trend_profile_feature(const trend_profile_t *p, const char *name, double *value)
{
    if (strcmp(name, "threads") == 0) {
        *value = p->threads;
        return 0;
    }
    for (size_t i = 0; i < p->nfeatures; i++)
        if (strcmp(p->features[i].name, name) == 0) {
            *value = p->features[i].value;
            return 0;
        }
    return -1;
}
