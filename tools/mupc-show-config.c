/*
 * mupc-show-config -- print the settings a libmupc program started here
 * would use, and where each came from (mupcrun --show-config runs this).
 *
 *   mupc-show-config            the effective settings; exit 2 if invalid
 *   mupc-show-config --example  the text of mupc.conf.example
 *   mupc-show-config --keys     the key names, one per line
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

static int show(void)
{
    mupci_config_t cfg;
    char used[512], err[1024];
    if (mupci_config_load(&cfg, used, sizeof used, stderr, err, sizeof err) != 0) {
        fprintf(stderr, "mupc-show-config: %s\n", err);
        return 2;
    }
    printf("libmupc settings (%s%s, then MUPC_<KEY> environment variables):\n",
           used[0] ? "file " : "no configuration file found", used);
    mupci_config_print(stdout, &cfg);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 1)
        return show();
    if (argc == 2 && strcmp(argv[1], "--example") == 0) {
        mupci_config_write_example(stdout);
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "--keys") == 0) {
        for (int i = 0; i < MUPCI_CONFIG_KEYS; i++)
            puts(mupci_config_key_name(i));
        return 0;
    }
    int help = argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0);
    fprintf(help ? stdout : stderr,
            "usage: mupc-show-config [--example | --keys]\n"
            "  (no option)  print the effective settings and their origins\n"
            "  --example    print mupc.conf.example: every key, default and range\n"
            "  --keys       print the key names\n"
            "Settings: defaults, then the first of $MUPC_CONF, ./mupc.conf, ~/.mupc.conf,\n"
            "then MUPC_<KEY> environment variables.\n");
    return help ? 0 : 2;
}
