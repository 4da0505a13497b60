/* SPDX-License-Identifier: MIT */
/*
 * layout.c -- which pretend node each thread is on (node.h).  Pure, so the
 * unit tests and the runtime share it.
 */
#include "transport/node.h"

static int block_of(int thread, int threads, int simulate)
{
    return simulate > 1 ? (int)((long long)thread * simulate / threads) : 0;
}

int mupci_node_layout(const int *real, int threads, int simulate, int *node_of)
{
    int nodes = 0;
    for (int t = 0; t < threads; t++) {
        int block = block_of(t, threads, simulate);
        node_of[t] = -1;
        /* the node of an earlier thread on the same real node and block */
        for (int u = t - 1; u >= 0 && node_of[t] < 0; u--)
            if (real[u] == real[t] && block_of(u, threads, simulate) == block)
                node_of[t] = node_of[u];
        if (node_of[t] < 0)
            node_of[t] = nodes++;
    }
    return nodes;
}
