/* SPDX-License-Identifier: MIT */
/*
 * check_config.c -- the settings table: defaults, parsing of sizes and
 * integers, range and power-of-two checks, files with their line numbers,
 * the environment, the printed form and the example file.
 */
#include "base/config.h"

#include "run_suite.h"

#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static mupci_config_t cfg;
static char err[1024];

static void setup(void)
{
    mupci_config_defaults(&cfg);
    err[0] = '\0';
}

static int set(const char *key, const char *value)
{
    return mupci_config_set(&cfg, key, value, "test", err, sizeof err);
}

/* Write `text` to a temporary file; returns its path (static buffer). */
static const char *write_file(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/check_config.XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(default_values)
{
    ck_assert_uint_eq(cfg.segment_size, MUPCI_SEGMENT_AUTO);
    ck_assert_uint_eq(cfg.batch_size, 16u << 10);
    ck_assert_uint_eq(cfg.fragment_size, 4u << 20);
    ck_assert_int_eq(cfg.recv_buffers, 8);
    ck_assert_int_eq(cfg.send_slots, 64);
    ck_assert_int_eq(cfg.spin_polls, 100);
    ck_assert_int_eq(cfg.verbose, 0);
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
        ck_assert_str_eq(cfg.origin[i], "default");
}
END_TEST

START_TEST(sizes_and_suffixes)
{
    ck_assert_int_eq(set("segment_size", "3G"), 0);
    ck_assert_uint_eq(cfg.segment_size, 3ull << 30);
    ck_assert_int_eq(set("segment_size", "2m"), 0);
    ck_assert_uint_eq(cfg.segment_size, 2u << 20);
    ck_assert_int_eq(set("segment_size", "1048576"), 0);
    ck_assert_uint_eq(cfg.segment_size, 1u << 20);
    ck_assert_int_eq(set("batch_size", "4K"), 0);
    ck_assert_uint_eq(cfg.batch_size, 4096);
    ck_assert_str_eq(cfg.origin[2], "test");
}
END_TEST

START_TEST(bad_values_named)
{
    ck_assert_int_eq(set("batch_size", "3000"), -1);
    ck_assert_str_eq(err, "test: batch_size: 3000 is not a power of two; "
                          "allowed: 1K..1M, a power of two (suffixes K, M, G, T)");
    ck_assert_uint_eq(cfg.batch_size, 16u << 10); /* unchanged */
    ck_assert_int_eq(set("spin_polls", "-4"), -1);
    ck_assert_str_eq(err, "test: spin_polls: -4 is out of range; allowed: 0..1000000");
    ck_assert_int_eq(set("segment_size", "128G"), -1);
    ck_assert_ptr_nonnull(strstr(err, "128G is out of range; allowed: 1M..64G"));
    ck_assert_int_eq(set("segment_size", "12Q"), -1);
    ck_assert_ptr_nonnull(strstr(err, "'12Q' is not a size"));
    ck_assert_int_eq(set("segment_size", "99999999999T"), -1);
    ck_assert_int_eq(set("verbose", "1K"), -1); /* no suffixes on plain integers */
    ck_assert_ptr_nonnull(strstr(err, "'1K' is not an integer"));
    ck_assert_int_eq(set("verbose", ""), -1);
    ck_assert_int_eq(set("bogus", "1"), -1);
    ck_assert_ptr_nonnull(strstr(err, "test: unknown key 'bogus'; known keys: segment_size"));
}
END_TEST

START_TEST(cache_settings)
{
    ck_assert_int_eq(cfg.cache, 1);
    ck_assert_int_eq(set("cache", "off"), 0);
    ck_assert_int_eq(cfg.cache, 0);
    ck_assert_int_eq(set("cache", "YES"), 0);
    ck_assert_int_eq(cfg.cache, 1);
    ck_assert_int_eq(set("cache_stats", "1"), 0);
    ck_assert_int_eq(cfg.cache_stats, 1);
    ck_assert_int_eq(set("cache", "maybe"), -1);
    ck_assert_str_eq(err, "test: cache: 'maybe' is not on or off; "
                          "allowed: on or off (also yes/no, true/false, 1/0)");
    ck_assert_int_eq(set("cache_line_size", "96"), -1);
    ck_assert_ptr_nonnull(strstr(err, "96 is not a power of two; allowed: 64..2K"));
    ck_assert_int_eq(set("cache_line_size", "4K"), -1);
    ck_assert_int_eq(set("cache_sets", "8"), -1);
    ck_assert_ptr_nonnull(strstr(err, "cache_sets: 8 is out of range; allowed: 16..1024"));
    ck_assert_int_eq(set("victim_cache_lines", "65"), -1);
    ck_assert_int_eq(set("victim_cache_lines", "0"), 0);
    ck_assert_int_eq(set("cache_line_size", "2K"), 0);
    ck_assert_uint_eq(cfg.cache_line_size, 2048);
}
END_TEST

START_TEST(checks_setting)
{
    ck_assert_int_eq(cfg.checks, MUPCI_CHECKS_OFF);
    ck_assert_int_eq(set("checks", "bounds"), 0);
    ck_assert_int_eq(cfg.checks, MUPCI_CHECKS_BOUNDS);
    ck_assert_int_eq(set("checks", "OFF"), 0);
    ck_assert_int_eq(cfg.checks, MUPCI_CHECKS_OFF);
    ck_assert_int_eq(set("checks", "on"), -1);
    ck_assert_str_eq(err, "test: checks: 'on' is not a known value; allowed: off or bounds");
}
END_TEST

START_TEST(file_with_lines)
{
    const char *path = write_file("# comment\n\n  segment_size = 8M  # trailing\nverbose=1\n");
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), 0);
    ck_assert_uint_eq(cfg.segment_size, 8u << 20);
    ck_assert_int_eq(cfg.verbose, 1);
    char where[128];
    snprintf(where, sizeof where, "%s:3", path);
    ck_assert_str_eq(cfg.origin[0], where);
    unlink(path);

    path = write_file("segment_size = 8M\nbogus_key = 1\n");
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), -1);
    snprintf(where, sizeof where, "%s:2: unknown key 'bogus_key'", path);
    ck_assert_ptr_nonnull(strstr(err, where));
    unlink(path);

    path = write_file("verbose 1\n");
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: expected 'key = value', got 'verbose 1'"));
    unlink(path);

    path = write_file("verbose =\n");
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "verbose: no value after '='"));
    unlink(path);

    ck_assert_int_eq(mupci_config_parse_file(&cfg, "/nonexistent/mupc.conf", NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "cannot read configuration file '/nonexistent/mupc.conf'"));
}
END_TEST

