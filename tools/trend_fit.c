/* SPDX-License-Identifier: MIT */
/*
 * trend_fit.c -- least-squares fits of a + b*x and a + b*x^c (trend_fit.h).
 *
 * For a fixed exponent c the power law is linear in (a, b), so it is
 * solved exactly; the exponent is found by a grid over [0.05, 6] followed
 * by golden-section refinement around the best grid point.
 */
#include "trend_fit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { GRID = 1191 };            /* c = 0.05, 0.055, ... 6 */
static const double C_MIN = 0.05, C_STEP = 0.005;
static const double POWER_GAIN = 0.99; /* the power law must cut the error by 1 % */

size_t trend_distinct(const double *x, size_t n)
{
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && x[j] != x[i])
            j++;
        distinct += j == i;
    }
    return distinct;
}

/* Least squares of y = a + b*u for given u; sets a, b and the error. */
static int fit_basis(const double *u, const double *y, size_t n, double *a, double *b, double *sse)
{
    double su = 0, sy = 0, suu = 0, suy = 0;
    for (size_t i = 0; i < n; i++) {
        su += u[i], sy += y[i], suu += u[i] * u[i], suy += u[i] * y[i];
    }
    double det = n * suu - su * su;
    if (!(fabs(det) > 1e-12 * (n * suu + 1e-300)))
        return -1;
    *b = (n * suy - su * sy) / det;
    *a = (sy - *b * su) / n;
    double e = 0;
    for (size_t i = 0; i < n; i++) {
        double r = y[i] - (*a + *b * u[i]);
        e += r * r;
    }
    *sse = e;
    return 0;
}

int trend_fit_linear(const double *x, const double *y, size_t n, trend_model_t *m)
{
    if (trend_distinct(x, n) < 2)
        return -1;
    m->c = 1, m->power = 0;
    return fit_basis(x, y, n, &m->a, &m->b, &m->sse);
}

/* The power-law fit for one exponent; HUGE_VAL when degenerate. */
static double power_error(const double *x, const double *y, size_t n, double c, double *u,
                          double *a, double *b)
{
    double sse;
    for (size_t i = 0; i < n; i++)
        u[i] = pow(x[i], c);
    return fit_basis(u, y, n, a, b, &sse) == 0 ? sse : HUGE_VAL;
}

int trend_fit_power(const double *x, const double *y, size_t n, trend_model_t *m)
{
    if (trend_distinct(x, n) < 3)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (x[i] < 0)
            return -1;
    double *u = malloc(n * sizeof *u), a, b;
    if (!u)
        return -1;
    int best = -1;
    double best_err = HUGE_VAL;
    for (int k = 0; k < GRID; k++) {
        double e = power_error(x, y, n, C_MIN + k * C_STEP, u, &a, &b);
        if (e < best_err)
            best_err = e, best = k;
    }
    if (best < 0) {
        free(u);
        return -1;
    }
    /* golden section on [c - step, c + step] */
    const double g = 0.6180339887498949;
    double lo = C_MIN + (best > 0 ? best - 1 : 0) * C_STEP;
    double hi = C_MIN + (best < GRID - 1 ? best + 1 : best) * C_STEP;
    for (int it = 0; it < 60 && hi - lo > 1e-10; it++) {
        double c1 = hi - g * (hi - lo), c2 = lo + g * (hi - lo);
        if (power_error(x, y, n, c1, u, &a, &b) < power_error(x, y, n, c2, u, &a, &b))
            hi = c2;
        else
            lo = c1;
    }
    double c = 0.5 * (lo + hi), e = power_error(x, y, n, c, u, &a, &b);
    if (e > best_err) { /* refinement did not help: keep the grid point */
        c = C_MIN + best * C_STEP;
        e = power_error(x, y, n, c, u, &a, &b);
    }
    free(u);
    *m = (trend_model_t){a, b, c, 1, e};
    return 0;
}

int trend_fit(const double *x, const double *y, size_t n, trend_model_t *m)
{
    if (trend_fit_linear(x, y, n, m) != 0)
        return -1;
    trend_model_t p;
    if (trend_fit_power(x, y, n, &p) == 0 && p.sse < POWER_GAIN * m->sse &&
        m->sse - p.sse > 1e-9 * (1 + m->sse))
        *m = p;
    return 0;
}

double trend_predict(const trend_model_t *m, double x) { return m->a + m->b * pow(x, m->c); }

double trend_exponent(const trend_model_t *m)
{
    if (fabs(m->b) < 1e-9 * (1 + fabs(m->a)))
        return 0; /* constant */
    return m->c;
}

/* A coefficient with up to 4 significant digits, integers without ".0". */
static void number(char *buf, size_t size, double v)
{
    if (fabs(v - round(v)) < 1e-6 * (1 + fabs(v)) && fabs(v) < 1e15)
        snprintf(buf, size, "%.0f", round(v));
    else
        snprintf(buf, size, "%.4g", v);
}

void trend_format(const trend_model_t *m, const char *var, char *buf, size_t size)
{
    char a[32], b[32], c[32];
    number(a, sizeof a, fabs(m->a));
    if (trend_exponent(m) == 0) {
        number(a, sizeof a, m->a);
        snprintf(buf, size, "%s", a);
        return;
    }
    number(b, sizeof b, m->b);
    int unit = fabs(m->b - 1) < 1e-9;
    char term[96];
    if (m->power && fabs(m->c - 1) > 1e-9) {
        snprintf(c, sizeof c, "%.2f", m->c);
        snprintf(term, sizeof term, "%s%s^%s", unit ? "" : b, var, c);
    } else {
        snprintf(term, sizeof term, "%s%s", unit ? "" : b, var);
    }
    if (fabs(m->a) < 0.5e-4 * (1 + fabs(m->b)))
        snprintf(buf, size, "%s", term);
    else
        snprintf(buf, size, "%s %c %s", term, m->a < 0 ? '-' : '+', a);
}
