/* SPDX-License-Identifier: MIT */
/*
 * config.h -- the runtime's settings: the table in settings.def, read from
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

/* segment_size = auto (the default): computed at start from the node's
 * memory and the number of UPC threads on it. */
enum { MUPCI_SEGMENT_AUTO = 0 };

/* Values of the `checks` setting (its words in settings.def, in order). */
enum { MUPCI_CHECKS_OFF = 0, MUPCI_CHECKS_BOUNDS = 1 };

/* What settings.def's rows are written with. */
#define MUPCI_KiB (1LL << 10)
#define MUPCI_MiB (1LL << 20)
#define MUPCI_GiB (1LL << 30)
enum { MUPCI_SETTING_POW2 = 1, MUPCI_SETTING_AUTO = 2 };
typedef size_t mupci_setting_SIZE;
typedef int mupci_setting_INT, mupci_setting_BOOL, mupci_setting_WORD;

/* The number of settings. */
enum {
#define MUPCI_SETTING(name, ...) MUPCI_KEY_##name,
#include "base/settings.def"
#undef MUPCI_SETTING
    MUPCI_CONFIG_KEYS
};
enum { MUPCI_CONFIG_ORIGIN_MAX = 160 };

/* One field per setting, named by its key (settings.def says what each
 * means); sizes are size_t, the rest int. */
typedef struct mupci_config {
#define MUPCI_SETTING(name, kind, ...) mupci_setting_##kind name;
#include "base/settings.def"
#undef MUPCI_SETTING
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
/* The same for any setting that takes auto: `key` becomes `value`. */
void mupci_config_set_auto(mupci_config_t *cfg, const char *key, long long value, const char *why);

/* One line per key: "  key = value    # origin". */
void mupci_config_print(FILE *out, const mupci_config_t *cfg);

/* The text of mupc.conf.example: every key with its default and range. */
void mupci_config_write_example(FILE *out);

/* The SETTINGS section of mupc.conf(5), in man(7) markup: every key with
 * its default, range, environment variable and description. */
void mupci_config_write_man(FILE *out);

/* The name of key i (0 <= i < MUPCI_CONFIG_KEYS). */
const char *mupci_config_key_name(int i);

/* The environment variable of key i (0 <= i < MUPCI_CONFIG_KEYS). */
const char *mupci_config_key_env(int i);

#endif
