/* SPDX-License-Identifier: MIT */
/*
 * sobel.upc -- the MuPC report §7.1.3: Sobel edge detection on a row-blocked image.
 *
 *   mupcrun -n 4 examples/sobel [N]
 *
 * The report's `shared [B] int O[N][N], E[N][N]` with B = ceil(N/THREADS)*N:
 * each thread owns whole contiguous rows (threads past the last row own
 * none).  N is known only at run time, so the images are allocated with
 * upc_all_alloc, one block per thread, and reached through their rows,
 * `shared [] int *O[N]`: O[i][j] is the pixel, on the thread that owns
 * row i.  The kernel is the report's loop, owner computes on E[i][0], with
 * every pixel read as a fine-grained shared access: rows i-1 and i+1 are
 * remote at the edges of a thread's block, which is where the cache
 * helps.  Thread 0 checks every pixel of E against a sequential Sobel on a
 * private copy of O (borders stay 0) and reports thread 0's time, barrier
 * to barrier (i.e. the slowest thread's), and each thread's remote reads.
 * N defaults to 512.
 */
#include <upc.h>
#include <mupc.h> /* libmupc's mupc_segment_size */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_N 16384
#define MAX_LISTED 8 /* threads whose remote reads are listed one by one */

static size_t n;                 /* N: pixels per side */
static size_t rows;              /* rows per thread, ceil(N / THREADS) */
static shared [] int **O, **E;   /* row i of each image, on its owner */
static long remote_reads;        /* this thread's remote O reads in the kernel */
shared long remote_counts[THREADS];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The original image: a diagonal ramp with a bright square in it. */
static int original(size_t i, size_t j)
{
    int in_square = i >= n / 4 && i < n / 2 && j >= n / 3 && j < 2 * n / 3;
    return in_square ? 255 : (int)((i * 7 + j * 13) % 256);
}

/* The rows of an image allocated with one block of `rows` rows per
 * thread: row i is row i % rows of thread i / rows's block. */
static shared [] int **rows_of_image(shared void *image)
{
    shared [] int **row = malloc(n * sizeof *row);
    for (size_t i = 0; i < n; i++)
        row[i] = (shared [] int *)((shared int *)image + i / rows) + (i % rows) * n;
    return row;
}

/* O[i][j], counting the reads of other threads' pixels. */
static int o(size_t i, size_t j)
{
    remote_reads += upc_threadof(&O[i][j]) != (size_t)MYTHREAD;
    return O[i][j];
}

/* Rows of thread t: first..first+count-1 (count may be 0). */
static size_t rows_owned(int t, size_t *first)
{
    *first = (size_t)t * rows;
    return *first >= n ? 0 : n - *first < rows ? n - *first : rows;
}

/* Each thread writes its own rows of O and clears its rows of E. */
static void fill(void)
{
    size_t i;
    upc_forall (i = 0; i < n; i++; &O[i][0])
        for (size_t j = 0; j < n; j++) {
            O[i][j] = original(i, j);
            E[i][j] = 0;
        }
}

/* The report's kernel, word for word but for the counting reads of O. */
static void kernel(void)
{
    size_t i;
    upc_forall (i = 1; i < n - 1; i++; &E[i][0])
        for (size_t j = 1; j < n - 1; j++) {
            int d1 = o(i - 1, j + 1) - o(i - 1, j - 1);
            d1 += 2 * (o(i, j + 1) - o(i, j - 1));
            d1 += o(i + 1, j + 1) - o(i + 1, j - 1);

            int d2 = o(i - 1, j - 1) - o(i + 1, j - 1);
            d2 += 2 * (o(i - 1, j) - o(i + 1, j));
            d2 += o(i - 1, j + 1) - o(i + 1, j + 1);

            double m = sqrt((double)(d1 * d1 + d2 * d2));
            E[i][j] = m > 255 ? 255 : (unsigned char)m;
        }
}

/* The expected edge image, sequentially, with the Sobel masks spelled out
 * as weights rather than the kernel's shifts. */
