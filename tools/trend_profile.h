/* SPDX-License-Identifier: MIT */
/*
 * trend_profile.h -- mupc-trend profile files: reading them.
 *
 * A profile is text, one record per line, fields separated by tabs;
 * lines starting with '#' and blank lines are ignored:
 *
 *   version  1                       first record, always
 *   program  NAME                    the executable's name
 *   threads  P                       THREADS of the run
 *   feature  NAME  VALUE             zero or more (MUPC_TREND_FEATURE)
 *   site     FILE  LINE  OP  COUNT  BYTES
 *                                    remote operations OP (get, put, memget,
 *                                    memput, memcpy, memset, lock, barrier,
 *                                    collective, atomic, alloc) started at
 *                                    FILE:LINE, summed over all threads
 */
#ifndef MUPC_TREND_PROFILE_H
#define MUPC_TREND_PROFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct trend_site {
    char *file;
    int line, op;
    double count, bytes;
} trend_site_t;

typedef struct trend_feature {
    char *name;
    double value;
} trend_feature_t;

typedef struct trend_profile {
    char *path, *program;
    int threads;
    trend_feature_t *features;
    size_t nfeatures;
    trend_site_t *sites;
    size_t nsites;
} trend_profile_t;

/* Reads `in` (named `path` in messages).  0 on success; -1 with a message
 * "PATH:LINE: what is wrong" in err. */
int trend_profile_read(FILE *in, const char *path, trend_profile_t *p, char *err, size_t errsize);
int trend_profile_load(const char *path, trend_profile_t *p, char *err, size_t errsize);
void trend_profile_free(trend_profile_t *p);

/* The value of feature `name` ("threads" is always there); -1 if absent. */
int trend_profile_feature(const trend_profile_t *p, const char *name, double *value);

#endif