static const char *fake_env(const char *name)
{
    if (strcmp(name, "MUPC_SEND_SLOTS") == 0)
        return "128";
    if (strcmp(name, "MUPC_FRAGMENT_SIZE") == 0)
        return "1M";
    return NULL;
}

static const char *bad_env(const char *name)
{
    return strcmp(name, "MUPC_RECV_BUFFERS") == 0 ? "1" : NULL;
}

START_TEST(environment)
{
    ck_assert_int_eq(mupci_config_apply_env(&cfg, fake_env, err, sizeof err), 0);
    ck_assert_int_eq(cfg.send_slots, 128);
    ck_assert_uint_eq(cfg.fragment_size, 1u << 20);
    ck_assert_str_eq(cfg.origin[5], "environment MUPC_SEND_SLOTS");
    ck_assert_str_eq(cfg.origin[4], "default");
    ck_assert_int_eq(mupci_config_apply_env(&cfg, bad_env, err, sizeof err), -1);
    ck_assert_str_eq(err, "environment MUPC_RECV_BUFFERS: recv_buffers: 1 is out of range; "
                          "allowed: 2..1024");
}
END_TEST

START_TEST(load_order)
{
    const char *path = write_file("send_slots = 32\nspin_polls = 7\n");
    setenv("MUPC_CONF", path, 1);
    setenv("MUPC_SPIN_POLLS", "9", 1);
    char used[256];
    ck_assert_int_eq(mupci_config_load(&cfg, used, sizeof used, NULL, err, sizeof err), 0);
    ck_assert_str_eq(used, path);
    ck_assert_int_eq(cfg.send_slots, 32); /* from the file */
    ck_assert_int_eq(cfg.spin_polls, 9);  /* the environment wins */
    unlink(path);
    ck_assert_int_eq(mupci_config_load(&cfg, used, sizeof used, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "MUPC_CONF: cannot read configuration file"));
    unsetenv("MUPC_CONF");
    unsetenv("MUPC_SPIN_POLLS");
}
END_TEST

/* Read everything written to a memory stream so far. */
static FILE *warn_stream(char **buf, size_t *len) { return open_memstream(buf, len); }

