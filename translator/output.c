/* SPDX-License-Identifier: MIT */
/* output.c -- step 5 of mupc-translate (see main.c): the prologue that
 * includes the runtime's headers, the user's system headers re-included,
 * and the assembled output. */
#define _GNU_SOURCE /* memmem */
#include "translate.h"
#include "prelex.h"
#include "regions.h"
#include "rewrite.h"
#include "text.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- 5. output ---- */

static const char prologue[] =
    "/* the runtime's C layer: UPC's library names over mupc.h */\n#define MUPC_TRANSLATED_UPC 1\n#include <mupc_upc.h>\n#include <upc_types.h>\n#include <stddef.h>\n#include <stdio.h>\n"
    "/* sizeof of a pointer-to-shared (translator/rewrite_sizeof.c) */\ntypedef mupc_ptr_t __mupc_pts_size_t;\n"
    "/* THREADS, MYTHREAD and the inline-access window are set once by the\n"
    " * runtime before main and never change: read-only views of the same\n"
    " * symbols let the compiler keep them in registers across the runtime's\n"
    " * calls (a loop with a remote path would reload them every iteration) */\n"
    "extern const int __mupc_ro_threads __asm__(\"mupc_threads\");\n"
    "extern const int __mupc_ro_mythread __asm__(\"mupc_mythread\");\n"
    "extern char *const __mupc_ro_local_base __asm__(\"mupc_local_base\");\n"
    "extern const uint64_t __mupc_ro_local_low __asm__(\"mupc_local_low\");\n"
    "extern const uint64_t __mupc_ro_local_span __asm__(\"mupc_local_span\");\n"
    "extern const uint32_t __mupc_ro_local_thread __asm__(\"mupc_local_thread\");\n"
    "extern const uint64_t __mupc_ro_threads_magic __asm__(\"mupc_threads_magic\");\n"
    "extern char *const *const __mupc_ro_thread_base __asm__(\"mupc_thread_base\");\n"
    "#define mupc_threads __mupc_ro_threads\n"
    "#define mupc_mythread __mupc_ro_mythread\n"
    "#define mupc_local_base __mupc_ro_local_base\n"
    "#define mupc_local_low __mupc_ro_local_low\n"
    "#define mupc_local_span __mupc_ro_local_span\n"
    "#define mupc_local_thread __mupc_ro_local_thread\n"
    "#define mupc_threads_magic __mupc_ro_threads_magic\n"
    "#define mupc_thread_base __mupc_ro_thread_base\n"
    "/* upc_forall nesting: an inner upc_forall runs every iteration (UPC 1.3 §6.6.2) */\n"
    "__attribute__((weak)) int mupc_xlate_forall_depth;\n"
    "static inline int __mupc_forall_enter(void) { return ++mupc_xlate_forall_depth; }\n"
    "static inline void __mupc_forall_leave(int *depth) { (void)depth; --mupc_xlate_forall_depth; }\n"
    "static inline int __mupc_affinity(long long i)\n"
    "{ long long t = mupc_threads; return (int)(((i % t) + t) % t) == mupc_mythread; }\n"
    "/* a relaxed access that may be a plain load or store (mupc.h) */\n"
    "/* GASP_UPC_FORALL and GASP_C_FUNC (mupc-translate --gasp): the end event\n"
    " * from a cleanup, so a return or break out of the statement raises it too */\n"
    "struct __mupc_site { const char *name, *file; int line; };\n"
    "static inline struct __mupc_site __mupc_func_enter(struct __mupc_site s)\n"
    "{ mupc_func_start(s.name, s.file, s.line); return s; }\n"
    "static inline void __mupc_func_leave(struct __mupc_site *s) { mupc_func_end(s->name, s->file, s->line); }\n"
    "static inline struct __mupc_site __mupc_forall_gasp_enter(struct __mupc_site s)\n"
    "{ mupc_forall_start(s.file, s.line); return s; }\n"
    "static inline void __mupc_forall_gasp_leave(struct __mupc_site *s) { mupc_forall_end(s->file, s->line); }\n"
    "static inline __attribute__((always_inline)) int __mupc_local(mupc_ptr_t p, size_t n)\n"
    "{ return __builtin_expect(p.thread == mupc_local_thread &&\n"
    "                          p.addr - mupc_local_low <= mupc_local_span - n, 1); }\n"
    "/* where a relaxed access of n bytes through p may load or store: this\n"
    " * thread's segment, or another's mapped on this node (mupc.h); NULL when\n"
    " * the runtime must do it (another node, a GASP tool, checks = bounds,\n"
    " * an out-of-range pointer, which the runtime then reports) */\n"
    "static inline __attribute__((always_inline)) char *__mupc_node_at(mupc_ptr_t p, size_t n)\n"
    "{ char *base = p.thread < (uint32_t)mupc_threads ? mupc_thread_base[p.thread] : (char *)0;\n"
    "  return base && p.addr - mupc_local_low <= mupc_local_span - n ? base + p.addr : (char *)0; }\n"
    "static inline __attribute__((always_inline)) char *__mupc_at(mupc_ptr_t p, size_t n)\n"
    "{ return __mupc_local(p, n) ? mupc_local_base + p.addr : __mupc_node_at(p, n); }\n"
    "/* a versioned loop's elements lo..hi (or hi..lo) of size n after p, in\n"
    " * p's segment (an indefinite layout): where element 0 is here, when both\n"
    " * ends, and so all between, are in the segment and mapped here; else\n"
    " * NULL (translator/rewrite_version.c).  |lo| and |hi| at most 2^62 / n\n"
    " * (a constant: n is a sizeof), so their byte offsets cannot overflow;\n"
    " * 2 compares where __builtin_mul_overflow made NAS MG 7 % slower */\n"
    "static inline __attribute__((always_inline)) char *\n"
    "__mupc_span_at(mupc_ptr_t p, ptrdiff_t lo, ptrdiff_t hi, size_t n)\n"
    "{ const uint64_t lim = ((uint64_t)1 << 62) / n; mupc_ptr_t a = p, b = p;\n"
    "  if ((uint64_t)lo + lim > 2 * lim || (uint64_t)hi + lim > 2 * lim) return (char *)0;\n"
    "  a.addr += (uint64_t)lo * n; b.addr += (uint64_t)hi * n;\n"
    "  char *at = __mupc_at(a, n); return at && __mupc_at(b, n) ? at - (uint64_t)lo * n : (char *)0; }\n"
    "/* element i of a shared array whose element 0 is base (thread 0, phase 0):\n"
    " * mupc_ptr_index inline, dividing by THREADS with a multiplication (exact\n"
    " * below 2^32 blocks; beyond, off by at most one, and such an element lies\n"
    " * outside every segment, which the runtime's range check reports) */\n"
    "static inline __attribute__((always_inline)) size_t __mupc_div_threads(size_t n)\n"
    "#ifdef __MUPC_FIXED_THREADS\n"
    "{ return n / __MUPC_FIXED_THREADS; }\n"
    "#else\n"
    "{ return mupc_threads == 1 ? n : (size_t)(((unsigned __int128)n * mupc_threads_magic) >> 64); }\n"
    "#endif\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_index(mupc_ptr_t base, ptrdiff_t i, size_t elem, size_t block)\n"
    "{ if (i < 0) return mupc_ptr_add(base, i, elem, block);\n"
    "  if (!block) { base.addr += (size_t)i * elem; return base; }\n"
    "  size_t blk = (size_t)i / block, phase = (size_t)i % block, row = __mupc_div_threads(blk);\n"
    "  base.thread = (uint32_t)(blk - row * (size_t)mupc_threads);\n"
    "  base.addr += (row * block + phase) * elem; base.phase = (uint32_t)phase; return base; }\n"
    "/* p + n: mupc_ptr_add inline for n >= 0 (a constant block size makes\n"
    " * the block arithmetic shifts or multiplications; THREADS divides by\n"
    " * the same multiplication as above) */\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_add(mupc_ptr_t p, ptrdiff_t n, size_t elem, size_t block)\n"
    "{ if (!block) { p.addr += (uint64_t)n * elem; return p; }\n"
    "  if (n < 0) return mupc_ptr_add(p, n, elem, block);\n"
    "  if (block == 1) { /* cyclic: the phase is always 0 */\n"
    "    size_t t = p.thread + (size_t)n, rows = __mupc_div_threads(t);\n"
    "    p.addr += rows * elem; p.thread = (uint32_t)(t - rows * (size_t)mupc_threads); return p; }\n"
    "  size_t pos = p.phase + (size_t)n, blocks = pos / block, phase = pos % block;\n"
    "  size_t t = p.thread + blocks, rows = __mupc_div_threads(t);\n"
    "  p.addr += (rows * block + phase - p.phase) * elem;\n"
    "  p.thread = (uint32_t)(t - rows * (size_t)mupc_threads); p.phase = (uint32_t)phase; return p; }\n"
    "/* p + (X * THREADS + MYTHREAD) for a pointer p to a cyclic array: when\n"
    " * p is on thread 0, this thread's X-th element from p */\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_add_own(mupc_ptr_t p, ptrdiff_t x, size_t elem)\n"
    "{ if (p.thread != 0 || x < 0) return __mupc_add(p, x * mupc_threads + mupc_mythread, elem, 1);\n"
    "  p.addr += (size_t)x * elem; p.thread = (uint32_t)mupc_mythread; return p; }\n"
    "/* this thread's part of a cyclic array from p, looked up once before a\n"
    " * loop (translator/rewrite_hoist.c): when p is on thread 0, p[X * THREADS\n"
    " * + MYTHREAD] with 0 <= X < bytes / elem is at base + X * elem, exactly\n"
    " * where __mupc_add_own and __mupc_local would find it; bytes is 0 when\n"
    " * every access must go through the runtime */\n"
    "typedef struct { char *base; uint64_t bytes; } __mupc_own_t;\n"
    "static inline __attribute__((always_inline)) __mupc_own_t __mupc_own_view(mupc_ptr_t p)\n"
    "{ __mupc_own_t v = {(char *)0, 0}; uint64_t off = p.addr - mupc_local_low;\n"
    "  if (p.thread == 0 && p.phase == 0 && mupc_local_thread == (uint32_t)mupc_mythread &&\n"
    "      off <= mupc_local_span) { v.base = mupc_local_base + p.addr; v.bytes = mupc_local_span - off; }\n"
    "  return v; }\n"
    "/* p + (X * K + J) for a pointer p to an array of block size B: when K is\n"
    " * B, p starts a block, 0 <= J < B and the X-th thread after p's exists,\n"
    " * element J of that thread's block in p's row */\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_add_block(mupc_ptr_t p, ptrdiff_t x, ptrdiff_t k, ptrdiff_t j, size_t elem, size_t block)\n"
    "{ if ((size_t)k != block || p.phase != 0 || (size_t)j >= block ||\n"
    "      (size_t)x >= (size_t)mupc_threads - p.thread)\n"
    "    return __mupc_add(p, x * k + j, elem, block);\n"
    "  p.thread += (uint32_t)x; p.addr += (size_t)j * elem; p.phase = (uint32_t)j; return p; }\n"
    "/* element X * THREADS + MYTHREAD of a cyclic array: this thread's X-th */\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_index_own(mupc_ptr_t base, ptrdiff_t x, size_t elem)\n"
    "{ if (x < 0) return mupc_ptr_add(base, x * mupc_threads + mupc_mythread, elem, 1);\n"
    "  base.addr += (size_t)x * elem; base.thread = (uint32_t)mupc_mythread; base.phase = 0; return base; }\n"
    "/* a pointer-to-shared converted to an integer: its thread above bit 40,\n"
    " * its byte offset in that thread's segment below (page-aligned, so the\n"
    " * low bits keep the address's alignment); null gives 0; the phase is not\n"
    " * part of it, as it is not part of pointer equality */\n"
    "static inline uint64_t __mupc_ptr_bits(mupc_ptr_t p)\n"
    "{ return ((uint64_t)p.thread << 40) | p.addr; }\n"
    "/* mupc_ptr_is_null, mupc_ptr_equal and mupc_ptr_diff inline (pts.c) */\n"
    "static inline __attribute__((always_inline)) int __mupc_is_null(mupc_ptr_t p)\n"
    "{ return p.addr == 0 && p.thread == 0 && p.phase == 0; }\n"
    "static inline __attribute__((always_inline)) int __mupc_equal(mupc_ptr_t a, mupc_ptr_t b)\n"
    "{ return a.addr == b.addr && a.thread == b.thread; }\n"
    "static inline __attribute__((always_inline)) ptrdiff_t\n"
    "__mupc_diff(mupc_ptr_t a, mupc_ptr_t b, size_t elem, size_t block)\n"
    "{ int64_t e = (int64_t)elem, bs = (int64_t)block;\n"
    "  if (!block) return (ptrdiff_t)(((int64_t)a.addr - (int64_t)b.addr) / e);\n"
    "  int64_t rows = (((int64_t)a.addr - (int64_t)a.phase * e) - ((int64_t)b.addr - (int64_t)b.phase * e)) / (bs * e);\n"
    "  return (ptrdiff_t)((rows * mupc_threads + ((int64_t)a.thread - (int64_t)b.thread)) * bs +\n"
    "                     ((int64_t)a.phase - (int64_t)b.phase)); }\n"
    "static inline mupc_ptr_t __mupc_member(mupc_ptr_t p, size_t offset)\n"
    "{ p.addr += offset; p.phase = 0; return p; }\n"
    "/* upc_forall over its owned iterations (translator/rewrite_forall.c):\n"
    " * element x (>= 0) of a layout in blocks of b lies on thread (x / b) %\n"
    " * THREADS; the distance from x to the first element at or after it on\n"
    " * this thread, and how many of its block's elements are left from there */\n"
    "static inline size_t __mupc_forall_first(size_t x, size_t b, size_t *left)\n"
    "{ size_t t = (size_t)mupc_threads, skip = ((size_t)mupc_mythread + t - x / b % t) % t;\n"
    "  *left = skip ? b : b - x % b; return skip ? skip * b - x % b : 0; }\n"
    "/* the same for an integer affinity (UPC's rule for negative values) */\n"
    "static inline size_t __mupc_forall_first_int(long long lo)\n"
    "{ long long t = mupc_threads, r = ((lo % t) + t) % t; return (size_t)((mupc_mythread - r + t) % t); }\n"
    "/* element x's place in its thread's part: row * b + phase */\n"
    "static inline size_t __mupc_forall_local_index(size_t x, size_t b)\n"
    "{ return x / b / (size_t)mupc_threads * b + x % b; }\n"
    "/* whether this thread's part of a layout whose element 0's row starts at\n"
    " * offset row0, up to element x's row, lies in the segment: checked once\n"
    " * before a privatized loop, whose plain accesses check nothing (an\n"
    " * index past the segment takes the runtime's path, which reports it) */\n"
    "static inline int __mupc_forall_fits(uint64_t row0, size_t x, size_t b, size_t elem)\n"
    "{ size_t rows = x / b / (size_t)mupc_threads + 1;\n"
    "  return row0 >= mupc_local_low && rows <= mupc_local_span / (b * elem) &&\n"
    "         row0 - mupc_local_low + rows * b * elem <= mupc_local_span; }\n";

