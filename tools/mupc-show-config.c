/* SPDX-License-Identifier: MIT */
/*
 * mupc-show-config -- print the settings a libmupc program started here
 * would use, and where each came from (mupcrun --show-config runs this).
 *
 *   mupc-show-config            the effective settings; exit 2 if invalid
 *   mupc-show-config --threads N  the same, for N UPC threads on this node
 *   mupc-show-config --example  the text of mupc.conf.example
 *   mupc-show-config --man      the SETTINGS section of mupc.conf(5)
 *   mupc-show-config --keys     the key names, one per line
 */
#include "base/config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* segment_size = auto as a job of `threads` threads on this node would
 * compute it (without --threads: one thread, said so). */
static void resolve_segment_size(mupci_config_t *cfg, int threads, int assumed)
{
    if (cfg->segment_size != MUPCI_SEGMENT_AUTO)
        return;
    const char *source;
    size_t memory = mupci_config_node_memory(&source);
    char why[MUPCI_CONFIG_ORIGIN_MAX];
    size_t bytes = mupci_config_auto_segment(memory, source, threads, why, sizeof why);
    if (assumed)
        snprintf(why + strlen(why), sizeof why - strlen(why), " (mupcrun -n N: for N)");
    mupci_config_set_auto_segment(cfg, bytes, why);
}

static int show(int threads)
{
    mupci_config_t cfg;
    char used[512], err[1024];
    if (mupci_config_load(&cfg, used, sizeof used, stderr, err, sizeof err) != 0) {
        fprintf(stderr, "mupc-show-config: %s\n", err);
        return 2;
    }
    resolve_segment_size(&cfg, threads > 0 ? threads : 1, threads == 0);
    printf("libmupc settings (%s%s, then MUPC_<KEY> environment variables):\n",
           used[0] ? "file " : "no configuration file found", used);
    mupci_config_print(stdout, &cfg);
    printf("libmupc %s, built against %s\n", PACKAGE_VERSION, MUPC_MPI_DESCRIPTION);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return show(0);
    if (argc == 3 && strcmp(argv[1], "--threads") == 0 && atoi(argv[2]) > 0)
        return show(atoi(argv[2]));
    if (argc == 2 && strcmp(argv[1], "--example") == 0) {
        mupci_config_write_example(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--man") == 0) {
        mupci_config_write_man(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--keys") == 0) {
        for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
            puts(mupci_config_key_name(i));
        return 0;
    }
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    fprintf(help ? stdout : stderr,
            "usage: mupc-show-config [--threads N | --example | --man | --keys]\n"
            "  (no option)  print the effective settings and their origins\n"
            "  --threads N  the same, segment_size = auto computed for N threads on this node\n"
            "  --example    print mupc.conf.example: every key, default and range\n"
            "  --man        print the SETTINGS section of mupc.conf(5)\n"
            "  --keys       print the key names\n"
            "Settings: defaults, then the first of $MUPC_CONF, ./mupc.conf, ~/.mupc.conf,\n"
            "then MUPC_<KEY> environment variables.\n");
    return help ? 0 : 2;
}
