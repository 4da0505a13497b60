/* SPDX-License-Identifier: MIT */
/*
 * mupc-nodes -- what `mupcrun -n N [launcher options] --show-config` runs
 * after printing the settings: starts N UPC threads the way the program
 * would be started, and thread 0 prints the node layout they see (which
 * threads share memory, which talk by messages).
 */
#include <mupc_upc.h>
#include <stdio.h>

int main(void)
{
    if (MYTHREAD == 0) {
        printf("mupc: %d threads on %d node%s\n", THREADS, mupc_node_count(),
               mupc_node_count() > 1 ? "s" : "");
        mupc_describe_nodes(stdout);
    }
    return 0;
}