/* Remove the address-space attributes the prelexer wrote (what is left of
 * them qualifies types whose objects were rewritten, e.g. typedefs), and
 * write its `__typeof_unqual__(T)` (a typedef given another strictness)
 * as `__typeof__(T)`: T has no address space left, and the C compiler may
 * not know typeof_unqual. */
static void strip_spaces(strbuf_t *out, const char *s, size_t n)
{
    static const char attr[] = " __attribute__((address_space(";
    static const char unqual[] = "__typeof_unqual__(";
    for (size_t i = 0; i < n;) {
        if (n - i >= sizeof unqual - 1 && !memcmp(s + i, unqual, sizeof unqual - 1)) {
            sb_puts(out, "__typeof__(");
            i += sizeof unqual - 1;
            continue;
        }
        if (n - i >= sizeof attr - 1 && !memcmp(s + i, attr, sizeof attr - 1)) {
            const char *close = strstr(s + i, "))) ");
            if (close && (size_t)(close - s) < n) {
                i = (size_t)(close - s) + 4;
                continue;
            }
        }
        sb_add(out, s + i, 1);
        i++;
    }
}

/* How the output names a system header the user included: by its name in
 * the system include directories (<stdio.h>, <sys/types.h>), so that the
 * C compiler finds its own copy (clang's resource headers, marked or not,
 * are not gcc's, and gcc's <omp.h> is found again by gcc); by its path
 * when it lies elsewhere. */
