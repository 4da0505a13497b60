/* SPDX-License-Identifier: MIT */
/*
 * mupc-trend -- communication scaling trends from small runs (ti-trend-prof).
 *
 *   mupc-trend [--feature NAME] [--op OP] [--top N] [--format table|csv|json]
 *              [--predict [NAME=]X] [--plot DIR] PROFILE...
 *
 * Reads the profiles the mupc-trend GASP tool wrote (trend_profile.h),
 * one per run, and for each source location and operation fits its count
 * of remote operations as a function of a feature (THREADS by default, or
 * one given with MUPC_TREND_FEATURE): a + b*x or a + b*x^c, whichever fits
 * better (trend_fit.h).  The table lists the least scalable first: by
 * exponent, then coefficient.  A location missing from a profile had no
 * remote operations in that run (count 0).
 */
#include "trend_fit.h"
#include "trend_ops.h"
#include "trend_profile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    const char *file;
    int line, op;
    double *y;  /* one count per profile */
    double max; /* largest count observed */
    trend_model_t model;
} trend_t;

typedef struct {
    const char *feature, *plot_dir;
    int op;  /* -1: all */
    int top; /* 0: all */
    enum { TABLE, CSV, JSON } format;
    int predict;
    double predict_x;
} options_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: mupc-trend [--feature NAME] [--op OP] [--top N] [--format table|csv|json]\n"
               "                  [--predict [NAME=]X] [--plot DIR] PROFILE...\n"
               "  --feature NAME  the x of the models: threads (default) or a feature the runs\n"
               "                  recorded with MUPC_TREND_FEATURE=NAME=VALUE\n"
               "  --op OP         only this operation (get put memget memput memcpy memset\n"
               "                  lock barrier collective atomic alloc)\n"
               "  --top N         only the N least scalable trends\n"
               "  --format F      table (default), csv or json\n"
               "  --predict X     also each trend's count at feature value X\n"
               "  --plot DIR      one SVG per trend shown (top 5 unless --top): observations and\n"
               "                  model, drawn with gnuplot\n");
}

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "mupc-trend: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

static int parse_options(int argc, char **argv, options_t *o)
{
    *o = (options_t){.feature = "threads", .op = -1, .format = TABLE};
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        if (!val)
            die("%s needs a value (--help for usage)", opt);
        i++;
        char *end;
        if (strcmp(opt, "--feature") == 0) {
            o->feature = val;
        } else if (strcmp(opt, "--op") == 0) {
            if ((o->op = mupc_trend_op_lookup(val)) < 0)
                die("--op: unknown operation '%s' (get put memget memput memcpy memset lock "
                    "barrier collective atomic alloc)", val);
        } else if (strcmp(opt, "--top") == 0) {
            long n = strtol(val, &end, 10);
            if (*end || n < 1)
                die("--top: '%s' is not a positive number", val);
            o->top = (int)n;
        } else if (strcmp(opt, "--format") == 0) {
            if (strcmp(val, "table") == 0)
                o->format = TABLE;
            else if (strcmp(val, "csv") == 0)
                o->format = CSV;
            else if (strcmp(val, "json") == 0)
                o->format = JSON;
            else
                die("--format: '%s' is not table, csv or json", val);
        } else if (strcmp(opt, "--predict") == 0) {
            const char *eq = strchr(val, '='), *num = eq ? eq + 1 : val;
            o->predict_x = strtod(num, &end);
            if (end == num || *end)
                die("--predict: '%s' is not [NAME=]NUMBER", val);
            o->predict = 1;
            if (eq && (strncmp(val, o->feature, (size_t)(eq - val)) != 0 ||
                       o->feature[eq - val] != '\0'))
                die("--predict: '%s' names another feature than --feature (give --feature "
                    "first)", val);
        } else if (strcmp(opt, "--plot") == 0) {
            o->plot_dir = val;
        } else {
            die("unknown option '%s' (--help for usage)", opt);
        }
    }
    if (i == argc)
        die("%s", "no profiles given (the files mupc-trend's GASP tool writes; --help for usage)");
    return i;
}

/* ---------------------------------------------------------------- */
/* Trends                                                            */
/* ---------------------------------------------------------------- */

static trend_t *find_trend(trend_t **all, size_t *n, const trend_site_t *s, size_t nprofiles)
{
    for (size_t i = 0; i < *n; i++)
        if ((*all)[i].line == s->line && (*all)[i].op == s->op && !strcmp((*all)[i].file, s->file))
            return &(*all)[i];
    trend_t *more = realloc(*all, (*n + 1) * sizeof *more);
    double *y = calloc(nprofiles, sizeof *y);
    if (!more || !y)
        die("%s", "out of memory");
    *all = more;
    (*all)[*n] = (trend_t){.file = s->file, .line = s->line, .op = s->op, .y = y};
    return &(*all)[(*n)++];
}

