/* SPDX-License-Identifier: MIT */
/*
 * apexmap.c -- the MuPC report's modified Apex-MAP (§5.2-5.3): what the remote
 * reference cache does for reads with given spatial (L) and temporal (K)
 * locality.
 *
 *   mupcrun -n 2 bench/apexmap [--quick] [--L 1,4,64] [--K 1,0.01]
 *                              [--dwords N] [--reps N] [--mbytes N]
 *
 * Modified as in the report: every access is remote and no location is read
 * by two threads (thread t reads only the M dwords owned by thread
 * (t+1) % THREADS), and the figure is the average per-thread bandwidth.
 * An access reads L consecutive doubles from start..start+L-1, one relaxed
 * scalar get each (what the cache serves), where start = floor((M-L) *
 * r^(1/K)), r uniform in [0,1): K = 1 is random, small K re-reads the
 * region's first lines.  A measurement reads D dwords from a cold cache (a
 * fence empties it) with all threads starting together; a point's time is
 * each thread's median over R measurements of the same stream.  Every
 * thread checks each sum against the values it knows were stored.
 *
 * Figures (thread 0), in MB/s (1e6 bytes/s), one per point:
 *   mupc.apexmap.<geom>.l<L>.k<K>_mbs
 * where <geom> is "nocache" with the cache off, else line<bytes>.sets<n>.
 * A table (rows L, columns K; with the cache on, the hit rate over all
 * threads in brackets) follows on lines starting with '#'.
 */
#include <mupc_upc.h>

#include <math.h>
#include <stdint.h>

#include "timing.h"

enum { MAX_POINTS = 64, STAT_WORDS = 4 };

/* Per-thread results of the current point: time (us), hits, misses,
 * dwords read.  Thread t writes its own block; thread 0 reads them all. */
MUPC_SHARED_ARRAY(result, double, STAT_WORDS, STAT_WORDS, MUPC_PER_THREAD)