/* path under dir: the name below it, or NULL */
static const char *below(const char *path, const char *dir)
{
    size_t n = dir ? strlen(dir) : 0;
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return n && !strncmp(path, dir, n) && path[n] == '/' ? path + n + 1 : NULL;
}

char *system_include(const options_t *o, const char *path)
{
    const char *name = below(path, o->resource_include), *p;
    if (!name)
        name = below(path, o->backend_links);
    char *mpi_dirs = xstrdup(MUPC_MPI_INCLUDE_DIRS);
    for (char *save = NULL, *d = strtok_r(mpi_dirs, ":", &save); d && !name; d = strtok_r(NULL, ":", &save))
        name = below(path, d); /* <mpi.h>, found again by mpicc */
    free(mpi_dirs);
    if (name)
        ;
    else if ((p = strstr(path, "/lib/clang/")) && (p = strstr(p, "/include/")))
        name = p + 9;
    else if (!strncmp(path, "/usr/local/include/", 19))
        name = path + 19;
    else if (!strncmp(path, "/usr/include/", 13)) {
        name = path + 13;
        const char *slash = strchr(name, '/');
        if (slash && memmem(name, (size_t)(slash - name), "-linux-", 7))
            name = slash + 1; /* the multiarch directory */
    }
    return name ? xasprintf("<%s>", name) : xasprintf("\"%s\"", path);
}