START_TEST(long_comments_and_binary_lines)
{
    /* A comment line of 5000 characters is fine (it was rejected at 1022). */
    char text[6000];
    memset(text, 'x', 5000);
    text[0] = '#';
    strcpy(text + 5000, "\nverbose = 1\n");
    const char *path = write_file(text);
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), 0);
    ck_assert_int_eq(cfg.verbose, 1);
    unlink(path);

    /* A binary byte in a setting names the key, the byte and its column. */
    path = write_file("verbose = 1\ncache_sets = 6\0014\n");
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":2: cache_sets: byte 0x01 at column 15 is not text"));
    unlink(path);

    /* An over-long value names the key and its length, not "line longer". */
    memset(text, 0, sizeof text);
    strcpy(text, "segment_size = ");
    memset(text + 15, '9', 2000);
    strcat(text, "\n");
    path = write_file(text);
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, ":1: segment_size: the value is 2000 characters long"));
    unlink(path);
}
END_TEST

START_TEST(directory_is_no_file)
{
    ck_assert_int_eq(mupci_config_parse_file(&cfg, "/tmp", NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "configuration file '/tmp' is a directory"));
    setenv("MUPC_CONF", "/tmp", 1);
    char used[256];
    ck_assert_int_eq(mupci_config_load(&cfg, used, sizeof used, NULL, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "'/tmp' is a directory"));
    ck_assert_ptr_nonnull(strstr(err, "(from MUPC_CONF)"));
    unsetenv("MUPC_CONF");
}
END_TEST

START_TEST(duplicate_keys_warned)
{
    const char *path = write_file("spin_polls = 5\nverbose = 1\n# again\nspin_polls = 6\n");
    char *buf = NULL;
    size_t len = 0;
    FILE *warn = warn_stream(&buf, &len);
    ck_assert_int_eq(mupci_config_parse_file(&cfg, path, warn, err, sizeof err), 0);
    fclose(warn);
    ck_assert_int_eq(cfg.spin_polls, 6); /* the later line wins */
    char want[256];
    snprintf(want, sizeof want, "%s:4: spin_polls is set again (first set at %s:1)", path, path);
    ck_assert_ptr_nonnull(strstr(buf, want));
    ck_assert_ptr_null(strstr(buf, "verbose")); /* set once: no warning */
    free(buf);
    unlink(path);
}
END_TEST

START_TEST(unknown_variables_warned)
{
    char *env[] = {"MUPC_CACHE_LINE_SISE=256", "MUPC_CACHE=on", "MUPC_CONF=x",
                   "MUPC_TREND_FEATURE=n", "PATH=/bin", "MUPC_SPINPOLLS=3", NULL};
    char *buf = NULL;
    size_t len = 0;
    FILE *warn = warn_stream(&buf, &len);
    ck_assert_int_eq(mupci_config_check_env(env, warn), 2);
    fclose(warn);
    ck_assert_ptr_nonnull(strstr(buf, "environment MUPC_CACHE_LINE_SISE is not a libmupc "
                                      "setting and is ignored; did you mean "
                                      "MUPC_CACHE_LINE_SIZE (cache_line_size)?"));
    ck_assert_ptr_nonnull(strstr(buf, "MUPC_SPINPOLLS is not a libmupc setting and is "
                                      "ignored; did you mean MUPC_SPIN_POLLS"));
    ck_assert_ptr_null(strstr(buf, "MUPC_CONF"));
    ck_assert_ptr_null(strstr(buf, "TREND"));
    free(buf);
    ck_assert_str_eq(mupci_config_closest_key("victim_lines", 12), "victim_cache_lines");
}
END_TEST

/* segment_size = auto: 3/4 of the node's memory per thread on the node, in
 * 64M steps, never below the former 64M default nor above 16G; an explicit
 * size is kept as it is. */
