/* SPDX-License-Identifier: MIT */
/*
 * check_prelex.c -- the translator's token pass (translator/prelex.c): UPC
 * syntax in the user's regions becomes parseable C with the layout in an
 * address space, every newline kept; system regions stay untouched.
 */
#include "prelex.h"
#include "regions.h"
#include "text.h"

#include "run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

static prelex_t p;
static regions_t r;

/* The prelexed text of a user file's text (line markers added). */
static char *run(const char *user, int static_threads)
{
    char *text = xasprintf("# 1 \"prog.upc\"\n%s", user);
    regions_build(&r, text, strlen(text), "/prelude");
    prelex_init(&p, static_threads);
    char *out = prelex_run(&p, text, strlen(text), &r);
    free(text);
    return out;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

START_TEST(layouts_in_address_spaces)
{
    char *out = run("shared int a;\nstrict shared [4] double b[4*mupc_threads];\nrelaxed shared [] long c[8];\n"
                    "shared [*] int d[2*mupc_threads];\nshared [4] int *p;\n", 0);
    ck_assert_ptr_nonnull(strstr(out, "__attribute__((address_space(16384)))  int a;"));
    ck_assert_int_eq(lines(out), 6); /* the marker line and five lines: none added or lost */
    /* layout 0 is the default (block 1); each other combination of block
     * size and access gets its own entry, in order of appearance */
    const layout_t *b = prelex_layout(&p, LAYOUT_BASE + 1);
    ck_assert_ptr_nonnull(b);
    ck_assert_int_eq(b->kind, BLOCK_NUMBER);
    ck_assert_str_eq(b->block, "4");
    ck_assert_int_eq(b->access, ACCESS_STRICT);
    const layout_t *c = prelex_layout(&p, LAYOUT_BASE + 2);
    ck_assert_int_eq(c->kind, BLOCK_INDEFINITE);
    ck_assert_int_eq(c->access, ACCESS_RELAXED);
    ck_assert_int_eq(prelex_layout(&p, LAYOUT_BASE + 3)->kind, BLOCK_STAR);
    ck_assert_str_eq(prelex_layout(&p, LAYOUT_BASE + 4)->block, "4");
    ck_assert_int_eq(prelex_layout(&p, LAYOUT_BASE + 4)->access, ACCESS_DEFAULT);
    ck_assert_ptr_null(prelex_layout(&p, LAYOUT_BASE + 5));
    ck_assert_ptr_null(prelex_layout(&p, 0));
    /* THREADS in a dimension: written as 1, remembered */
    ck_assert_ptr_nonnull(strstr(out, "b[4*1]"));
    ck_assert_int_eq(prelex_threads_dim(&p, "b"), 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "d"), 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "c"), -1);
    ck_assert_int_eq(p.nerrors, 0);
    free(out);
}
END_TEST

START_TEST(threads_dimension_rules)
{
    char *out = run("shared int m[4][mupc_threads];\nshared int x[10 + mupc_threads];\n"
                    "shared int t[mupc_threads][mupc_threads];\nshared int ok[(2+1)*mupc_threads];\n", 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "m"), 1);
    ck_assert_int_eq(prelex_threads_dim(&p, "ok"), 0);
    ck_assert_int_eq(p.nerrors, 2); /* 10 + THREADS; THREADS twice */
    ck_assert_ptr_nonnull(strstr(p.errors[0].message, "must stand alone or be multiplied"));
    ck_assert_ptr_nonnull(strstr(p.errors[1].message, "more than one dimension of 't'"));
    free(out);
    out = run("shared int s[4*mupc_threads];\n", 8); /* -T 8: dimensions are constants */
    ck_assert_int_eq(prelex_threads_dim(&p, "s"), -1);
    free(out);
    /* in parentheses (a macro's), and through a typedef of a shared type;
     * a function's body after its declarator is not part of its name's
     * declaration, and a private array through a private typedef is left */
    out = run("shared int a[(4*mupc_threads)];\ntypedef shared [2] int blk_t, *blkp_t;\n"
              "blk_t b[2*mupc_threads];\nshared int *f(void) { return 0; }\nblkp_t c;\n"
              "typedef int priv_t;\npriv_t d[mupc_threads];\n", 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "a"), 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "b"), 0);
    ck_assert_int_eq(prelex_threads_dim(&p, "d"), -1);
    ck_assert_int_eq(p.nerrors, 0);
    ck_assert_ptr_nonnull(strstr(out, "b[2*1]"));
    ck_assert_ptr_nonnull(strstr(out, "d[mupc_threads]"));
    free(out);
}
END_TEST

