/* SPDX-License-Identifier: MIT */
/*
 * check_trend.c -- mupc-trend's fitting (tools/trend_fit.c) and its
 * profile parser (tools/trend_profile.c).
 */
#include "trend_fit.h"
#include "trend_profile.h"

#include "run_suite.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define CLOSE(v, want, tol) \
    ck_assert_msg(fabs((v) - (want)) <= (tol), "%s = %.9g, want %.9g", #v, (double)(v), (double)(want))

START_TEST(linear_recovered_exactly)
{
    double x[] = {1, 2, 3, 4, 8}, y[5];
    for (int i = 0; i < 5; i++)
        y[i] = 500.0 * x[i] - 500.0; /* (p - 1) * size */
    trend_model_t m;
    ck_assert_int_eq(trend_fit(x, y, 5, &m), 0);
    ck_assert_int_eq(m.power, 0); /* a straight line stays linear */
    CLOSE(m.a, -500, 1e-6);
    CLOSE(m.b, 500, 1e-6);
    CLOSE(m.sse, 0, 1e-6);
    char buf[64];
    trend_format(&m, "p", buf, sizeof buf);
    ck_assert_str_eq(buf, "500p - 500");
    CLOSE(trend_predict(&m, 64), 31500, 1e-6);
}
END_TEST

START_TEST(power_law_recovered_exactly)
{
    static const struct {
        double a, b, c;
    } cases[] = {{-416, 41, 2}, {7, 3, 1.5}, {100, 0.5, 3}, {0, 2, 0.5}};
    double x[] = {2, 4, 6, 8, 16, 32};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        double y[6];
        for (int i = 0; i < 6; i++)
            y[i] = cases[k].a + cases[k].b * pow(x[i], cases[k].c);
        trend_model_t m;
        ck_assert_int_eq(trend_fit(x, y, 6, &m), 0);
        ck_assert_msg(m.power == 1, "case %zu: the power law must win", k);
        CLOSE(m.c, cases[k].c, 1e-4);
        CLOSE(m.b, cases[k].b, 1e-3 * fabs(cases[k].b));
        CLOSE(m.a, cases[k].a, 1e-2 + 1e-4 * fabs(cases[k].a));
    }
    double y[6];
    for (int i = 0; i < 6; i++)
        y[i] = -416 + 41 * x[i] * x[i];
    trend_model_t m;
    trend_fit(x, y, 6, &m);
    char buf[64];
    trend_format(&m, "p", buf, sizeof buf);
    ck_assert_str_eq(buf, "41p^2.00 - 416");
}
END_TEST

START_TEST(noisy_data)
{
    /* y = 10 + 3 x^2 with +-2 % noise: the exponent within 0.1 */
    double x[] = {2, 3, 4, 5, 6, 8, 10, 12}, y[8];
    static const double noise[] = {0.02, -0.015, 0.01, -0.02, 0.005, 0.018, -0.01, 0.0};
    for (int i = 0; i < 8; i++)
        y[i] = (10 + 3 * x[i] * x[i]) * (1 + noise[i]);
    trend_model_t m;
    ck_assert_int_eq(trend_fit(x, y, 8, &m), 0);
    ck_assert_int_eq(m.power, 1);
    CLOSE(m.c, 2, 0.1);
    /* a line with tiny noise: the power law fits the noise a little
     * better, but not by the 1 % it must, so the line is kept */
    for (int i = 0; i < 8; i++)
        y[i] = (5 + 100 * x[i]) * (1 + noise[i] * 0.01);
    ck_assert_int_eq(trend_fit(x, y, 8, &m), 0);
    ck_assert_int_eq(m.power, 0);
    trend_model_t p;
    ck_assert_int_eq(trend_fit_power(x, y, 8, &p), 0);
    ck_assert_msg(p.sse < m.sse, "the power law fits the noise (%g vs %g)", p.sse, m.sse);
}
END_TEST

START_TEST(ties_and_constants)
{
    double x[] = {1, 2, 3, 4}, y[] = {7, 7, 7, 7};
    trend_model_t m;
    ck_assert_int_eq(trend_fit(x, y, 4, &m), 0);
    ck_assert_int_eq(m.power, 0); /* equal errors: the simpler model */
    CLOSE(trend_exponent(&m), 0, 0);
    char buf[64];
    trend_format(&m, "p", buf, sizeof buf);
    ck_assert_str_eq(buf, "7");
    /* repeated x values (two runs per configuration) are fine */
    double x2[] = {2, 2, 4, 4, 8, 8}, y2[] = {20, 22, 40, 42, 80, 82};
    ck_assert_int_eq(trend_fit(x2, y2, 6, &m), 0);
    CLOSE(m.b, 10, 1e-6);
    CLOSE(m.a, 1, 1e-6);
}
END_TEST

