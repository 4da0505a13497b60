/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * config.c -- the settings table, its parser and its validation.
 *
 * Adding a setting means adding one field to mupci_config_t and one row to
 * `settings` below: parsing, range checks, the environment variable,
 * --show-config and mupc.conf.example all follow from the row.
 */
#include "base/config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

typedef enum { KIND_SIZE, KIND_INT, KIND_BOOL, KIND_WORD } kind_t;

typedef struct setting {
    const char *name;
    kind_t kind;
    long long def, min, max;
    int pow2;           /* value must be a power of two */
    size_t offset;      /* of the field in mupci_config_t */
    const char *help;
} setting_t;

/* The spellings of KIND_WORD settings: the value is the word's index. */
static const char *const checks_words[] = {"off", "bounds", NULL};
static const struct {
    const char *name;
    const char *const *words;
} word_settings[] = {{"checks", checks_words}};

#define KiB (1LL << 10)
#define MiB (1LL << 20)
#define GiB (1LL << 30)
#define FIELD(f) offsetof(mupci_config_t, f)

static const setting_t settings[MUPCI_CONFIG_KEYS] = {
    {"segment_size", KIND_SIZE, MUPCI_SEGMENT_AUTO, 1 * MiB, 64 * GiB, 0, FIELD(segment_size),
     "shared segment per UPC thread, rounded up to whole pages (address space is reserved, "
     "pages are touched on use); auto: 3/4 of the node's memory shared among the UPC threads "
     "on the node, in 64M steps, 64M..16G"},
    {"local_heap_percent", KIND_INT, 100, 1, 100, 0, FIELD(local_heap_percent),
     "the most of each segment upc_alloc may use; upc_alloc's heap grows down from the top of "
     "the segment and that of upc_all_alloc and upc_global_alloc up from the static shared "
     "data, and they meet anywhere"},
    {"batch_size", KIND_SIZE, 16 * KiB, 1 * KiB, 1 * MiB, 1, FIELD(batch_size),
     "size of one batched MPI message and of each receive buffer; smaller transfers travel inline"},
    {"fragment_size", KIND_SIZE, 256 * KiB, 4 * KiB, 64 * MiB, 1, FIELD(fragment_size),
     "large transfers move in pieces of this size"},
    {"recv_buffers", KIND_INT, 8, 2, 1024, 0, FIELD(recv_buffers),
     "persistent receives per thread"},
    {"send_slots", KIND_INT, 64, 4, 4096, 0, FIELD(send_slots),
     "sends in flight before a sender waits for some to complete"},
    {"spin_polls", KIND_INT, 100, 0, 1000000, 0, FIELD(spin_polls),
     "polls before a waiting pthread yields (a quarter when ranks outnumber cores)"},
    {"yield_window_us", KIND_INT, 2000, 0, 1000000, 0, FIELD(yield_window_us),
     "how long an idle pthread yields before it starts sleeping"},
    {"idle_sleep_max_us", KIND_INT, 2000, 10, 100000, 0, FIELD(idle_sleep_max_us),
     "longest sleep of an idle pthread: bounds the first-request latency after a quiet period"},
    /* 2000 rather than 1000: 4 idle threads burned 0.14-0.17 CPU-s per 2 s
     * with 1000 (bench/idle, mark 0.2), 0.09-0.10 with 2000. */
    {"direct_gets", KIND_BOOL, 1, 0, 1, 0, FIELD(direct_gets),
     "large gets from threads on the same node copy straight from the target's memory "
     "(process_vm_readv) without involving it; off: every get is a message"},
    /* On-node shared memory (runtime/transport/node.h). */
    {"shm", KIND_BOOL, 1, 0, 1, 0, FIELD(shm),
     "threads on one node map each other's segments: their gets, puts, barriers and atomics "
     "are loads and stores; off: every access to another thread is a message"},
    {"simulate_nodes", KIND_INT, 1, 1, 1024, 0, FIELD(simulate_nodes),
     "split the job's threads into this many pretend nodes (consecutive blocks) that may not "
     "use each other's memory, to exercise the cross-node paths on one machine"},
    {"verbose", KIND_INT, 0, 0, 2, 0, FIELD(verbose),
     "1: thread 0 prints the settings at start-up"},
    /* The remote reference cache (cache/README.md).  HP-UPC's defaults
     * (1K lines, 256 sets); the MuPC report §5.4 finds more than 64 sets rarely
     * helps reads, but write-heavy programs gain from larger tables. */
    {"cache", KIND_BOOL, 1, 0, 1, 0, FIELD(cache),
     "cache relaxed remote scalar accesses (noncoherent, write-back, invalidated at fences)"},
    {"cache_line_size", KIND_SIZE, 1 * KiB, 64, 2 * KiB, 1, FIELD(cache_line_size),
     "bytes per cache line: long lines serve vector-like access, short ones random access"},
    {"cache_sets", KIND_INT, 256, 16, 1024, 1, FIELD(cache_sets),
     "direct-mapped lines per remote thread"},
    {"victim_cache_lines", KIND_INT, 8, 0, 64, 0, FIELD(victim_cache_lines),
     "fully-associative victim cache of lines evicted by conflicts (0: none)"},
    {"cache_stats", KIND_BOOL, 0, 0, 1, 0, FIELD(cache_stats),
     "on: every thread prints its cache statistics at exit"},
    {"checks", KIND_WORD, MUPCI_CHECKS_OFF, MUPCI_CHECKS_OFF, MUPCI_CHECKS_BOUNDS, 0,
     FIELD(checks),
     "bounds: every shared access is checked against the static shared array or heap block "
     "it falls in, and one outside it (or crossing its end) stops the job with file:line"},
};