/* The UPC library headers: the prologue includes the runtime's, as the
 * prelude declares them all at translation time (programs written for
 * Berkeley UPC use upc_handle_t or upc_all_broadcast with <upc.h> alone),
 * except one the program has a header of its own for (a reference
 * implementation of the collectives defines upc_all_broadcast in its own
 * upc_collective.h, which the runtime's would make a macro). */
static const char *const upc_libraries[] = {
    "upc_collective.h", "upc_nb.h", "upc_atomic.h", "upc_castable.h", "upc_io.h", "upc_tick.h",
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void include_upc_libraries(strbuf_t *out, const regions_t *r)
{
    for (size_t i = 0; i < sizeof upc_libraries / sizeof *upc_libraries; i++) {
        int own = 0;
        for (size_t j = 0; j < r->n && !own; j++)
            own = r->v[j].kind == REGION_USER && !strcmp(base_name(r->v[j].file), upc_libraries[i]);
        if (!own)
            sb_printf(out, "#include <%s>\n", upc_libraries[i]);
    }
}

/* The prelude headers whose real counterparts the prologue leaves out:
 * the output includes them where the program does, so that a program
 * that does not include them keeps their names to itself. */
static const char *const prelude_libraries[] = {"bupc_extensions.h", "bupc_collectivev.h"};

static const char *prelude_library(const char *path)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    for (size_t i = 0; i < sizeof prelude_libraries / sizeof *prelude_libraries; i++)
        if (!strcmp(name, prelude_libraries[i]))
            return name;
    return NULL;
}

