/* SPDX-License-Identifier: MIT */
/* mark_headers.c -- mupc-mark-headers SRC DEST: clang's resource headers,
 * with every function-like macro marked, for the translator's
 * preprocessing (run by make; see translator/macros.h for why).
 *
 * The headers in clang's resource directory (<stdatomic.h>, <tgmath.h>,
 * <stddef.h>, the intrinsics) belong to clang: their macros expand to
 * clang's builtins (__c11_atomic_fetch_add, __tg_sqrt), which the C
 * compiler behind mpicc may not have.  DEST gets a copy of the directory
 * (a symbolic link for each file with nothing to mark) in which
 *
 *   #define NAME(a, b) BODY
 *
 * becomes, on one line (the newlines of a continued definition follow it,
 * so that line numbers stay),
 *
 *   #define NAME(a, b) __mupc_mb_ NAME(a, b) __mupc_mx_ BODY' __mupc_me_
 *
 * NAME is not expanded again inside its own expansion (C99 §6.10.3.4), so
 * the preprocessed text holds the invocation, with its arguments expanded,
 * beside clang's expansion; in BODY' each use of a parameter is wrapped,
 * `__mupc_a0_ a __mupc_ae_`, so that the translator can find each
 * argument's translated text in the translated expansion.  A parameter is
 * not wrapped where the wrapper would change what the macro does: next to
 * # or ##, followed by `(` (a macro name passed in), or passed to another
 * macro that does one of these with it (found by a fixed point over all
 * the headers' macros).  Names starting with two underscores are the
 * headers' own helpers, used inside other macros and in #if (where a
 * marker is not an expression), and are left as they are; so are
 * object-like macros, whose expansions are the constants, keywords and
 * types of the platform's ABI that both compilers share.  An object-like
 * alias of a function (`#define atomic_fetch_add_explicit
 * __c11_atomic_fetch_add`) is marked like a function-like macro, but not
 * an alias of another macro (`#define LONG_MAX __LONG_MAX__`, `#define
 * ATOMIC_INT_LOCK_FREE __CLANG_ATOMIC_INT_LOCK_FREE`): that one is a
 * constant, which programs test in #if.  What is a macro: any name the
 * headers define, and clang's predefined macros (the optional third
 * argument, the output of `clang -dM -E`). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_PARAMS 64

typedef struct macro {
    char *name;
    int nparams;
    char *params[MAX_PARAMS]; /* "__VA_ARGS__" for ... */
    char *body;               /* comments turned to spaces, one line */
    unsigned unsafe;          /* bit i: parameter i must not be wrapped */
} macro_t;

static macro_t *macros;
static size_t nmacros;

/* Every name the headers #define, and clang's predefined macros: sorted
 * once read, for defined_name(). */
static char **defined;
static size_t ndefined;

static void die(const char *what, const char *path)
{
    fprintf(stderr, "mupc-mark-headers: %s %s: %s\n", what, path, strerror(errno));
    exit(1);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fputs("mupc-mark-headers: out of memory\n", stderr);
        exit(1);
    }
    return p;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot read", path);
    char *s = NULL;
    size_t n = 0, cap = 0, got;
    do {
        cap = cap * 2 + 65536;
        s = xrealloc(s, cap + 1);
        got = fread(s + n, 1, cap - n, f);
        n += got;
    } while (n == cap);
    fclose(f);
    s[n] = 0;
    *len = n;
    return s;
}

/* ---- tokens of a macro body ---- */

typedef struct {
    const char *s;
    size_t n;
} tok_t;

static int is_id(int c) { return isalnum(c) || c == '_'; }

/* The next token of s from *p, skipping spaces; n == 0 at the end. */
static tok_t next_token(const char *s, size_t *p)
{
    while (s[*p] && isspace((unsigned char)s[*p]))
        (*p)++;
    tok_t t = {s + *p, 0};
    const char *c = s + *p;
    if (!*c)
        return t;
    if (is_id((unsigned char)*c)) {
        while (is_id((unsigned char)c[t.n]) || (isdigit((unsigned char)*c) && c[t.n] == '.'))
            t.n++;
    } else if (*c == '"' || *c == '\'') {
        for (t.n = 1; c[t.n] && c[t.n] != *c; t.n++)
            if (c[t.n] == '\\' && c[t.n + 1])
                t.n++;
        t.n += c[t.n] != 0;
    } else
        t.n = (c[0] == '#' && c[1] == '#') ? 2 : 1;
    *p += t.n;
    return t;
}

static int tok_eq(tok_t t, const char *w) { return t.n == strlen(w) && !memcmp(t.s, w, t.n); }

