/*
 * cache_counters.c -- libmupc's cache counters for examples/matmul.upc, in C
 * against <mupc.h>: translator: a UPC program cannot include <mupc.h> yet
 * (/tmp/ext/repro/ex_1.upc), so matmul.upc reaches mupc_cache_stats,
 * mupc_cache_stats_reset and mupc_cache_geometry through these.
 */
#include <mupc.h>

int cache_counters(unsigned long long *misses, unsigned long long *accesses);
void cache_counters_reset(void);
int cache_shape(size_t *line_size, size_t *sets);

/* This thread's misses and accesses (hits + misses) since the last reset;
 * 1, or 0 (and zeros) when the cache is off. */
int cache_counters(unsigned long long *misses, unsigned long long *accesses)
{
    mupc_cache_stats_t s;
    int on = mupc_cache_stats(&s);
    *misses = s.misses;
    *accesses = s.hits + s.misses;
    return on;
}

void cache_counters_reset(void) { mupc_cache_stats_reset(); }

/* The cache's line size and sets; 1, or 0 (and zeros) when it is off. */
int cache_shape(size_t *line_size, size_t *sets)
{
    mupc_cache_geometry_t g;
    int on = mupc_cache_geometry(&g);
    *line_size = g.line_size;
    *sets = g.sets;
    return on;
}