START_TEST(auto_segment_size)
{
    char why[MUPCI_CONFIG_ORIGIN_MAX];
    const unsigned long long G = 1ull << 30, M = 1ull << 20;
    ck_assert_uint_eq(mupci_config_auto_segment(24 * G, "memory", 4, why, sizeof why),
                      4608 * M);
    ck_assert_str_eq(why, "3/4 of 24.0 GiB memory / 4 threads on this node, in 64M steps, "
                          "64M..16G");
    ck_assert_uint_eq(mupci_config_auto_segment(10 * G, "memory", 3, why, sizeof why),
                      2560 * M); /* 2560M exactly: 7.5G / 3 */
    ck_assert_uint_eq(mupci_config_auto_segment(10 * G + 5, "memory", 7, why, sizeof why),
                      1088 * M); /* 1097.1M down to a 64M step */
    ck_assert_uint_eq(mupci_config_auto_segment(512 * M, "memory", 16, why, sizeof why),
                      64 * M); /* at least the former default */
    ck_assert_uint_eq(mupci_config_auto_segment(1024 * G, "memory", 2, why, sizeof why),
                      16 * G); /* at most 16G */
    ck_assert_ptr_nonnull(strstr(why, "1024.0 GiB memory / 2 threads"));

    ck_assert_int_eq(set("segment_size", "auto"), 0);
    ck_assert_uint_eq(cfg.segment_size, MUPCI_SEGMENT_AUTO);
    mupci_config_set_auto_segment(&cfg, 2 * G, "the reason");
    ck_assert_uint_eq(cfg.segment_size, 2 * G);
    ck_assert_str_eq(cfg.origin[0], "test (auto): the reason");
    mupci_config_defaults(&cfg);
    mupci_config_set_auto_segment(&cfg, 3 * G, "the reason");
    ck_assert_str_eq(cfg.origin[0], "default: the reason");
    ck_assert_int_eq(set("segment_size", "2G"), 0);
    ck_assert_uint_eq(cfg.segment_size, 2 * G);
    ck_assert_int_eq(set("batch_size", "auto"), -1); /* only segment_size takes it */
}
END_TEST

START_TEST(printed_form)
{
    set("segment_size", "2M");
    set("fragment_size", "65536");
    set("batch_size", "1K");
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mupci_config_print(f, &cfg);
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "  segment_size = 2M "));
    ck_assert_ptr_nonnull(strstr(text, "fragment_size = 64K "));
    ck_assert_ptr_nonnull(strstr(text, "batch_size = 1K "));
    ck_assert_ptr_nonnull(strstr(text, "spin_polls = 100 "));
    ck_assert_ptr_nonnull(strstr(text, "# test\n"));
    free(text);
}
END_TEST

/* The example file lists every key with its default, and reads back as
 * exactly the defaults. */
START_TEST(example_round_trip)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mupci_config_write_example(f);
    fclose(f);
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
        ck_assert_ptr_nonnull(strstr(text, mupci_config_key_name(i)));
    const char *path = write_file(text);
    free(text);
    mupci_config_t back, defaults;
    mupci_config_defaults(&defaults);
    mupci_config_defaults(&back);
    ck_assert_int_eq(mupci_config_parse_file(&back, path, NULL, err, sizeof err), 0);
    unlink(path);
    ck_assert_uint_eq(back.segment_size, defaults.segment_size);
    ck_assert_uint_eq(back.batch_size, defaults.batch_size);
    ck_assert_uint_eq(back.fragment_size, defaults.fragment_size);
    ck_assert_int_eq(back.idle_sleep_max_us, defaults.idle_sleep_max_us);
    ck_assert_int_eq(back.yield_window_us, defaults.yield_window_us);
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
        ck_assert_str_ne(back.origin[i], "default"); /* every key was in the file */
}
END_TEST

/* Each key's environment variable is MUPC_ and the key in capitals (the
 * table spells it out, so a misspelt row would go unnoticed), and the
 * manual page's section names every key and variable. */
START_TEST(environment_names_and_manual)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    mupci_config_write_man(f);
    fclose(f);
    for (int i = 0; i < MUPCI_CONFIG_KEYS; i++) {
        const char *key = mupci_config_key_name(i), *env = mupci_config_key_env(i);
        char want[64] = "MUPC_";
        for (size_t k = 0; key[k] && k + 6 < sizeof want; k++)
            want[5 + k] = (char)toupper((unsigned char)key[k]);
        ck_assert_str_eq(env, want);
        ck_assert_ptr_nonnull(strstr(text, key));
        ck_assert_ptr_nonnull(strstr(text, env));
    }
    free(text);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("config");
    TCase *tc = tcase_create("config");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, default_values);
    tcase_add_test(tc, sizes_and_suffixes);
    tcase_add_test(tc, bad_values_named);
    tcase_add_test(tc, cache_settings);
    tcase_add_test(tc, checks_setting);
    tcase_add_test(tc, file_with_lines);
    tcase_add_test(tc, environment);
    tcase_add_test(tc, load_order);
    tcase_add_test(tc, long_comments_and_binary_lines);
    tcase_add_test(tc, directory_is_no_file);
    tcase_add_test(tc, duplicate_keys_warned);
    tcase_add_test(tc, unknown_variables_warned);
    tcase_add_test(tc, auto_segment_size);
    tcase_add_test(tc, printed_form);
    tcase_add_test(tc, example_round_trip);
    tcase_add_test(tc, environment_names_and_manual);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