static trend_t *collect(const trend_profile_t *p, size_t np, int op, size_t *n)
{
    trend_t *all = NULL;
    *n = 0;
    for (size_t k = 0; k < np; k++)
        for (size_t i = 0; i < p[k].nsites; i++) {
            const trend_site_t *s = &p[k].sites[i];
            if (op >= 0 && s->op != op)
                continue;
            trend_t *t = find_trend(&all, n, s, np);
            t->y[k] += s->count;
            t->max = t->y[k] > t->max ? t->y[k] : t->max;
        }
    return all;
}

/* Least scalable first: exponent, then coefficient, then largest count. */
static int least_scalable_first(const void *a, const void *b)
{
    const trend_t *x = a, *y = b;
    double ex = trend_exponent(&x->model), ey = trend_exponent(&y->model);
    if (fabs(ex - ey) > 1e-6)
        return ex < ey ? 1 : -1;
    if (x->model.b != y->model.b)
        return x->model.b < y->model.b ? 1 : -1;
    if (x->max != y->max)
        return x->max < y->max ? 1 : -1;
    int f = strcmp(x->file, y->file);
    return f ? f : x->line - y->line;
}

/* ---------------------------------------------------------------- */
/* Output                                                            */
/* ---------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        if ((unsigned char)*s >= 0x20)
            putchar(*s);
    }
    putchar('"');
}

static void print_trends(const trend_t *t, size_t n, const options_t *o, const double *x,
                         size_t np)
{
    const char *var = strcmp(o->feature, "threads") == 0 ? "p" : o->feature;
    char model[128], where[600];
    if (o->format == TABLE) {
        printf("%-28s %-10s %-30s %12s", "location", "operation", "model", "max");
        if (o->predict)
            printf(" %16s", "predicted");
        printf("\n");
    } else if (o->format == CSV) {
        printf("file,line,operation,model,a,b,c,exponent,max%s\n", o->predict ? ",predicted" : "");
    } else {
        printf("{\"feature\":");
        json_string(o->feature);
        printf(",\"trends\":[");
    }
    for (size_t i = 0; i < n; i++) {
        const trend_t *r = &t[i];
        trend_format(&r->model, var, model, sizeof model);
        double predicted = trend_predict(&r->model, o->predict_x);
        if (o->format == TABLE) {
            snprintf(where, sizeof where, "%s %d", base_name(r->file), r->line);
            printf("%-28s %-10s %-30s %12.0f", where, mupc_trend_op_name(r->op), model, r->max);
            if (o->predict)
                printf(" %16.0f", predicted);
            printf("\n");
        } else if (o->format == CSV) {
            printf("%s,%d,%s,\"%s\",%.10g,%.10g,%.10g,%.6g,%.0f", r->file, r->line,
                   mupc_trend_op_name(r->op), model, r->model.a, r->model.b, r->model.c,
                   trend_exponent(&r->model), r->max);
            if (o->predict)
                printf(",%.0f", predicted);
            printf("\n");
        } else {
            printf("%s\n{\"file\":", i ? "," : "");
            json_string(r->file);
            printf(",\"line\":%d,\"operation\":\"%s\",\"model\":", r->line,
                   mupc_trend_op_name(r->op));
            json_string(model);
            printf(",\"a\":%.10g,\"b\":%.10g,\"c\":%.10g,\"power\":%s,\"exponent\":%.6g,"
                   "\"max\":%.0f,\"points\":[",
                   r->model.a, r->model.b, r->model.c, r->model.power ? "true" : "false",
                   trend_exponent(&r->model), r->max);
            for (size_t k = 0; k < np; k++)
                printf("%s[%.10g,%.0f]", k ? "," : "", x[k], r->y[k]);
            printf("]");
            if (o->predict)
                printf(",\"predicted\":%.6g", predicted);
            printf("}");
        }
    }
    if (o->format == JSON)
        printf("\n]}\n");
}

/* One .dat, .gp and (with gnuplot) .svg per trend in DIR; 0 if all drawn. */
static int plot(const trend_t *t, size_t n, const options_t *o, const double *x, size_t np)
{
    if (mkdir(o->plot_dir, 0777) != 0 && errno != EEXIST)
        die("--plot: cannot make directory %s", o->plot_dir);
    const char *var = strcmp(o->feature, "threads") == 0 ? "p" : o->feature;
    int have_gnuplot = system("command -v gnuplot > /dev/null 2>&1") == 0, drawn = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096], model[128];
        trend_format(&t[i].model, var, model, sizeof model);
        snprintf(path, sizeof path, "%s/trend-%zu.dat", o->plot_dir, i + 1);
        FILE *dat = fopen(path, "w");
        snprintf(path, sizeof path, "%s/trend-%zu.gp", o->plot_dir, i + 1);
        FILE *gp = fopen(path, "w");
        if (!dat || !gp)
            die("--plot: cannot write in %s", o->plot_dir);
        for (size_t k = 0; k < np; k++)
            fprintf(dat, "%.10g %.10g\n", x[k], t[i].y[k]);
        fprintf(gp, "set terminal svg size 640,420\nset output 'trend-%zu.svg'\n"
                    "set title \"%s:%d %s: %s\" noenhanced\nset xlabel '%s'\n"
                    "set ylabel 'remote operations (all threads)'\nset key left top\n"
                    "f(x) = %.10g + %.10g * x**%.10g\n"
                    "plot 'trend-%zu.dat' with points pt 7 title 'observed', f(x) with lines "
                    "title 'model'\n",
                i + 1, base_name(t[i].file), t[i].line, mupc_trend_op_name(t[i].op), model,
                o->feature, t[i].model.a, t[i].model.b, t[i].model.c, i + 1);
        fclose(dat);
        fclose(gp);
        if (have_gnuplot) {
            char cmd[8400];
            snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot trend-%zu.gp", o->plot_dir, i + 1);
            drawn += system(cmd) == 0;
        }
    }
    if (!have_gnuplot) {
        fprintf(stderr, "mupc-trend: --plot: gnuplot is not installed (apt-get install "
                        "gnuplot-nox); the data and scripts are in %s: run gnuplot on the "
                        "trend-*.gp files there\n", o->plot_dir);
        return -1;
    }
    if ((size_t)drawn < n) {
        fprintf(stderr, "mupc-trend: --plot: gnuplot failed on %zu of %zu plots in %s\n",
                n - (size_t)drawn, n, o->plot_dir);
        return -1;
    }
    fprintf(stderr, "mupc-trend: wrote %zu plot(s) to %s (trend-N.svg)\n", n, o->plot_dir);
    return 0;
}

