/*
 * sobel.c -- the MuPC report §7.1.3: Sobel edge detection on a row-blocked image.
 *
 *   mupcrun -n 4 examples/sobel [N]
 *
 * `shared [B] int O[N][N], E[N][N]` with B = ceil(N/THREADS)*N: each thread
 * owns whole contiguous rows (threads past the last row own none).  The
 * kernel is the report's loop, owner computes on E[i][0], with every pixel
 * read as a fine-grained shared access: rows i-1 and i+1 are remote at
 * the edges of a thread's block, which is where the cache helps.  Thread 0
 * checks every pixel of E against a sequential Sobel on a private copy of
 * O (borders stay 0) and reports thread 0's time, barrier to barrier
 * (i.e. the slowest thread's), and each thread's remote reads.
 * N defaults to 512.
 */
#include <mupc_upc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_N 16384
#define MAX_LISTED 8 /* threads whose remote reads are listed one by one */

/* The image geometry, the same on every thread. */
typedef struct image {
    size_t n;    /* N: pixels per side */
    size_t rows; /* rows per thread, ceil(N / THREADS) */
    mupc_ptr_t O, E;
} image_t;

static long remote_reads; /* this thread's remote O reads in the kernel */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The original image: a diagonal ramp with a bright square in it. */
static int original(size_t i, size_t j, size_t n)
{
    int in_square = i >= n / 4 && i < n / 2 && j >= n / 3 && j < 2 * n / 3;
    return in_square ? 255 : (int)((i * 7 + j * 13) % 256);
}

/* &X[i][j] for X one of the shared images. */
static mupc_ptr_t pixel(const image_t *im, mupc_ptr_t x, size_t i, size_t j)
{
    return mupc_ptr_index(x, i * im->n + j, sizeof(int), im->rows * im->n);
}

static int get_o(const image_t *im, size_t i, size_t j)
{
    mupc_ptr_t p = pixel(im, im->O, i, j);
    remote_reads += upc_threadof(p) != (size_t)MYTHREAD;
    return MUPC_GET(int, p);
}

/* Rows of thread t: first..first+count-1 (count may be 0). */
static size_t rows_of(const image_t *im, int t, size_t *first)
{
    *first = (size_t)t * im->rows;
    return *first >= im->n ? 0 : im->n - *first < im->rows ? im->n - *first : im->rows;
}

/* Each thread writes its own rows of O and clears its rows of E. */
static void fill(const image_t *im)
{
    size_t first, count = rows_of(im, MYTHREAD, &first);
    if (!count)
        return;
    int *o = mupc_local_addr(pixel(im, im->O, first, 0));
    int *e = mupc_local_addr(pixel(im, im->E, first, 0));
    for (size_t r = 0; r < count; r++)
        for (size_t j = 0; j < im->n; j++)
            o[r * im->n + j] = original(first + r, j, im->n);
    memset(e, 0, count * im->n * sizeof *e);
}

/* One row of the report's kernel, word for word but for the accessors. */
static void sobel_row(const image_t *im, size_t i)
{
    for (size_t j = 1; j < im->n - 1; j++) {
        int d1 = get_o(im, i - 1, j + 1) - get_o(im, i - 1, j - 1);
        d1 += 2 * (get_o(im, i, j + 1) - get_o(im, i, j - 1));
        d1 += get_o(im, i + 1, j + 1) - get_o(im, i + 1, j - 1);

        int d2 = get_o(im, i - 1, j - 1) - get_o(im, i + 1, j - 1);
        d2 += 2 * (get_o(im, i - 1, j) - get_o(im, i + 1, j));
        d2 += get_o(im, i - 1, j + 1) - get_o(im, i + 1, j + 1);

        double m = sqrt((double)(d1 * d1 + d2 * d2));
        MUPC_PUT(int, pixel(im, im->E, i, j), m > 255 ? 255 : (unsigned char)m);
    }
}

