/* SPDX-License-Identifier: MIT */
/*
 * matmul.upc -- C = A x B, the naive O(N^3) kernel of the MuPC report §7.1.2
 * and its "temporal" rewrite of §5.5, every element a fine-grained shared
 * access (examples/matmul_c.c is the same program written by hand in C).
 *
 *   mupcrun -n 4 examples/matmul [--loop naive|temporal] [--layout cyclic|block] [N]
 *
 * Rows of A and C and columns of B are spread over the threads (N must be a
 * multiple of THREADS), in the report's layouts:
 *   cyclic striped  shared [N] double A[N][N], C[N][N];  shared double B[N][N];
 *   block striped   shared [N*N/THREADS] double A[N][N], C[N][N];
 *                   shared [N/THREADS] double B[N][N];
 * N and the layout are chosen at run time, so the matrices are allocated
 * with upc_all_alloc in those blocks and reached through pointers-to-shared
 * with the indefinite layout: A[i] and C[i] to row i, on the thread that
 * owns it, and Bcol[j] to column j of B, which lies on one thread, one
 * element every N/THREADS doubles (B[k][j] is Bcol[j][k * N/THREADS]).
 * Loops (owner computes on the rows of C):
 *   naive     upc_forall i: for j: C[i][j] = 0; for k: C[i][j] += A[i][k] * B[k][j]
 *             -- remote columns of B are read as vectors, each column once
 *             per row: spatial reuse, long temporal distance
 *   temporal  C = 0; for j: for k: upc_forall i: C[i][j] += A[i][k] * B[k][j]
 *             -- each remote B[k][j] is reused for all my rows at once
 * Thread 0 checks every element of C against a sequential product (the
 * inputs are small integers, so the sums are exact) and prints the time,
 * the cache's miss rate over all threads, and the parseable lines
 * `matmul.seconds`, `matmul.miss_rate_pct` (bench/table51 reads them).
 */
#include <upc.h>
#include <mupc.h> /* libmupc's cache counters */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static size_t n;                  /* the matrices are n x n */
static shared [] double **A, **C; /* A[i], C[i]: row i */
static shared [] double **Bcol;   /* Bcol[j]: column j of B */
static size_t stride;             /* n / THREADS: B[k][j] is Bcol[j][k * stride] */

shared unsigned long long misses[THREADS], accesses[THREADS];

static double a_value(size_t i, size_t k) { return (double)((i + 2 * k) % 5) - 2; }
static double b_value(size_t k, size_t j) { return (double)((3 * k + j) % 7) - 3; }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Prints "matmul: WHY[ 'ARG']" and the usage line (thread 0); returns 2. */
static int usage(const char *why, const char *arg)
{
    if (MYTHREAD == 0)
        fprintf(stderr, "matmul: %s%s%s%s\nusage: matmul [--loop naive|temporal] "
                        "[--layout cyclic|block] [N]  (N a multiple of THREADS, at most 4000)\n",
                why, arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
    return 2;
}

/* Block b of an array upc_all_alloc'ed in blocks of `size` doubles: on
 * thread b % THREADS, after that thread's earlier blocks. */
static shared [] double *block(shared void *array, size_t b, size_t size)
{
    return (shared [] double *)((shared double *)array + b % THREADS) + b / THREADS * size;
}

/* Allocates the three matrices in the chosen layout; fills my part of A and B. */
static void allocate(int block_striped)
{
    size_t rows = block_striped ? n / THREADS : 1; /* rows of A and C per block */
    size_t cols = block_striped ? n / THREADS : 1; /* elements of B per block */
    shared void *a = upc_all_alloc(n / rows, rows * n * sizeof(double));
    shared void *c = upc_all_alloc(n / rows, rows * n * sizeof(double));
    shared void *b = upc_all_alloc(n * n / cols, cols * sizeof(double));
    A = malloc(n * sizeof *A);
    C = malloc(n * sizeof *C);
    Bcol = malloc(n * sizeof *Bcol);
    stride = n / THREADS;
    for (size_t i = 0; i < n; i++) {
        A[i] = block(a, i / rows, rows * n) + i % rows * n;
        C[i] = block(c, i / rows, rows * n) + i % rows * n;
        Bcol[i] = block(b, i / cols, cols) + i % cols; /* B[0][i] */
    }
    size_t i, j;
    upc_forall (i = 0; i < n; i++; A[i])
        for (size_t k = 0; k < n; k++)
            A[i][k] = a_value(i, k);
    upc_forall (j = 0; j < n; j++; Bcol[j])
        for (size_t k = 0; k < n; k++)
            Bcol[j][k * stride] = b_value(k, j);
}

static void naive(void)
{
    size_t i;
    upc_forall (i = 0; i < n; i++; C[i])
        for (size_t j = 0; j < n; j++) {
            C[i][j] = 0.0;
            for (size_t k = 0; k < n; k++)
                C[i][j] += A[i][k] * Bcol[j][k * stride];
        }
}

static void temporal(void)
{
    size_t i;
    upc_forall (i = 0; i < n; i++; C[i])
        for (size_t j = 0; j < n; j++)
            C[i][j] = 0.0;
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++)
            upc_forall (i = 0; i < n; i++; C[i])
                C[i][j] += A[i][k] * Bcol[j][k * stride];
}