static const int all_l[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
static const double all_k[] = {1.0, 0.5, 0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001};

typedef struct options {
    int quick;
    int nl, nk;
    int l[MAX_POINTS];
    double k[MAX_POINTS];
    long dwords;   /* D: dwords each thread reads per measurement */
    long reps;     /* R: measurements per point */
    long mbytes;   /* region per thread in MiB; 0 = from the cache geometry */
} options_t;

static void usage(const char *why)
{
    if (MYTHREAD == 0)
        fprintf(stderr,
                "bench/apexmap: %s\n"
                "usage: apexmap [--quick] [--L l1,l2,...] [--K k1,k2,...] [--dwords N] "
                "[--reps N] [--mbytes N]\n"
                "  --L       vector lengths in dwords, integers >= 1 (default 1,2,...,1024)\n"
                "  --K       temporal locality, 0 < K <= 1 (default 1,0.5,...,0.001)\n"
                "  --dwords  dwords each thread reads per measurement (default 32768,\n"
                "            4096 quick)\n"
                "  --reps    measurements per point, the median counts (default 3)\n"
                "  --mbytes  MiB of remote data per thread (default 32x the cache capacity,\n"
                "            8 to 32 MiB)\n"
                "  --quick   L 1,64, K 1,0.01, 4096 dwords (explicit options win)\n",
                why);
}

static int parse_list(const char *s, int is_int, options_t *o)
{
    int n = 0;
    char *end;
    while (*s) {
        if (n == MAX_POINTS)
            return -1;
        if (is_int) {
            long v = strtol(s, &end, 10);
            if (end == s || v < 1 || v > (1L << 24))
                return -1;
            o->l[n++] = (int)v;
        } else {
            double v = strtod(s, &end);
            if (end == s || !(v > 0.0 && v <= 1.0))
                return -1;
            o->k[n++] = v;
        }
        if (*end == ',' && end[1] != '\0')
            end++;
        else if (*end != '\0')
            return -1;
        s = end;
    }
    if (n == 0)
        return -1;
    if (is_int)
        o->nl = n;
    else
        o->nk = n;
    return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* 0, or -1 after printing the usage on thread 0. */
static int parse(int argc, char **argv, options_t *o)
{
    int have_l = 0, have_k = 0;
    long dwords = 0, reps = 3;
    *o = (options_t){0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quick") == 0) {
            o->quick = 1;
            continue;
        }
        if (strcmp(a, "--L") != 0 && strcmp(a, "--K") != 0 && strcmp(a, "--dwords") != 0 &&
            strcmp(a, "--reps") != 0 && strcmp(a, "--mbytes") != 0) {
            char why[160];
            snprintf(why, sizeof why, "unknown option '%s'", a);
            usage(why);
            return -1;
        }
        if (i + 1 >= argc) {
            char why[160];
            snprintf(why, sizeof why, "%s needs a value", a);
            usage(why);
            return -1;
        }
        const char *v = argv[++i];
        int bad;
        if (strcmp(a, "--L") == 0)
            bad = parse_list(v, 1, o), have_l = 1;
        else if (strcmp(a, "--K") == 0)
            bad = parse_list(v, 0, o), have_k = 1;
        else if (strcmp(a, "--dwords") == 0)
            bad = parse_long(v, 1, 1L << 26, &dwords);
        else if (strcmp(a, "--reps") == 0)
            bad = parse_long(v, 1, 1000, &reps);
        else
            bad = parse_long(v, 1, 1L << 14, &o->mbytes);
        if (bad) {
            char why[160];
            snprintf(why, sizeof why, "bad value '%s' for %s", v, a);
            usage(why);
            return -1;
        }
    }
    if (!have_l) {
        static const int quick_l[] = {1, 64};
        const int *src = o->quick ? quick_l : all_l;
        o->nl = o->quick ? 2 : (int)(sizeof all_l / sizeof *all_l);
        memcpy(o->l, src, (size_t)o->nl * sizeof *src);
    }
    if (!have_k) {
        static const double quick_k[] = {1.0, 0.01};
        const double *src = o->quick ? quick_k : all_k;
        o->nk = o->quick ? 2 : (int)(sizeof all_k / sizeof *all_k);
        memcpy(o->k, src, (size_t)o->nk * sizeof *src);
    }
    o->dwords = dwords ? dwords : o->quick ? 1L << 12 : 1L << 15;
    o->reps = reps;
    return 0;
}

/* The cache's line size and sets per remote thread, or 0 with it off. */
static int cache_geometry(size_t *line, size_t *sets)
{
    mupc_cache_stats_t st;
    mupc_cache_geometry_t g;
    *line = *sets = 0;
    if (!mupc_cache_stats(&st) || !mupc_cache_geometry(&g))
        return 0;
    *line = g.line_size;
    *sets = g.sets;
    return 1;
}

/* The value stored at dword i of thread t's region. */
static double value_at(int t, size_t m, size_t i) { return (double)((size_t)t * m + i); }

/* splitmix64: fast, and the same stream for a (thread, L, K) whatever
 * else runs, so a subset reproduces the full sweep's points. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void make_starts(size_t *start, long n, size_t m, int l, double k)
{
    uint64_t kbits;
    memcpy(&kbits, &k, sizeof kbits);
    uint64_t s = ((uint64_t)MYTHREAD + 1) * 0x100000001b3ULL ^ (uint64_t)l << 40 ^ kbits;
    for (long i = 0; i < n; i++) {
        double r = (double)(mix(&s) >> 11) * 0x1.0p-53;
        size_t v = (size_t)floor((double)(m - (size_t)l) * pow(r, 1.0 / k));
        start[i] = v > m - (size_t)l ? m - (size_t)l : v;
    }
}

int main(int argc, char **argv)
{
    options_t o;
    if (parse(argc, argv, &o) != 0)
        return 2;
    if (THREADS < 2) {
        if (MYTHREAD == 0)
            fprintf(stderr, "bench/apexmap: needs 2 or more threads (every read is remote; "
                            "run with mupcrun -n 2 or more)\n");
        return 2;
    }

    size_t line, sets;
    int cached = cache_geometry(&line, &sets);
    size_t mbytes;
    if (o.mbytes) {
        mbytes = (size_t)o.mbytes << 20;
    } else {
        mbytes = cached ? 32 * line * sets : 0;
        if (mbytes < (size_t)8 << 20)
            mbytes = (size_t)8 << 20;
        if (mbytes > (size_t)32 << 20)
            mbytes = (size_t)32 << 20;
    }
    size_t m = mbytes / sizeof(double); /* M, dwords per thread */
    int lmax = 0;
    for (int i = 0; i < o.nl; i++)
        lmax = o.l[i] > lmax ? o.l[i] : lmax;
    if ((size_t)lmax > m) {
        char why[160];
        snprintf(why, sizeof why, "L %d is longer than the region (%zu dwords)", lmax, m);
        usage(why);
        return 2;
    }

    mupc_ptr_t base = upc_all_alloc((size_t)THREADS, m * sizeof(double));
    double *mine = mupc_local_addr(mupc_ptr_index(base, (size_t)MYTHREAD * m, sizeof(double), m));
    for (size_t i = 0; i < m; i++)
        mine[i] = value_at(MYTHREAD, m, i);
    int owner = (MYTHREAD + 1) % THREADS;
    mupc_ptr_t region = mupc_ptr_index(base, (size_t)owner * m, sizeof(double), m);

    long nmax = o.dwords; /* accesses per measurement: at most D (L = 1) */
    size_t *start = malloc((size_t)nmax * sizeof *start);
    double *times = malloc((size_t)o.reps * sizeof *times);
    double *table = malloc((size_t)o.nl * (size_t)o.nk * 2 * sizeof *table);
    if (!start || !times || !table) {
        fprintf(stderr, "bench/apexmap: out of memory\n");
        upc_global_exit(1);
    }
    char geom[64];
    if (cached)
        snprintf(geom, sizeof geom, "line%zu.sets%zu", line, sets);
    else
        snprintf(geom, sizeof geom, "nocache");
    if (MYTHREAD == 0) {
        printf("# apexmap: %d threads, each reads thread (t+1)%%THREADS's M = %zu dwords "
               "(%zu MiB); per point the median of %ld reads of D = %ld dwords\n",
               THREADS, m, mbytes >> 20, o.reps, o.dwords);
        if (cached)
            printf("# cache on: %zu-byte lines x %zu sets = %zu KiB per remote thread "
                   "(M is %.1fx that)\n",
                   line, sets, line * sets >> 10, (double)mbytes / (double)(line * sets));
        else
            printf("# cache off\n");
        fflush(stdout);
    }

    double t_all = bench_now_us();
    for (int li = 0; li < o.nl; li++) {
        for (int ki = 0; ki < o.nk; ki++) {
            int l = o.l[li];
            double k = o.k[ki];
            long n = o.dwords / l > 0 ? o.dwords / l : 1;
            make_starts(start, n, m, l, k);
            double want = 0;
            for (long a = 0; a < n; a++) /* sum of value_at over start..start+l-1 */
                want += (double)l * value_at(owner, m, start[a]) + 0.5 * l * (l - 1);

            double hits = 0, misses = 0;
            for (long r = 0; r < o.reps; r++) {
                upc_fence; /* cold cache */
                upc_barrier();
                mupc_cache_stats_reset();
                double sum = 0;
                double t0 = bench_now_us();
                for (long a = 0; a < n; a++) {
                    /* element start[a] of the owner's block, then UPC
                     * pointer increments within the block */
                    mupc_ptr_t p = region;
                    p.addr += start[a] * sizeof(double);
                    p.phase += (uint32_t)start[a];
                    for (int j = 0; j < l; j++) {
                        sum += MUPC_GET(double, p);
                        p.addr += sizeof(double);
                        p.phase++;
                    }
                }
                times[r] = bench_now_us() - t0;
                mupc_cache_stats_t st;
                mupc_cache_stats(&st);
                hits += (double)st.hits;
                misses += (double)st.misses;
                if (sum != want) {
                    fprintf(stderr,
                            "bench/apexmap: L %d K %g thread %d (reading thread %d): sum "
                            "%.17g, expected %.17g\n",
                            l, k, MYTHREAD, owner, sum, want);
                    upc_global_exit(1);
                }
            }
            double *res = mupc_local_addr(MUPC_ELEM(result, (size_t)MYTHREAD * STAT_WORDS));
            res[0] = bench_median(times, (int)o.reps);
            res[1] = hits;
            res[2] = misses;
            res[3] = (double)n * l;
            upc_barrier();
            if (MYTHREAD == 0) {
                double mbs = 0, all_hits = 0, accesses = 0;
                for (int t = 0; t < THREADS; t++) {
                    double r[STAT_WORDS];
                    for (int w = 0; w < STAT_WORDS; w++)
                        r[w] = MUPC_GET(double, MUPC_ELEM(result, (size_t)t * STAT_WORDS + w));
                    mbs += r[3] * sizeof(double) / (r[0] > 0 ? r[0] : 1e-3);
                    all_hits += r[1];
                    accesses += r[1] + r[2];
                }
                mbs /= THREADS;
                table[(li * o.nk + ki) * 2] = mbs;
                table[(li * o.nk + ki) * 2 + 1] = accesses > 0 ? all_hits / accesses : 0;
                printf("mupc.apexmap.%s.l%d.k%g_mbs %.3f\n", geom, l, k, mbs);
                fflush(stdout);
            }
        }
    }
    upc_barrier();

    if (MYTHREAD == 0) {
        printf("# average per-thread MB/s%s; rows L (dwords), columns K\n",
               cached ? " (cache hit rate over all threads)" : "");
        printf("# %6s", "L\\K");
        for (int ki = 0; ki < o.nk; ki++)
            printf(cached ? " %16g" : " %10g", o.k[ki]);
        printf("\n");
        for (int li = 0; li < o.nl; li++) {
            printf("# %6d", o.l[li]);
            for (int ki = 0; ki < o.nk; ki++) {
                const double *c = &table[(li * o.nk + ki) * 2];
                if (cached)
                    printf(" %9.2f (%3.0f%%)", c[0], 100 * c[1]);
                else
                    printf(" %10.2f", c[0]);
            }
            printf("\n");
        }
        printf("# sweep took %.1f s\n", (bench_now_us() - t_all) * 1e-6);
        fflush(stdout);
    }
    upc_barrier();
    free(start);
    free(times);
    free(table);
    upc_all_free(base);
    return 0;
}