/* upc_forall (i = 1; i < N-1; i++; &E[i][0]) */
static void kernel(const image_t *im)
{
    mupc_forall_start(__FILE__, __LINE__);
    for (size_t i = 1; i < im->n - 1; i++)
        if (upc_threadof(pixel(im, im->E, i, 0)) == (size_t)MYTHREAD)
            sobel_row(im, i);
    mupc_forall_end(__FILE__, __LINE__);
}

/* The expected edge image, sequentially, with the Sobel masks spelled out
 * as weights rather than the kernel's shifts. */
static int *sequential(size_t n)
{
    static const int w[3] = {1, 2, 1};
    int *o = malloc(n * n * sizeof *o), *e = calloc(n * n, sizeof *e);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            o[i * n + j] = original(i, j, n);
    for (size_t i = 1; i < n - 1; i++)
        for (size_t j = 1; j < n - 1; j++) {
            int gx = 0, gy = 0;
            for (int k = 0; k < 3; k++) {
                gx += w[k] * (o[(i + k - 1) * n + j + 1] - o[(i + k - 1) * n + j - 1]);
                gy += w[k] * (o[(i - 1) * n + j + k - 1] - o[(i + 1) * n + j + k - 1]);
            }
            int m = (int)sqrt((double)(gx * gx + gy * gy));
            e[i * n + j] = m > 255 ? 255 : m;
        }
    free(o);
    return e;
}

/* E on thread 0, one upc_memget per owner of rows. */
static int *gather_edges(const image_t *im)
{
    int *e = malloc(im->n * im->n * sizeof *e);
    for (int t = 0; t < THREADS; t++) {
        size_t first, count = rows_of(im, t, &first);
        if (count)
            upc_memget(e + first * im->n, pixel(im, im->E, first, 0), count * im->n * sizeof *e);
    }
    return e;
}

static void check(const image_t *im)
{
    int *got = gather_edges(im), *want = sequential(im->n);
    for (size_t k = 0; k < im->n * im->n; k++)
        if (got[k] != want[k]) {
            fprintf(stderr, "sobel: E[%zu][%zu] = %d, expected %d: check FAILED\n", k / im->n,
                    k % im->n, got[k], want[k]);
            upc_global_exit(1);
        }
    free(got);
    free(want);
}

static void print_remote_reads(mupc_ptr_t counts)
{
    long total = 0;
    printf("sobel: remote reads per thread:");
    for (int t = 0; t < THREADS; t++) {
        long c = MUPC_GET(long, mupc_ptr_index(counts, (size_t)t, sizeof(long), 1));
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
    image_t im = {.n = argc > 1 ? parse_n(argv[1]) : 512};
    if (im.n == 0)
        return usage("bad N", argv[1]);
    im.rows = (im.n + THREADS - 1) / THREADS;
    size_t block = im.rows * im.n * sizeof(int);
    if (2 * block > mupc_segment_size() / 2)
        return usage("N too big for the shared segment (raise segment_size in mupc.conf)", NULL);
    im.O = upc_all_alloc((size_t)THREADS, block);
    im.E = upc_all_alloc((size_t)THREADS, block);
    mupc_ptr_t counts = upc_all_alloc((size_t)THREADS, sizeof(long));
    fill(&im);
    upc_barrier();

    double t0 = now();
    kernel(&im);
    upc_barrier(); /* every row of E written */
    double elapsed = now() - t0;

    MUPC_PUT(long, mupc_ptr_index(counts, (size_t)MYTHREAD, sizeof(long), 1), remote_reads);
    upc_barrier();
    if (MYTHREAD == 0) {
        check(&im);
        printf("sobel: %d UPC threads, %zux%zu image, %.3f s, check OK\n", THREADS, im.n, im.n,
               elapsed);
        print_remote_reads(counts);
    }
    upc_barrier();
    upc_all_free(counts);
    upc_all_free(im.E);
    upc_all_free(im.O);
    return 0;
}