static int param_index(const macro_t *m, tok_t t)
{
    for (int i = 0; i < m->nparams; i++)
        if (tok_eq(t, m->params[i]))
            return i;
    return -1;
}

static int tok_cmp(tok_t t, const char *name)
{
    int c = strncmp(t.s, name, t.n);
    return c ? c : -(name[t.n] != 0);
}

/* The first definition named t (macros is sorted by name), or NULL. */
static macro_t *find_macro(tok_t t)
{
    size_t lo = 0, hi = nmacros;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tok_cmp(t, macros[mid].name) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nmacros && tok_eq(t, macros[lo].name) ? &macros[lo] : NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const macro_t *)a)->name, ((const macro_t *)b)->name);
}

/* ---- one definition ---- */

/* The logical line at *p (continuations joined, comments as spaces) and
 * how many physical lines it spans; *p moves past it. */
static char *logical_line(const char *s, size_t *p, int *lines)
{
    size_t cap = 256, n = 0;
    char *out = xrealloc(NULL, cap);
    *lines = 1;
    while (s[*p] && s[*p] != '\n') {
        if (n + 2 >= cap)
            out = xrealloc(out, cap *= 2);
        if (s[*p] == '\\' && s[*p + 1] == '\n') {
            *p += 2, (*lines)++;
            continue;
        }
        if (s[*p] == '/' && s[*p + 1] == '*') {
            for (*p += 2; s[*p] && !(s[*p] == '*' && s[*p + 1] == '/'); (*p)++)
                *lines += s[*p] == '\n';
            *p += s[*p] ? 2 : 0;
            out[n++] = ' ';
            continue;
        }
        if (s[*p] == '/' && s[*p + 1] == '/') {
            while (s[*p] && s[*p] != '\n')
                (*p)++;
            break;
        }
        if (s[*p] == '"' || s[*p] == '\'') { /* keep a literal whole */
            char q = s[*p];
            out[n++] = s[(*p)++];
            while (s[*p] && s[*p] != q && s[*p] != '\n') {
                if (n + 3 >= cap)
                    out = xrealloc(out, cap *= 2);
                if (s[*p] == '\\' && s[*p + 1])
                    out[n++] = s[(*p)++];
                out[n++] = s[(*p)++];
            }
            if (s[*p] == q)
                out[n++] = s[(*p)++];
            continue;
        }
        out[n++] = s[(*p)++];
    }
    out[n] = 0;
    return out;
}

/* The name a `#define NAME...` line defines (any kind), its end in *end;
 * NULL for another line. */
static const char *defined_by(const char *line, const char **end)
{
    const char *c = line;
    while (isspace((unsigned char)*c))
        c++;
    if (*c++ != '#')
        return NULL;
    while (isspace((unsigned char)*c))
        c++;
    if (strncmp(c, "define", 6) || !isspace((unsigned char)c[6]))
        return NULL;
    for (c += 6; isspace((unsigned char)*c); c++)
        ;
    const char *name = c;
    while (is_id((unsigned char)*c))
        c++;
    *end = c;
    return c == name ? NULL : name;
}

/* A function-like definition `#define NAME(params) body` in line, or 0. */
static int parse_definition(const char *line, macro_t *m)
{
    const char *c;
    const char *name = defined_by(line, &c);
    if (!name)
        return 0;
    if (*c != '(') { /* an alias of a function, `#define atomic_fetch_add_explicit __c11_atomic_fetch_add` */
        const char *body = c;
        while (isspace((unsigned char)*body))
            body++;
        const char *end = body;
        while (is_id((unsigned char)*end))
            end++;
        const char *rest = end;
        while (isspace((unsigned char)*rest))
            rest++;
        if (end == body || *rest || isdigit((unsigned char)*body) || strncmp(body, "__", 2))
            return 0;
        memset(m, 0, sizeof *m);
        m->name = strndup(name, (size_t)(c - name));
        m->nparams = -1;
        m->body = strndup(body, (size_t)(end - body));
        return 1;
    }
    memset(m, 0, sizeof *m);
    m->name = strndup(name, (size_t)(c - name));
    size_t p = (size_t)(c + 1 - line);
    for (;;) {
        tok_t t = next_token(line, &p);
        if (!t.n)
            return 0;
        if (tok_eq(t, ")"))
            break;
        if (tok_eq(t, ","))
            continue;
        if (m->nparams == MAX_PARAMS)
            return 0;
        if (tok_eq(t, ".")) { /* ... */
            p += 2;
            m->params[m->nparams++] = strdup("__VA_ARGS__");
        } else {
            size_t q = p;
            tok_t dots = next_token(line, &q);
            if (tok_eq(dots, ".")) /* a named variadic parameter, GNU's `args...` */
                return 0;
            m->params[m->nparams++] = strndup(t.s, t.n);
        }
    }
    while (isspace((unsigned char)line[p]))
        p++;
    m->body = strdup(line + p);
    return 1;
}

