/* SPDX-License-Identifier: MIT */
/*
 * trend_fit.h -- the models of mupc-trend (ti-trend-prof §4): a count y as a
 * linear function a + b*x or a power law with offset a + b*x^c of a
 * feature x, fitted by least squares; the model with the smaller error
 * is kept (the power law only when it is clearly better, so ties and
 * straight lines stay linear).  Pure code, unit-tested (check_trend).
 */
#ifndef MUPC_TREND_FIT_H
#define MUPC_TREND_FIT_H

#include <stddef.h>

typedef struct trend_model {
    double a, b, c; /* y = a + b * x^c; c == 1 for the linear model */
    int power;      /* 1: the power law was kept */
    double sse;     /* sum of squared errors over the points */
} trend_model_t;

/* Least-squares fits; 0 on success, -1 when the points cannot determine
 * the model (fewer than 2 distinct x for the line, 3 for the power law,
 * or a negative x for the power law). */
int trend_fit_linear(const double *x, const double *y, size_t n, trend_model_t *m);
int trend_fit_power(const double *x, const double *y, size_t n, trend_model_t *m);

/* The better of the two (the line alone with 2 distinct x); -1 with
 * fewer than 2 distinct x. */
int trend_fit(const double *x, const double *y, size_t n, trend_model_t *m);

/* Number of distinct values among x[0..n). */
size_t trend_distinct(const double *x, size_t n);

double trend_predict(const trend_model_t *m, double x);

/* How fast the count grows, for ranking: the exponent (0 for a constant,
 * 1 for a line), then the coefficient. */
double trend_exponent(const trend_model_t *m);

/* "304690p - 1389867", "41p^2 - 416", "12" for variable name "p". */
void trend_format(const trend_model_t *m, const char *var, char *buf, size_t size);

#endif