/* Thread 0: every element of C against the sequential product. */
static int check(void)
{
    double *row = malloc(n * sizeof *row);
    for (size_t i = 0; i < n; i++) {
        upc_memget(row, C[i], n * sizeof *row); /* a row never spans two blocks */
        for (size_t j = 0; j < n; j++) {
            double want = 0;
            for (size_t k = 0; k < n; k++)
                want += a_value(i, k) * b_value(k, j);
            if (row[j] != want) {
                fprintf(stderr, "matmul: C[%zu][%zu] = %g, expected %g\n", i, j, row[j], want);
                free(row);
                return 0;
            }
        }
    }
    free(row);
    return 1;
}

/* Every thread's cache misses and accesses during the kernel, summed. */
static double miss_rate_pct(int *cache_on)
{
    mupc_cache_stats_t s;
    *cache_on = mupc_cache_stats(&s);
    misses[MYTHREAD] = s.misses;
    accesses[MYTHREAD] = s.hits + s.misses;
    upc_barrier;
    unsigned long long miss = 0, all = 0;
    for (int t = 0; MYTHREAD == 0 && t < THREADS; t++) {
        miss += misses[t];
        all += accesses[t];
    }
    return all ? 100.0 * (double)miss / (double)all : 0;
}

int main(int argc, char **argv)
{
    int temporal_loop = 0, block_striped = 0;
    n = 240;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--loop") == 0 && i + 1 < argc && strcmp(argv[i + 1], "naive") == 0)
            temporal_loop = 0, i++;
        else if (strcmp(argv[i], "--loop") == 0 && i + 1 < argc && strcmp(argv[i + 1], "temporal") == 0)
            temporal_loop = 1, i++;
        else if (strcmp(argv[i], "--layout") == 0 && i + 1 < argc && strcmp(argv[i + 1], "cyclic") == 0)
            block_striped = 0, i++;
        else if (strcmp(argv[i], "--layout") == 0 && i + 1 < argc && strcmp(argv[i + 1], "block") == 0)
            block_striped = 1, i++;
        else if (strspn(argv[i], "0123456789") == strlen(argv[i]) && argv[i][0])
            n = strtoul(argv[i], NULL, 10);
        else
            return usage("unknown or incomplete argument", argv[i]);
    }
    if (n == 0 || n > 4000 || n % (size_t)THREADS)
        return usage("N must be between 1 and 4000 and a multiple of THREADS", NULL);
    allocate(block_striped);
    upc_barrier;
    mupc_cache_stats_reset();
    double t0 = now();
    if (temporal_loop)
        temporal();
    else
        naive();
    upc_barrier;
    double seconds = now() - t0;
    int cache_on;
    double rate = miss_rate_pct(&cache_on);
    if (MYTHREAD == 0) {
        int ok = check();
        mupc_cache_geometry_t g;
        char cache[96] = "cache off";
        if (mupc_cache_geometry(&g))
            snprintf(cache, sizeof cache, "cache %zu-byte lines x %zu sets: miss rate %.2f%%",
                     g.line_size, g.sets, rate);
        printf("matmul: %s loop, %s striped, %zux%zu, %d UPC threads: %.3f s, %s, check %s\n",
               temporal_loop ? "temporal" : "naive", block_striped ? "block" : "cyclic", n, n,
               THREADS, seconds, cache, ok ? "OK" : "FAILED");
        printf("matmul.seconds %.4f\n", seconds);
        if (cache_on)
            printf("matmul.miss_rate_pct %.4f\n", rate);
        fflush(stdout);
        if (!ok)
            upc_global_exit(1);
    }
    upc_barrier;
    return 0;
}
