/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.h -- the runtime's settings: one table of keys, read from
 * built-in defaults, then a configuration file, then MUPC_<KEY>
 * environment variables.
 *
 * Pure module (no MPI): the runtime, mupc-show-config and the unit tests
 * share it.  Every error message has the form
 *     WHERE: KEY: WHY; allowed: RANGE
 * where WHERE is "file:line" or "environment MUPC_KEY".
 */
#ifndef MUPCI_CONFIG_H
#define MUPCI_CONFIG_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdio.h>

enum { MUPCI_CONFIG_KEYS = 19, MUPCI_CONFIG_ORIGIN_MAX = 160 };

/* segment_size = auto (the default): computed at start from the node's
 * memory and the number of UPC threads on it. */
enum { MUPCI_SEGMENT_AUTO = 0 };

/* Values of the `checks` setting. */
enum { MUPCI_CHECKS_OFF = 0, MUPCI_CHECKS_BOUNDS = 1 };

typedef struct mupci_config {
    size_t segment_size;   /* shared segment per UPC thread, bytes */
    int local_heap_percent; /* the most of each segment upc_alloc may use */
    size_t batch_size;     /* one batched message / receive buffer, bytes */
    size_t fragment_size;  /* piece size of large transfers, bytes */
    int recv_buffers;      /* persistent receives per thread */
    int send_slots;        /* sends in flight before a sender waits */
    int spin_polls;        /* polls before a waiting pthread yields */
    int yield_window_us;   /* yielding window before sleeping */
    int idle_sleep_max_us; /* longest idle sleep */
    int direct_gets;       /* 1: on-node large gets by cross-memory attach */
    int shm;               /* 1: on-node segments are mapped by every thread of the node */
    int simulate_nodes;    /* pretend nodes the job is split into */
    int verbose;           /* 1: print the settings at start-up */
    int cache;             /* 1: relaxed remote scalar accesses are cached */
    size_t cache_line_size; /* bytes per line, a power of two */
    int cache_sets;        /* lines per remote thread, a power of two */
    int victim_cache_lines; /* fully-associative victim entries */
    int cache_stats;       /* 1: print statistics at exit */
    int checks;            /* MUPCI_CHECKS_OFF or MUPCI_CHECKS_BOUNDS */
    /* where each value came from, in table order: "default",
     * "FILE:LINE" or "environment MUPC_KEY" */
    char origin[MUPCI_CONFIG_KEYS][MUPCI_CONFIG_ORIGIN_MAX];
} mupci_config_t;

/* Signature of getenv, so tests can supply their own environment. */
typedef const char *(*mupci_getenv_fn)(const char *name);

void mupci_config_defaults(mupci_config_t *cfg);

/* Set one key from its text value.  `origin` names where the value came
 * from.  Returns 0, or -1 with a message in err. */
int mupci_config_set(mupci_config_t *cfg, const char *key, const char *value,
                     const char *origin, char *err, size_t errlen);

/* Apply a file of `key = value` lines ('#' starts a comment; a comment
 * may be of any length and hold anything).  A key set twice is a warning
 * to `warn` (NULL: none) naming both lines; the later value is used. */
int mupci_config_parse_file(mupci_config_t *cfg, const char *path, FILE *warn, char *err,
                            size_t errlen);

/* Apply MUPC_<KEY> variables for every key in the table. */
int mupci_config_apply_env(mupci_config_t *cfg, mupci_getenv_fn getenv_fn, char *err,
                           size_t errlen);

/* MUPC_* variables in envp that are neither settings nor the variables
 * of libmupc's tools (MUPC_CONF, MUPC_TREND_*, ...): each is reported to
 * `warn` (NULL: silent) with the closest key.  Returns their number. */
int mupci_config_check_env(char *const *envp, FILE *warn);

/* The key nearest (edit distance, any case) to word[0..len). */
const char *mupci_config_closest_key(const char *word, size_t len);

/* The whole sequence: defaults; the first of $MUPC_CONF, ./mupc.conf,
 * $HOME/.mupc.conf (a MUPC_CONF that cannot be read, or is a directory,
 * is an error; the other two are optional); then the environment.
 * `used` receives the file read, or "" when none was.  Warnings
 * (duplicate keys, unknown MUPC_* variables) go to `warn` (NULL: none). */
int mupci_config_load(mupci_config_t *cfg, char *used, size_t usedlen, FILE *warn, char *err,
                      size_t errlen);

/* The node's memory in bytes: physical, or a smaller cgroup limit;
 * `source` receives "memory" or "memory (cgroup limit)". */
size_t mupci_config_node_memory(const char **source);

/* The segment size `auto` means for `threads_on_node` UPC threads sharing
 * `memory` bytes; `why` receives how it was computed. */
size_t mupci_config_auto_segment(size_t memory, const char *source, int threads_on_node,
                                 char *why, size_t whylen);

/* Replace segment_size = auto by `bytes`; the origin says `why`. */
void mupci_config_set_auto_segment(mupci_config_t *cfg, size_t bytes, const char *why);

/* One line per key: "  key = value    # origin". */
void mupci_config_print(FILE *out, const mupci_config_t *cfg);

/* The text of mupc.conf.example: every key with its default and range. */
void mupci_config_write_example(FILE *out);

/* The name of key i (0 <= i < MUPCI_CONFIG_KEYS). */
const char *mupci_config_key_name(int i);

#endif