static const char *const *words_of(const setting_t *s)
{
    for (size_t i = 0; i < sizeof word_settings / sizeof word_settings[0]; i++)
        if (strcmp(word_settings[i].name, s->name) == 0)
            return word_settings[i].words;
    return NULL;
}

/* Settings that also take the word "auto" (stored as 0, resolved at
 * start by mupci_config_resolve_segment). */
static int takes_auto(const setting_t *s) { return strcmp(s->name, "segment_size") == 0; }

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- values as text ---- */

/* Shortest exact spelling: 65536 -> "64K", 1000 -> "1000". */
static void format_size(char *buf, size_t len, long long v)
{
    static const char suffix[] = "KMGT";
    int s = -1;
    while (s < 3 && v != 0 && v % 1024 == 0) {
        v /= 1024;
        s++;
    }
    if (s < 0)
        snprintf(buf, len, "%lld", v);
    else
        snprintf(buf, len, "%lld%c", v, suffix[s]);
}

static void format_value(char *buf, size_t len, const setting_t *s, long long v)
{
    if (takes_auto(s) && v == MUPCI_SEGMENT_AUTO)
        snprintf(buf, len, "auto");
    else if (s->kind == KIND_SIZE)
        format_size(buf, len, v);
    else if (s->kind == KIND_BOOL)
        snprintf(buf, len, "%s", v ? "on" : "off");
    else if (s->kind == KIND_WORD)
        snprintf(buf, len, "%s", words_of(s)[v]);
    else
        snprintf(buf, len, "%lld", v);
}