/* ---- which parameters may be wrapped ---- */

/* Mark in m->unsafe each parameter used next to # or ##, before `(`, or
 * in an argument of a call to a macro whose parameter there is unsafe;
 * 1 when something changed. */
static int find_unsafe(macro_t *m)
{
    unsigned before = m->unsafe;
    tok_t prev = {"", 0};
    size_t p = 0;
    for (tok_t t = next_token(m->body, &p); t.n; prev = t, t = next_token(m->body, &p)) {
        int i = param_index(m, t);
        size_t q = p;
        tok_t after = next_token(m->body, &q);
        if (i >= 0 && (tok_eq(prev, "#") || tok_eq(prev, "##") || tok_eq(after, "##") || tok_eq(after, "(")))
            m->unsafe |= 1u << i;
        macro_t *callee = i < 0 ? find_macro(t) : NULL;
        if (!callee || !tok_eq(after, "("))
            continue;
        int arg = 0, depth = 0; /* the call's arguments */
        for (q = p;;) {
            tok_t a = next_token(m->body, &q);
            if (!a.n)
                break;
            if (tok_eq(a, "(") && ++depth)
                continue;
            if (tok_eq(a, ")") && --depth == 0)
                break;
            if (tok_eq(a, ",") && depth == 1) {
                arg += arg + 1 < callee->nparams;
                continue;
            }
            int k = param_index(m, a);
            if (k >= 0 && arg < callee->nparams && (callee->unsafe >> arg & 1))
                m->unsafe |= 1u << k;
        }
    }
    return m->unsafe != before;
}

/* Until nothing changes; same-named definitions (one per #if branch)
 * share their unsafe parameters, kept in the first. */
static void settle_unsafe(void)
{
    qsort(macros, nmacros, sizeof *macros, by_name);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < nmacros; i++) {
            changed |= find_unsafe(&macros[i]);
            macro_t *first = find_macro((tok_t){macros[i].name, strlen(macros[i].name)});
            if ((first->unsafe | macros[i].unsafe) != first->unsafe)
                first->unsafe |= macros[i].unsafe, changed = 1;
        }
        for (size_t i = 0; i < nmacros; i++)
            macros[i].unsafe |= find_macro((tok_t){macros[i].name, strlen(macros[i].name)})->unsafe;
    }
}