START_TEST(statements)
{
    char *out = run("void f(int i) {\n  upc_forall (i = 0; i < 9; i++; i)\n    g(i);\n"
                    "  upc_forall (i = 0; i < 9; i++; continue) g(i);\n  upc_barrier;\n  upc_barrier i + 1;\n"
                    "  upc_notify; upc_wait 3;\n  upc_fence;\n  n = upc_blocksizeof(a) + upc_elemsizeof(shared int);\n}\n",
                    0);
    ck_assert_ptr_nonnull(strstr(out, "for (i = 0; i < 9; i++) if (__mupc_forall_skip( i)) ; else \n    g(i);"));
    ck_assert_ptr_nonnull(strstr(out, "for (i = 0; i < 9; i++) if (__mupc_forall_any()) ; else  g(i);"));
    ck_assert_ptr_nonnull(strstr(out, "mupc_barrier(0, 0, __FILE__, __LINE__);"));
    ck_assert_ptr_nonnull(strstr(out, "mupc_barrier(1, (int)( i + 1), __FILE__, __LINE__);"));
    ck_assert_ptr_nonnull(strstr(out, "mupc_notify(0, 0, __FILE__, __LINE__);"));
    ck_assert_ptr_nonnull(strstr(out, "mupc_wait(1, (int)( 3), __FILE__, __LINE__);"));
    ck_assert_ptr_nonnull(strstr(out, "mupc_fence(__FILE__, __LINE__);"));
    /* the sizeof operators: remembered where they stand; a type name becomes
     * an expression of that type */
    const char *bs = strstr(out, "sizeof(a)");
    ck_assert_ptr_nonnull(bs);
    ck_assert_int_eq(prelex_sizeof_at(&p, (size_t)(bs - out)), SIZEOF_BLOCK);
    const char *es = strstr(out, "sizeof(*(__typeof__(");
    ck_assert_ptr_nonnull(es);
    ck_assert_int_eq(prelex_sizeof_at(&p, (size_t)(es - out)), SIZEOF_ELEM);
    ck_assert_ptr_nonnull(strstr(out, "int) *)0)"));
    ck_assert_int_eq(prelex_sizeof_at(&p, 0), 0);
    ck_assert_int_eq(lines(out), 11);
    free(out);
}
END_TEST

START_TEST(pragmas_follow_blocks)
{
    char *out = run("int a;\n#pragma upc strict\nint b;\nvoid f(void) {\n#pragma upc relaxed\n  x;\n}\nint c;\n", 0);
    size_t at_a = (size_t)(strstr(out, "int a") - out), at_b = (size_t)(strstr(out, "int b") - out);
    size_t at_x = (size_t)(strstr(out, "x;") - out), at_c = (size_t)(strstr(out, "int c") - out);
    ck_assert_int_eq(prelex_strict_at(&p, at_a), 0);
    ck_assert_int_eq(prelex_strict_at(&p, at_b), 1);
    ck_assert_int_eq(prelex_strict_at(&p, at_x), 0); /* relaxed inside the block */
    ck_assert_int_eq(prelex_strict_at(&p, at_c), 1); /* strict again after it */
    ck_assert_ptr_null(strstr(out, "#pragma upc")); /* consumed, lines kept */
    ck_assert_int_eq(lines(out), 9);
    free(out);
}
END_TEST

START_TEST(errors_and_untouched_text)
{
    char *out = run("strict relaxed shared int x;\nrelaxed int y;\nchar *s = \"shared upc_forall\";\n", 0);
    ck_assert_int_eq(p.nerrors, 2);
    ck_assert_ptr_nonnull(strstr(p.errors[0].message, "'strict' and 'relaxed' both"));
    ck_assert_ptr_nonnull(strstr(p.errors[1].message, "qualifies only shared types"));
    ck_assert_ptr_nonnull(strstr(out, "\"shared upc_forall\"")); /* strings are left alone */
    free(out);
    /* a system header's region is not translated */
    const char *text = "# 1 \"prog.upc\"\n# 1 \"/usr/include/x.h\" 1 3\nint shared;\n# 2 \"prog.upc\" 2\nshared int z;\n";
    regions_build(&r, text, strlen(text), "/prelude");
    prelex_init(&p, 0);
    out = prelex_run(&p, text, strlen(text), &r);
    ck_assert_ptr_nonnull(strstr(out, "int shared;"));
    ck_assert_ptr_nonnull(strstr(out, "__attribute__((address_space(16384)))  int z;"));
    free(out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prelex");
    TCase *tc = tcase_create("prelex");
    tcase_add_test(tc, layouts_in_address_spaces);
    tcase_add_test(tc, threads_dimension_rules);
    tcase_add_test(tc, statements);
    tcase_add_test(tc, pragmas_follow_blocks);
    tcase_add_test(tc, errors_and_untouched_text);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