static void format_allowed(char *buf, size_t len, const setting_t *s)
{
    if (s->kind == KIND_BOOL) {
        snprintf(buf, len, "on or off (also yes/no, true/false, 1/0)");
        return;
    }
    if (s->kind == KIND_WORD) {
        const char *const *words = words_of(s);
        size_t used = 0;
        buf[0] = '\0';
        for (int i = 0; words[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " or " : "", words[i]);
        return;
    }
    char lo[32], hi[32];
    format_value(lo, sizeof lo, s, s->min);
    format_value(hi, sizeof hi, s, s->max);
    snprintf(buf, len, "%s..%s%s%s%s", lo, hi, s->pow2 ? ", a power of two" : "",
             s->kind == KIND_SIZE ? " (suffixes K, M, G, T)" : "", takes_auto(s) ? ", or auto" : "");
}

/* Parse "123", "-4", "64K", "2m".  Returns 0, or -1 when it is not a number
 * (or overflows, reported the same way since no range allows it). */
static int parse_bool(const char *text, long long *out)
{
    static const char *const words[][2] = {
        {"off", "on"}, {"no", "yes"}, {"false", "true"}, {"0", "1"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        for (int v = 0; v < 2; v++)
            if (strcasecmp(text, words[i][v]) == 0) {
                *out = v;
                return 0;
            }
    return -1;
}

static int parse_word(const char *text, const char *const *words, long long *out)
{
    for (int i = 0; words[i]; i++)
        if (strcasecmp(text, words[i]) == 0) {
            *out = i;
            return 0;
        }
    return -1;
}

static int parse_number(const char *text, const setting_t *s, long long *out)
{
    kind_t kind = s->kind;
    if (kind == KIND_BOOL)
        return parse_bool(text, out);
    if (kind == KIND_WORD)
        return parse_word(text, words_of(s), out);
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (end == text || errno != 0)
        return -1;
    if (kind == KIND_SIZE && *end != '\0') {
        const char *p = strchr("KMGT", toupper((unsigned char)*end));
        if (p == NULL)
            return -1;
        for (long i = 0; i <= p - "KMGT"; i++) {
            if (v > LLONG_MAX / 1024 || v < LLONG_MIN / 1024)
                return -1;
            v *= 1024;
        }
        end++;
    }
    if (*end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* ---- setting one key ---- */

static const setting_t *find_setting(const char *key)
{
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
        if (strcmp(settings[i].name, key) == 0)
            return &settings[i];
    return NULL;
}

static void store(mupci_config_t *cfg, const setting_t *s, long long v, const char *origin)
{
    char *field = (char *)cfg + s->offset;
    if (s->kind == KIND_SIZE)
        *(size_t *)field = (size_t)v;
    else
        *(int *)field = (int)v;
    snprintf(cfg->origin[s - settings], MUPCI_CONFIG_ORIGIN_MAX, "%s", origin);
}

static long long fetch(const mupci_config_t *cfg, const setting_t *s)
{
    const char *field = (const char *)cfg + s->offset;
    return s->kind == KIND_SIZE ? (long long)*(const size_t *)field : *(const int *)field;
}

void mupci_config_defaults(mupci_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
        store(cfg, &settings[i], settings[i].def, "default");
}

static void list_keys(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < MUPCI_CONFIG_KEYS && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", settings[i].name);
}

int mupci_config_set(mupci_config_t *cfg, const char *key, const char *value,
                     const char *origin, char *err, size_t errlen)
{
    const setting_t *s = find_setting(key);
    if (s == NULL) {
        char keys[512];
        list_keys(keys, sizeof keys);
        say(err, errlen, "%s: unknown key '%s'; known keys: %s", origin, key, keys);
        return -1;
    }
    char allowed[160];
    format_allowed(allowed, sizeof allowed, s);
    long long v;
    if (takes_auto(s) && strcasecmp(value, "auto") == 0) {
        store(cfg, s, MUPCI_SEGMENT_AUTO, origin);
        return 0;
    }
    if (parse_number(value, s, &v) != 0) {
        say(err, errlen, "%s: %s: '%s' is not %s; allowed: %s", origin, key, value,
            s->kind == KIND_SIZE   ? "a size"
            : s->kind == KIND_BOOL ? "on or off"
            : s->kind == KIND_WORD ? "a known value"
                                   : "an integer",
            allowed);
        return -1;
    }
    if (v < s->min || v > s->max) {
        say(err, errlen, "%s: %s: %s is out of range; allowed: %s", origin, key, value, allowed);
        return -1;
    }
    if (s->pow2 && (v & (v - 1)) != 0) {
        say(err, errlen, "%s: %s: %s is not a power of two; allowed: %s", origin, key, value,
            allowed);
        return -1;
    }
    store(cfg, s, v, origin);
    return 0;
}

/* ---- the file ---- */

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Values are short; a message quotes at most this much of one. */
enum { QUOTE_MAX = 60 };

/* The first byte of line[0..len) before any '#' that no text file holds
 * (NUL and the control characters other than tab, CR, LF), or -1.
 * Comments may hold anything: they are never read. */
static long find_binary_byte(const char *line, size_t len)
{
    for (size_t i = 0; i < len && line[i] != '#'; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)
            return (long)i;
    }
    return -1;
}

/* The key a (possibly damaged) line starts with, for messages: the word
 * before '=' or the first blank, cut to QUOTE_MAX characters. */
static void leading_key(const char *line, size_t len, char *key, size_t keylen)
{
    size_t i = 0, k = 0;
    while (i < len && isspace((unsigned char)line[i]))
        i++;
    while (i < len && k + 1 < keylen && k < QUOTE_MAX && isgraph((unsigned char)line[i]) &&
           line[i] != '=')
        key[k++] = line[i++];
    key[k] = '\0';
}

static int parse_line(mupci_config_t *cfg, char *line, const char *where, char *err,
                      size_t errlen)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    char *text = trim(line);
    if (*text == '\0')
        return 0;
    char *eq = strchr(text, '=');
    if (eq == NULL) {
        say(err, errlen, "%s: expected 'key = value', got '%.*s%s'", where, QUOTE_MAX, text,
            strlen(text) > QUOTE_MAX ? "..." : "");
        return -1;
    }
    *eq = '\0';
    char *key = trim(text), *value = trim(eq + 1);
    if (*value == '\0') {
        say(err, errlen, "%s: %s: no value after '='", where, key);
        return -1;
    }
    if (strlen(value) > QUOTE_MAX) {
        say(err, errlen, "%s: %s: the value is %zu characters long ('%.*s...'); "
            "no setting takes more than a number or a word", where, key, strlen(value),
            QUOTE_MAX / 2, value);
        return -1;
    }
    return mupci_config_set(cfg, key, value, where, err, errlen);
}

/* A key given twice in one file: the later line wins, as in most
 * configuration formats, but the earlier one was probably meant to be
 * removed, so say so.  first_line[i] is the line that set key i. */
static void note_duplicate(const mupci_config_t *cfg, const mupci_config_t *before,
                           int *first_line, int lineno, const char *path, FILE *warn)
{
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        if (strcmp(cfg->origin[i], before->origin[i]) == 0)
            continue; /* this line did not set key i */
        if (first_line[i] != 0 && warn != NULL)
            fprintf(warn, "mupc: warning: %s:%d: %s is set again (first set at %s:%d); "
                    "the value of line %d is used: remove one of the two lines\n",
                    path, lineno, settings[i].name, path, first_line[i], lineno);
        first_line[i] = lineno;
    }
}

static int parse_one_line(mupci_config_t *cfg, char *line, size_t len, const char *where,
                          char *err, size_t errlen)
{
    long bad = find_binary_byte(line, len);
    if (bad >= 0) {
        char key[QUOTE_MAX + 1];
        leading_key(line, (size_t)bad, key, sizeof key);
        say(err, errlen, "%s:%s%s%s byte 0x%02x at column %ld is not text; mupc.conf must be "
            "a text file of 'key = value' lines", where, key[0] ? " " : "", key,
            key[0] ? ":" : "", (unsigned char)line[bad], bad + 1);
        return -1;
    }
    return parse_line(cfg, line, where, err, errlen);
}

int mupci_config_parse_file(mupci_config_t *cfg, const char *path, FILE *warn, char *err,
                            size_t errlen)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        say(err, errlen, "configuration file '%s' is a directory; name a file of "
            "'key = value' lines", path);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        say(err, errlen, "cannot read configuration file '%s': %s", path, strerror(errno));
        return -1;
    }
    /* getline: a comment line may be of any length. */
    char *line = NULL, where[MUPCI_CONFIG_ORIGIN_MAX];
    size_t cap = 0;
    ssize_t len;
    int rc = 0, first_line[MUPCI_CONFIG_KEYS] = {0};
    for (int lineno = 1; rc == 0 && (len = getline(&line, &cap, f)) >= 0; lineno++) {
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        mupci_config_t before = *cfg;
        rc = parse_one_line(cfg, line, (size_t)len, where, err, errlen);
        if (rc == 0)
            note_duplicate(cfg, &before, first_line, lineno, path, warn);
    }
    free(line);
    fclose(f);
    return rc;
}