/* The unsafe parameters of m's name. */
static unsigned unsafe_of(const macro_t *m)
{
    const macro_t *k = find_macro((tok_t){m->name, strlen(m->name)});
    return k ? k->unsafe : ~0u;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name is a macro: defined by the headers or by clang, or named
 * as predefined macros are (`__X__`, `__CLANG_X`, `__GCC_X`: clang
 * predefines some, such as __FLT_EVAL_METHOD__, without listing them in
 * clang -dM -E, and some only for C++). */
static int defined_name(const char *name)
{
    size_t n = strlen(name);
    if ((n > 4 && !strncmp(name, "__", 2) && !strcmp(name + n - 2, "__")) ||
        !strncmp(name, "__CLANG_", 8) || !strncmp(name, "__GCC_", 6))
        return 1;
    return bsearch(&name, defined, ndefined, sizeof *defined, compare_names) != NULL;
}

/* Whether m is marked: not one of the headers' `__` helpers, and not an
 * alias of another macro (see the top of this file). */
static int markable(const macro_t *m)
{
    return strncmp(m->name, "__", 2) != 0 && (m->nparams >= 0 || !defined_name(m->body));
}

/* ---- the files ---- */

static void write_marked(FILE *f, const macro_t *m, int lines)
{
    if (m->nparams < 0) { /* an alias: NAME stands for itself */
        fprintf(f, "#define %s __mupc_mb_ %s __mupc_mx_ %s __mupc_me_\n", m->name, m->name, m->body);
        for (int i = 1; i < lines; i++)
            fputc('\n', f);
        return;
    }
    fprintf(f, "#define %s(", m->name);
    for (int i = 0; i < m->nparams; i++)
        fprintf(f, "%s%s", i ? ", " : "", strcmp(m->params[i], "__VA_ARGS__") ? m->params[i] : "...");
    fprintf(f, ") __mupc_mb_ %s(", m->name);
    for (int i = 0; i < m->nparams; i++)
        fprintf(f, "%s%s", i ? ", " : "", m->params[i]);
    fputs(") __mupc_mx_ ", f);
    size_t p = 0, last = 0;
    for (tok_t t = next_token(m->body, &p); t.n; t = next_token(m->body, &p)) {
        int i = param_index(m, t);
        size_t start = (size_t)(t.s - m->body);
        fwrite(m->body + last, 1, start - last, f);
        if (i >= 0 && !(m->unsafe >> i & 1))
            fprintf(f, " __mupc_a%d_ %.*s __mupc_ae_ ", i, (int)t.n, t.s);
        else
            fwrite(t.s, 1, t.n, f);
        last = p;
    }
    fputs(" __mupc_me_\n", f);
    for (int i = 1; i < lines; i++)
        fputc('\n', f);
}

/* Add the name a `#define NAME ...` line defines (any kind) to defined. */
static void note_defined(const char *line)
{
    const char *c;
    const char *name = defined_by(line, &c);
    if (!name)
        return;
    defined = xrealloc(defined, (ndefined + 1) * sizeof *defined);
    defined[ndefined++] = strndup(name, (size_t)(c - name));
}

/* Call fn on each definition of text; with out, write the marked text. */
static int each_definition(const char *text, FILE *out, int collect)
{
    int marked = 0;
    for (size_t p = 0; text[p];) {
        size_t start = p;
        int lines;
        char *line = logical_line(text, &p, &lines);
        macro_t m;
        int def = parse_definition(line, &m);
        if (collect)
            note_defined(line);
        if (def && collect) {
            macros = xrealloc(macros, (nmacros + 1) * sizeof *macros);
            macros[nmacros++] = m;
        }
        if (def && markable(&m)) {
            marked = 1;
            if (out) {
                m.unsafe = unsafe_of(&m);
                write_marked(out, &m, lines);
            }
        } else if (out)
            fwrite(text + start, 1, p - start + (text[p] == '\n'), out);
        else if (def && !collect)
            free(m.body);
        free(line);
        p += text[p] == '\n';
    }
    return marked;
}

static int header_name(const char *name)
{
    size_t n = strlen(name);
    return n > 2 && !strcmp(name + n - 2, ".h");
}

/* The resource directory's own headers (subdirectories are for other
 * languages and tools). */
static char **list_headers(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    if (!d)
        die("cannot open", dir);
    char **v = NULL;
    *n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') {
            v = xrealloc(v, (*n + 1) * sizeof *v);
            v[(*n)++] = strdup(e->d_name);
        }
    closedir(d);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) {
        fputs("usage: mupc-mark-headers CLANG_RESOURCE_INCLUDE_DIR DEST_DIR [PREDEFINED_MACROS]\n"
              "  (PREDEFINED_MACROS: the output of clang -dM -E -x c /dev/null)\n", stderr);
        return 2;
    }
    const char *src = argv[1], *dest = argv[2];
    if (argc == 4) {
        size_t len;
        char *text = read_file(argv[3], &len);
        for (size_t p = 0; text[p];) {
            int lines;
            char *line = logical_line(text, &p, &lines);
            note_defined(line);
            free(line);
            p += text[p] == '\n';
        }
        free(text);
    }
    size_t n;
    char **names = list_headers(src, &n);
    char **texts = calloc(n, sizeof *texts);
    for (size_t i = 0; i < n; i++) {
        char *path;
        struct stat st;
        if (asprintf(&path, "%s/%s", src, names[i]) < 0 || stat(path, &st) != 0)
            die("cannot stat", names[i]);
        size_t len;
        if (header_name(names[i]) && S_ISREG(st.st_mode))
            each_definition(texts[i] = read_file(path, &len), NULL, 1);
        free(path);
    }
    qsort(defined, ndefined, sizeof *defined, compare_names);
    settle_unsafe();
    if (mkdir(dest, 0755) != 0 && errno != EEXIST)
        die("cannot make", dest);
    for (size_t i = 0; i < n; i++) {
        char *from, *to;
        if (asprintf(&from, "%s/%s", src, names[i]) < 0 || asprintf(&to, "%s/%s", dest, names[i]) < 0)
            return 1;
        unlink(to);
        if (texts[i] && each_definition(texts[i], NULL, 0)) {
            FILE *f = fopen(to, "w");
            if (!f)
                die("cannot write", to);
            each_definition(texts[i], f, 0);
            if (fclose(f) != 0)
                die("cannot write", to);
        } else if (symlink(from, to) != 0)
            die("cannot link", to);
        free(from);
        free(to);
    }
    return 0;
}