char *assemble(const char *text, const regions_t *r, const options_t *o, const char *macros)
{
    strbuf_t out;
    sb_init(&out);
    sb_printf(&out, "/* Translated from %s by mupc-translate (libmupc); do not edit. */\n", o->input);
    if (macros && *macros) /* before the first system header, as the program had them */
        sb_printf(&out, "/* the program's feature macros, for the system headers */\n%s", macros);
    if (o->static_threads) /* the prologue's divisions by THREADS: by a constant */
        sb_printf(&out, "#define __MUPC_FIXED_THREADS %d\n", o->static_threads);
    sb_puts(&out, prologue);
    include_upc_libraries(&out, r);
    if (o->implicit_bupc)
        sb_puts(&out, "#include <bupc_extensions.h>\n");
    if (o->implicit_assert)
        sb_puts(&out, "#include <assert.h>\n");
    if (o->static_threads) /* the runtime refuses a job of another size */
        sb_printf(&out, "__attribute__((constructor)) static void __mupc_static_threads(void)\n"
                        "{ mupc_static_threads(%d, \"%s\"); }\n",
                  o->static_threads, o->input);
    int hybrid = 0;
    for (size_t i = 0; i < r->n; i++) {
        const region_t *g = &r->v[i];
        if (g->system_entry) {
            char *inc = system_include(o, g->file);
            sb_printf(&out, "#include %s\n", inc);
            /* the program calls MPI (runtime/hybrid.c), however it names mpi.h */
            const char *base = strrchr(g->file, '/');
            if (!strcmp(base ? base + 1 : g->file, "mpi.h") && !hybrid++)
                sb_puts(&out, "__attribute__((constructor)) static void __mupc_mpi_hybrid(void) "
                              "{ mupc_mpi_hybrid(); }\n");
            free(inc);
        }
        if (g->prelude_entry && prelude_library(g->file))
            sb_printf(&out, "#include <%s>\n", prelude_library(g->file));
        if (!g->translated || g->end <= g->start)
            continue;
        sb_printf(&out, "#line %d \"%s\"\n", g->line, g->file);
        strip_spaces(&out, text + g->start, g->end - g->start);
    }
    return sb_take(&out);
}