/* ---- the environment ---- */

int mupci_config_apply_env(mupci_config_t *cfg, mupci_getenv_fn getenv_fn, char *err,
                           size_t errlen)
{
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        char var[64] = "MUPC_";
        for (size_t k = 0; settings[i].name[k] && k + 6 < sizeof var; k++)
            var[5 + k] = (char)toupper((unsigned char)settings[i].name[k]);
        const char *value = getenv_fn(var);
        if (value == NULL)
            continue;
        char where[80];
        snprintf(where, sizeof where, "environment %s", var);
        if (mupci_config_set(cfg, settings[i].name, value, where, err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* ---- MUPC_* variables that are no setting ---- */

/* Variables of the MUPC_ family that are not settings but are read by
 * libmupc's own tools and scripts; any other MUPC_* is most likely a
 * misspelt setting. */
static const char *const other_variables[] = {
    "MUPC_CONF", "MUPC_LIBDIR", "MUPC_INCLUDEDIR", "MUPC_TOOLDIR", "MUPC_PROFILE_STUB",
    "MUPC_SHOW_CONFIG", "MUPC_TRANSLATE", "MUPC_PRELUDE_DIR", NULL};
/* MUPC_XLATE_: the translator's debugging switches */
static const char *const other_prefixes[] = {"MUPC_TREND_", "MUPC_TEST_", "MUPC_XLATE_", NULL};

static int is_other_variable(const char *name, size_t len)
{
    for (int i = 0; other_variables[i]; i++)
        if (strlen(other_variables[i]) == len && strncmp(other_variables[i], name, len) == 0)
            return 1;
    for (int i = 0; other_prefixes[i]; i++)
        if (strncmp(other_prefixes[i], name, strlen(other_prefixes[i])) == 0)
            return 1;
    return 0;
}

/* Edit distance between a[0..la) and b, case-insensitive. */
static int distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b);
    if (la > 63 || lb > 63)
        return 64;
    int row[64];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
            int best = diag + cost;
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

const char *mupci_config_closest_key(const char *word, size_t len)
{
    const char *best = settings[0].name;
    int best_d = distance(word, len, best);
    for (int i = 1; i < MUPCI_CONFIG_KEYS; i++) {
        int d = distance(word, len, settings[i].name);
        if (d < best_d) {
            best_d = d;
            best = settings[i].name;
        }
    }
    return best;
}

int mupci_config_check_env(char *const *envp, FILE *warn)
{
    int unknown = 0;
    for (; envp && *envp; envp++) {
        const char *var = *envp, *eq = strchr(var, '=');
        if (strncmp(var, "MUPC_", 5) != 0 || eq == NULL)
            continue;
        size_t len = (size_t)(eq - var);
        const char *key = var + 5;
        size_t keylen = len - 5;
        char lower[64];
        if (keylen == 0 || keylen >= sizeof lower || is_other_variable(var, len))
            continue;
        for (size_t k = 0; k < keylen; k++)
            lower[k] = (char)tolower((unsigned char)key[k]);
        lower[keylen] = '\0';
        if (find_setting(lower) != NULL)
            continue;
        unknown++;
        if (warn != NULL) {
            const char *close = mupci_config_closest_key(lower, keylen);
            char upper[64];
            size_t k = 0;
            for (; close[k] && k + 1 < sizeof upper; k++)
                upper[k] = (char)toupper((unsigned char)close[k]);
            upper[k] = '\0';
            fprintf(warn, "mupc: warning: environment %.*s is not a libmupc setting and is "
                    "ignored; did you mean MUPC_%s (%s)? (mupc-show-config --keys lists them)\n",
                    (int)len, var, upper, close);
        }
    }
    return unknown;
}

static const char *system_getenv(const char *name) { return getenv(name); }

static int readable(const char *path) { return access(path, R_OK) == 0; }

extern char **environ;

int mupci_config_load(mupci_config_t *cfg, char *used, size_t usedlen, FILE *warn, char *err,
                      size_t errlen)
{
    mupci_config_defaults(cfg);
    used[0] = '\0';
    const char *conf = getenv("MUPC_CONF");
    char home_conf[512] = "";
    const char *home = getenv("HOME");
    if (home != NULL)
        snprintf(home_conf, sizeof home_conf, "%s/.mupc.conf", home);

    const char *file = NULL;
    if (conf != NULL && *conf != '\0')
        file = conf; /* named explicitly: must be readable */
    else if (readable("mupc.conf"))
        file = "mupc.conf";
    else if (home_conf[0] && readable(home_conf))
        file = home_conf;
    if (file == conf && conf != NULL && !readable(conf)) {
        say(err, errlen, "MUPC_CONF: cannot read configuration file '%s': %s; "
            "point MUPC_CONF at a readable file, or unset it", conf, strerror(errno));
        return -1;
    }
    if (file != NULL) {
        if (mupci_config_parse_file(cfg, file, warn, err, errlen) != 0) {
            if (file == conf) /* say where the name came from */
                snprintf(err + strlen(err), errlen - strlen(err), " (from MUPC_CONF)");
            return -1;
        }
        snprintf(used, usedlen, "%s", file);
    }
    if (mupci_config_apply_env(cfg, system_getenv, err, errlen) != 0)
        return -1;
    mupci_config_check_env(environ, warn);
    return 0;
}

/* ---- the computed segment size ---- */

/* A cgroup's memory limit (v2, then v1), or 0 when none is set. */
static unsigned long long cgroup_memory_limit(void)
{
    static const char *const files[] = {"/sys/fs/cgroup/memory.max",
                                        "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = fopen(files[i], "r");
        unsigned long long v = 0;
        int got = f && fscanf(f, "%llu", &v) == 1; /* "max" reads as no number */
        if (f)
            fclose(f);
        if (got)
            return v;
    }
    return 0;
}

size_t mupci_config_node_memory(const char **source)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    unsigned long long physical = pages > 0 && page > 0 ? (unsigned long long)pages * page : 0;
    unsigned long long limit = cgroup_memory_limit();
    *source = "memory";
    if (limit > 0 && (physical == 0 || limit < physical)) {
        *source = "memory (cgroup limit)";
        return (size_t)limit;
    }
    return (size_t)physical;
}

/* Short, rounded text for a byte count: "23.5 GiB", "512 MiB". */
static void format_memory(char *buf, size_t len, size_t bytes)
{
    if (bytes >= (size_t)GiB)
        snprintf(buf, len, "%.1f GiB", (double)bytes / (double)GiB);
    else
        snprintf(buf, len, "%zu MiB", bytes / (size_t)MiB);
}

enum { AUTO_STEP = 64 * MiB };
#define AUTO_MIN (64 * MiB)  /* the former fixed default: small nodes keep it */
#define AUTO_MAX (16 * GiB)  /* address space, not memory: a sane bound per thread */

size_t mupci_config_auto_segment(size_t memory, const char *source, int threads_on_node,
                                 char *why, size_t whylen)
{
    if (threads_on_node < 1)
        threads_on_node = 1;
    /* A quarter stays for the threads' private memory and the system; the
     * pages are only used when touched, so this costs nothing until then. */
    unsigned long long share = (unsigned long long)memory / 4 * 3 / (unsigned)threads_on_node;
    share = share / AUTO_STEP * AUTO_STEP;
    if (share < (unsigned long long)AUTO_MIN)
        share = AUTO_MIN;
    if (share > (unsigned long long)AUTO_MAX)
        share = AUTO_MAX;
    char mem[32];
    format_memory(mem, sizeof mem, memory);
    snprintf(why, whylen, "3/4 of %s %s / %d thread%s on this node, in 64M steps, 64M..16G", mem,
             source, threads_on_node, threads_on_node == 1 ? "" : "s");
    return (size_t)share;
}

void mupci_config_set_auto_segment(mupci_config_t *cfg, size_t bytes, const char *why)
{
    char *origin = cfg->origin[find_setting("segment_size") - settings];
    /* after "default", or after where "auto" was written */
    size_t at = strlen(origin);
    snprintf(origin + at, MUPCI_CONFIG_ORIGIN_MAX - at, "%s: %s",
             strcmp(origin, "default") == 0 ? "" : " (auto)", why);
    cfg->segment_size = bytes;
}

/* ---- output ---- */

void mupci_config_print(FILE *out, const mupci_config_t *cfg)
{
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        char value[32], line[96];
        format_value(value, sizeof value, &settings[i], fetch(cfg, &settings[i]));
        snprintf(line, sizeof line, "%s = %s", settings[i].name, value);
        fprintf(out, "  %-32s # %s\n", line, cfg->origin[i]);
    }
}

void mupci_config_write_example(FILE *out)
{
    fprintf(out, "# mupc.conf.example -- every libmupc setting with its default and range.\n"
                 "# Copy to ./mupc.conf or ~/.mupc.conf (or point MUPC_CONF at it) and edit;\n"
                 "# MUPC_<KEY> environment variables (mupcrun --set key=value) override it.\n"
                 "# Sizes take the suffixes K, M, G, T (powers of 1024).\n"
                 "# Generated by: mupc-show-config --example\n");
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        const setting_t *s = &settings[i];
        char def[32], allowed[160];
        format_value(def, sizeof def, s, s->def);
        format_allowed(allowed, sizeof allowed, s);
        fprintf(out, "\n# %s\n# default %s; allowed %s\n%s = %s\n", s->help, def, allowed,
                s->name, def);
    }
}

const char *mupci_config_key_name(int i)
{
    return i >= 0 && i < MUPCI_CONFIG_KEYS ? settings[i].name : NULL;
}
