/* SPDX-License-Identifier: MIT */
/*
 * matmul_c.c -- examples/matmul.upc written by hand in C against libmupc
 * (<mupc_upc.h>), kept to measure the translated program against: the same
 * arguments, the same output, the same accesses.  C = A x B, the naive
 * O(N^3) kernel of the MuPC report §7.1.2 and its "temporal" rewrite of
 * §5.5, with every element access a fine-grained shared access through the
 * runtime.
 *
 *   mupcrun -n 4 examples/matmul_c [--loop naive|temporal] [--layout cyclic|block] [N]
 *
 * Rows of A and C and columns of B are spread over the threads (N must be a
 * multiple of THREADS):
 *   cyclic striped  shared [N] double A[N][N], C[N][N];  shared double B[N][N];
 *   block striped   shared [N*N/THREADS] double A[N][N], C[N][N];
 *                   shared [N/THREADS] double B[N][N];
 * Loops (owner computes: a thread takes the rows of A it owns):
 *   naive     for my i: for j: C[i][j] = 0; for k: C[i][j] += A[i][k] * B[k][j]
 *             -- remote columns of B are read as vectors, each column once
 *             per row: spatial reuse, long temporal distance
 *   temporal  C = 0; for j: for k: for my i: C[i][j] += A[i][k] * B[k][j]
 *             -- each remote B[k][j] is reused for all my rows at once
 * Thread 0 checks every element of C against a sequential product (the
 * inputs are small integers, so the sums are exact) and prints the time,
 * the cache's miss rate over all threads, and the parseable lines
 * `matmul.seconds`, `matmul.miss_rate_pct` (bench/table51 reads them).
 */
#include <mupc_upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct matrix {
    mupc_ptr_t base;
    size_t block; /* elements per block */
} matrix_t;

static size_t n; /* the matrices are n x n */
static matrix_t A, B, C;

MUPC_SHARED_ARRAY(misses, unsigned long long, 2, 2, MUPC_PER_THREAD) /* misses, accesses */

static mupc_ptr_t at(const matrix_t *m, size_t i, size_t j)
{
    return mupc_ptr_index(m->base, i * n + j, sizeof(double), m->block);
}

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

/* Allocates the three matrices in the chosen layout; fills my part of A and B. */
static void allocate(int block_striped)
{
    size_t rows = block_striped ? n / THREADS : 1; /* rows of A and C per block */
    size_t cols = block_striped ? n / THREADS : 1; /* elements of B per block */
    A = (matrix_t){upc_all_alloc(n * n / (rows * n), rows * n * sizeof(double)), rows * n};
    C = (matrix_t){upc_all_alloc(n * n / (rows * n), rows * n * sizeof(double)), rows * n};
    B = (matrix_t){upc_all_alloc(n * n / cols, cols * sizeof(double)), cols};
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            if (upc_threadof(at(&A, i, j)) == (size_t)MYTHREAD)
                *(double *)mupc_local_addr(at(&A, i, j)) = a_value(i, j);
            if (upc_threadof(at(&B, i, j)) == (size_t)MYTHREAD)
                *(double *)mupc_local_addr(at(&B, i, j)) = b_value(i, j);
        }
}

/* The rows of A this thread owns, found once (upc_forall's affinity test). */
static size_t *my_rows, my_count;

static void find_my_rows(void)
{
    my_rows = malloc(n * sizeof *my_rows);
    for (size_t i = 0; i < n; i++)
        if (upc_threadof(at(&A, i, 0)) == (size_t)MYTHREAD)
            my_rows[my_count++] = i;
}

static void naive(void)
{
    for (size_t r = 0; r < my_count; r++) {
        size_t i = my_rows[r];
        for (size_t j = 0; j < n; j++) {
            MUPC_PUT(double, at(&C, i, j), 0.0);
            for (size_t k = 0; k < n; k++) {
                double c = MUPC_GET(double, at(&C, i, j));
                MUPC_PUT(double, at(&C, i, j),
                         c + MUPC_GET(double, at(&A, i, k)) * MUPC_GET(double, at(&B, k, j)));
            }
        }
    }
}

static void temporal(void)
{
    for (size_t r = 0; r < my_count; r++)
        for (size_t j = 0; j < n; j++)
            MUPC_PUT(double, at(&C, my_rows[r], j), 0.0);
    for (size_t j = 0; j < n; j++)
        for (size_t k = 0; k < n; k++)
            for (size_t r = 0; r < my_count; r++) {
                size_t i = my_rows[r];
                double c = MUPC_GET(double, at(&C, i, j));
                MUPC_PUT(double, at(&C, i, j),
                         c + MUPC_GET(double, at(&A, i, k)) * MUPC_GET(double, at(&B, k, j)));
            }
}

/* Thread 0: every element of C against the sequential product. */
static int check(void)
{
    double *row = malloc(n * sizeof *row);
    for (size_t i = 0; i < n; i++) {
        upc_memget(row, at(&C, i, 0), n * sizeof *row); /* a row never spans two blocks */
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
    MUPC_PUT(ullong, MUPC_ELEM(misses, 2 * MYTHREAD), s.misses);
    MUPC_PUT(ullong, MUPC_ELEM(misses, 2 * MYTHREAD + 1), s.hits + s.misses);
    upc_barrier();
    unsigned long long miss = 0, all = 0;
    for (int t = 0; MYTHREAD == 0 && t < THREADS; t++) {
        miss += MUPC_GET(ullong, MUPC_ELEM(misses, 2 * t));
        all += MUPC_GET(ullong, MUPC_ELEM(misses, 2 * t + 1));
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
    find_my_rows();
    upc_barrier();
    mupc_cache_stats_reset();
    double t0 = now();
    temporal_loop ? temporal() : naive();
    upc_barrier();
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
    upc_barrier();
    return 0;
}