static int *sequential(void)
{
    static const int w[3] = {1, 2, 1};
    int *orig = malloc(n * n * sizeof *orig), *e = calloc(n * n, sizeof *e);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            orig[i * n + j] = original(i, j);
    for (size_t i = 1; i < n - 1; i++)
        for (size_t j = 1; j < n - 1; j++) {
            int gx = 0, gy = 0;
            for (int k = 0; k < 3; k++) {
                gx += w[k] * (orig[(i + k - 1) * n + j + 1] - orig[(i + k - 1) * n + j - 1]);
                gy += w[k] * (orig[(i - 1) * n + j + k - 1] - orig[(i + 1) * n + j + k - 1]);
            }
            int m = (int)sqrt((double)(gx * gx + gy * gy));
            e[i * n + j] = m > 255 ? 255 : m;
        }
    free(orig);
    return e;
}

/* E on thread 0, one upc_memget per owner of rows. */
static int *gather_edges(void)
{
    int *e = malloc(n * n * sizeof *e);
    for (int t = 0; t < THREADS; t++) {
        size_t first, count = rows_owned(t, &first);
        if (count)
            upc_memget(e + first * n, E[first], count * n * sizeof *e);
    }
    return e;
}

static void check(void)
{
    int *got = gather_edges(), *want = sequential();
    for (size_t k = 0; k < n * n; k++)
        if (got[k] != want[k]) {
            fprintf(stderr, "sobel: E[%zu][%zu] = %d, expected %d: check FAILED\n", k / n,
                    k % n, got[k], want[k]);
            upc_global_exit(1);
        }
    free(got);
    free(want);
}

static void print_remote_reads(void)
{
    long total = 0;
    printf("sobel: remote reads per thread:");
    for (int t = 0; t < THREADS; t++) {
        long c = remote_counts[t];
        total += c;
        if (t < MAX_LISTED)
            printf(" %ld", c);
    }
    printf("%s (%ld in all)\n", THREADS > MAX_LISTED ? " ..." : "", total);
}

/* Prints "sobel: WHAT[ 'ARG']" and the usage line (thread 0); returns 2. */
static int usage(const char *what, const char *arg)
{
    if (MYTHREAD == 0)
        fprintf(stderr, "sobel: %s%s%s%s\nusage: sobel [N]  (image N x N, N 3..%d, default 512)\n",
                what, arg ? " '" : "", arg ? arg : "", arg ? "'" : "", MAX_N);
    return 2;
}

/* N as a plain decimal in 3..MAX_N, else 0. */
static size_t parse_n(const char *s)
{
    char *end;
    if (*s < '0' || *s > '9')
        return 0;
    unsigned long v = strtoul(s, &end, 10);
    return *end || v < 3 || v > MAX_N ? 0 : (size_t)v;
}

int main(int argc, char **argv)
{
    if (argc > 2)
        return usage("unexpected argument", argv[2]);
    n = argc > 1 ? parse_n(argv[1]) : 512;
    if (n == 0)
        return usage("bad N", argv[1]);
    rows = (n + THREADS - 1) / THREADS;
    size_t block = rows * n * sizeof(int);
    if (2 * block > mupc_segment_size() / 2)
        return usage("N too big for the shared segment (raise segment_size in mupc.conf)", NULL);
    shared void *o_image = upc_all_alloc(THREADS, block);
    shared void *e_image = upc_all_alloc(THREADS, block);
    O = rows_of_image(o_image);
    E = rows_of_image(e_image);
    fill();
    upc_barrier;

    double t0 = now();
    kernel();
    upc_barrier; /* every row of E written */
    double elapsed = now() - t0;

    remote_counts[MYTHREAD] = remote_reads;
    upc_barrier;
    if (MYTHREAD == 0) {
        check();
        printf("sobel: %d UPC threads, %zux%zu image, %.3f s, check OK\n", THREADS, n, n,
               elapsed);
        print_remote_reads();
    }
    upc_barrier;
    free(O);
    free(E);
    upc_all_free(e_image);
    upc_all_free(o_image);
    return 0;
}
