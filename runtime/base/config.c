/* SPDX-License-Identifier: MIT */
/*
 * config.c -- the settings table, its parser and its validation.
 *
 * Adding a setting means adding one row to settings.def: the field of
 * mupci_config_t, parsing, range checks, the environment variable,
 * --show-config, mupc.conf.example and mupc.conf(5) all follow from it.
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
    int flags;          /* MUPCI_SETTING_POW2, MUPCI_SETTING_AUTO */
    const char *words;  /* KIND_WORD: the spellings, '|' between them */
    const char *env;    /* MUPC_<KEY> */
    const char *units;  /* for the manual */
    const char *help;   /* one line */
    const char *more;   /* more for the manual, or "" */
    size_t offset;      /* of the field in mupci_config_t */
} setting_t;

#define KiB MUPCI_KiB
#define MiB MUPCI_MiB
#define GiB MUPCI_GiB

static const setting_t settings[MUPCI_CONFIG_KEYS] = {
#define MUPCI_SETTING(name, kind, def, min, max, flags, words, env, units, doc, more) \
    {#name, KIND_##kind, def, min, max, flags, words, env, units, doc, more,       \
     offsetof(mupci_config_t, name)},
#include "base/settings.def"
#undef MUPCI_SETTING
};

/* Word i of a KIND_WORD setting into buf (empty when there is none);
 * returns 0, or -1 past the last word. */
static int word_at(const setting_t *s, long long i, char *buf, size_t len)
{
    const char *w = s->words;
    for (long long k = 0; k < i && w; k++) {
        w = strchr(w, '|');
        if (w)
            w++;
    }
    buf[0] = '\0';
    if (w == NULL || *w == '\0')
        return -1;
    size_t n = strcspn(w, "|");
    snprintf(buf, len, "%.*s", (int)n, w);
    return 0;
}

/* Settings that also take the word "auto" (stored as 0, resolved at
 * start by mupci_config_resolve_segment). */
static int takes_auto(const setting_t *s) { return (s->flags & MUPCI_SETTING_AUTO) != 0; }

static int pow2(const setting_t *s) { return (s->flags & MUPCI_SETTING_POW2) != 0; }

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
        word_at(s, v, buf, len);
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
        char word[32];
        size_t used = 0;
        buf[0] = '\0';
        for (int i = 0; word_at(s, i, word, sizeof word) == 0 && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " or " : "", word);
        return;
    }
    char lo[32], hi[32];
    format_value(lo, sizeof lo, s, s->min);
    format_value(hi, sizeof hi, s, s->max);
    snprintf(buf, len, "%s..%s%s%s%s", lo, hi, pow2(s) ? ", a power of two" : "",
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

static int parse_word(const char *text, const setting_t *s, long long *out)
{
    char word[32];
    for (int i = 0; word_at(s, i, word, sizeof word) == 0; i++)
        if (strcasecmp(text, word) == 0) {
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
        return parse_word(text, s, out);
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
    if (pow2(s) && (v & (v - 1)) != 0) {
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
        const char *var = settings[i].env;
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
    "MUPC_SHOW_CONFIG", "MUPC_TRANSLATE", "MUPC_PRELUDE_DIR", "MUPC_RESOURCE_INCLUDE_DIR", NULL};
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

void mupci_config_set_auto(mupci_config_t *cfg, const char *key, long long value, const char *why)
{
    const setting_t *s = find_setting(key);
    char *origin = cfg->origin[s - settings];
    /* after "default", or after where "auto" was written */
    size_t at = strlen(origin);
    snprintf(origin + at, MUPCI_CONFIG_ORIGIN_MAX - at, "%s: %s",
             strcmp(origin, "default") == 0 ? "" : " (auto)", why);
    char *field = (char *)cfg + s->offset;
    if (s->kind == KIND_SIZE)
        *(size_t *)field = (size_t)value;
    else
        *(int *)field = (int)value;
}

void mupci_config_set_auto_segment(mupci_config_t *cfg, size_t bytes, const char *why)
{
    mupci_config_set_auto(cfg, "segment_size", (long long)bytes, why);
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

/* Text for man(7): backslashes doubled, nothing at a line's start that
 * roff would read as a request. */
static void man_text(FILE *out, const char *text)
{
    if (text[0] == '.' || text[0] == '\'')
        fputs("\\&", out);
    for (; *text; text++) {
        if (*text == '\\')
            fputs("\\e", out);
        else
            fputc(*text, out);
    }
}

void mupci_config_write_man(FILE *out)
{
    fprintf(out, ".\\\" Generated by mupc-show-config --man from runtime/base/settings.def.\n");
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        const setting_t *s = &settings[i];
        char def[32], allowed[160];
        format_value(def, sizeof def, s, s->def);
        format_allowed(allowed, sizeof allowed, s);
        fprintf(out, ".TP\n.BR %s \" = \" %s\n", s->name, def);
        man_text(out, s->help);
        fputs(".\nAllowed: ", out);
        man_text(out, allowed);
        if (s->units[0])
            fprintf(out, "; in %s", s->units);
        fprintf(out, ".\nEnvironment:\n.BR %s .\n", s->env);
        if (s->more[0]) {
            man_text(out, s->more);
            fputc('\n', out);
        }
    }
}

const char *mupci_config_key_name(int i)
{
    return i >= 0 && i < MUPCI_CONFIG_KEYS ? settings[i].name : NULL;
}

const char *mupci_config_key_env(int i)
{
    return i >= 0 && i < MUPCI_CONFIG_KEYS ? settings[i].env : NULL;
}