START_TEST(too_few_points)
{
    double x[] = {4, 4, 4}, y[] = {1, 2, 3};
    trend_model_t m;
    ck_assert_int_eq(trend_fit(x, y, 3, &m), -1); /* one distinct x: no trend */
    ck_assert_int_eq(trend_fit(x, y, 1, &m), -1);
    double x2[] = {2, 4}, y2[] = {10, 30};
    ck_assert_int_eq(trend_fit_power(x2, y2, 2, &m), -1); /* 3 parameters, 2 points */
    ck_assert_int_eq(trend_fit(x2, y2, 2, &m), 0);        /* the line alone */
    ck_assert_int_eq(m.power, 0);
    CLOSE(m.b, 10, 1e-9);
    CLOSE(m.a, -10, 1e-9);
}
END_TEST

/* ---- the parser ---- */

static int parse(const char *text, trend_profile_t *p, char *err, size_t size)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ck_assert_ptr_nonnull(f);
    int rc = trend_profile_read(f, "x.prof", p, err, size);
    fclose(f);
    return rc;
}

START_TEST(reads_a_profile)
{
    const char *text = "# a comment\nversion\t1\nprogram\ttrend_read\nthreads\t4\n"
                       "feature\tsize\t1000\n\n"
                       "site\tex/trend_read.c\t27\tget\t3000\t24000\n"
                       "site\tex/trend_read.c\t64\tbarrier\t4\t0\n";
    trend_profile_t p;
    char err[512] = "";
    ck_assert_msg(parse(text, &p, err, sizeof err) == 0, "%s", err);
    ck_assert_int_eq(p.threads, 4);
    ck_assert_str_eq(p.program, "trend_read");
    double v;
    ck_assert_int_eq(trend_profile_feature(&p, "size", &v), 0);
    CLOSE(v, 1000, 0);
    ck_assert_int_eq(trend_profile_feature(&p, "threads", &v), 0);
    CLOSE(v, 4, 0);
    ck_assert_int_eq(trend_profile_feature(&p, "iters", &v), -1);
    ck_assert_uint_eq(p.nsites, 2);
    ck_assert_str_eq(p.sites[0].file, "ex/trend_read.c");
    ck_assert_int_eq(p.sites[0].line, 27);
    CLOSE(p.sites[0].count, 3000, 0);
    CLOSE(p.sites[0].bytes, 24000, 0);
    trend_profile_free(&p);
}
END_TEST

START_TEST(bad_files_name_file_and_line)
{
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"", "x.prof: empty"},
        {"hello\n", "x.prof:1: not a mupc-trend profile"},
        {"version\t2\n", "x.prof:1: profile format version 2"},
        {"version\t1\nsite\ta.c\t3\tget\t5\t0\n", "x.prof: no 'threads' record"},
        {"version\t1\nthreads\tfour\n", "x.prof:2: threads 'four' is not a positive integer"},
        {"version\t1\nthreads\t2\nsite\ta.c\t3\tfetch\t5\t0\n", "x.prof:3: site record: unknown operation"},
        {"version\t1\nthreads\t2\nsite\ta.c\tx\tget\t5\t0\n", "x.prof:3: site record: LINE is not"},
        {"version\t1\nthreads\t2\n# c\nsite\ta.c\t3\tget\t-5\t0\n", "x.prof:4: site record: COUNT"},
        {"version\t1\nthreads\t2\nsite a.c 3 get 5 0\n", "x.prof:3: 'site a.c 3 get 5 0' with 0 field(s)"},
        {"version\t1\nthreads\t2\nfeature\tn\t1\nfeature\tn\t2\n", "x.prof:4: feature 'n' given twice"},
        {"version\t1\nthreads\t2\nfeature\tn\tbig\n", "x.prof:3: feature n: 'big' is not a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trend_profile_t p;
        char err[512] = "";
        ck_assert_msg(parse(cases[i].text, &p, err, sizeof err) == -1, "case %zu accepted", i);
        ck_assert_msg(strncmp(err, cases[i].error, strlen(cases[i].error)) == 0,
                      "case %zu: '%s', want it to start with '%s'", i, err, cases[i].error);
    }
    trend_profile_t p;
    char err[512];
    ck_assert_int_eq(trend_profile_load("/nonexistent/x.prof", &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "/nonexistent/x.prof: cannot read") == err, "%s", err);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("trend");
    TCase *tc = tcase_create("fit");
    tcase_add_test(tc, linear_recovered_exactly);
    tcase_add_test(tc, power_law_recovered_exactly);
    tcase_add_test(tc, noisy_data);
    tcase_add_test(tc, ties_and_constants);
    tcase_add_test(tc, too_few_points);
    tcase_add_test(tc, reads_a_profile);
    tcase_add_test(tc, bad_files_name_file_and_line);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