/* ---------------------------------------------------------------- */

static void check_feature_values(const double *x, size_t np, const char *feature)
{
    size_t distinct = trend_distinct(x, np);
    if (distinct < 2) {
        char msg[256];
        snprintf(msg, sizeof msg, "the %zu profile(s) all have %s = %g; a trend needs runs at "
                                  "2 or more values (3 or more for a power law)",
                 np, feature, x[0]);
        die("%s", msg);
    }
    if (distinct < 3)
        fprintf(stderr, "mupc-trend: only 2 values of %s: linear models only (3 or more "
                        "values allow a power law)\n", feature);
}

int main(int argc, char **argv)
{
    options_t o;
    int first = parse_options(argc, argv, &o);
    size_t np = (size_t)(argc - first);
    trend_profile_t *p = calloc(np, sizeof *p);
    double *x = calloc(np, sizeof *x);
    if (!p || !x)
        die("%s", "out of memory");
    for (size_t k = 0; k < np; k++) {
        char err[1024];
        if (trend_profile_load(argv[first + k], &p[k], err, sizeof err) != 0)
            die("%s", err);
        if (trend_profile_feature(&p[k], o.feature, &x[k]) != 0) {
            char msg[1024];
            snprintf(msg, sizeof msg, "%s has no feature '%s' (run with "
                                      "MUPC_TREND_FEATURE=%s=VALUE, or choose another --feature)",
                     argv[first + k], o.feature, o.feature);
            die("%s", msg);
        }
    }
    check_feature_values(x, np, o.feature);
    size_t n;
    trend_t *t = collect(p, np, o.op, &n);
    for (size_t i = 0; i < n; i++)
        if (trend_fit(x, t[i].y, np, &t[i].model) != 0)
            die("%s", "internal error: a fit failed with 2 or more feature values");
    qsort(t, n, sizeof *t, least_scalable_first);
    size_t shown = o.top && (size_t)o.top < n ? (size_t)o.top : n;
    if (n == 0)
        fprintf(stderr, "mupc-trend: the profiles record no remote operations%s\n",
                o.op >= 0 ? " of that kind" : "");
    print_trends(t, shown, &o, x, np);
    int rc = 0;
    if (o.plot_dir)
        rc = plot(t, o.top ? shown : (n < 5 ? n : 5), &o, x, np) == 0 ? 0 : 1;
    for (size_t i = 0; i < n; i++)
        free(t[i].y);
    free(t);
    for (size_t k = 0; k < np; k++)
        trend_profile_free(&p[k]);
    free(p);
    free(x);
    return rc;
}
