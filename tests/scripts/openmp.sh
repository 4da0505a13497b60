#!/bin/sh
# SPDX-License-Identifier: MIT
# openmp.sh -- UPC with OpenMP: mupcc -fopenmp, upcc -fopenmp and
# -Wc,-fopenmp build a hybrid program; OMP_NUM_THREADS given to mupcrun
# and upcrun reaches every rank; a UPC operation made by an OpenMP worker
# (a barrier, and a read of another thread's data that goes through the
# runtime) ends the job with a message naming the call and its file:line.
# The example (examples/hybrid.upc) is examples.sh's.
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
require_translator
tools=$top_builddir/tools

cat > "$tmp/team.upc" <<'UPC'
#include <upc.h>
#include <omp.h>
#include <stdio.h>
shared int team[THREADS];
int main(void)
{
#ifndef _OPENMP
    printf("_OPENMP is not defined in the translation\n");
    return 1;
#endif
    int n = 0;
#pragma omp parallel reduction(+:n)
    n += 1;
    team[MYTHREAD] = n;
    upc_barrier;
    if (MYTHREAD == 0)
        for (int t = 0; t < THREADS; t++)
            printf("thread %d: team of %d\n", t, team[t]);
    return 0;
}
UPC
for driver in "mupcc -fopenmp" "upcc -fopenmp" "upcc -Wc,-fopenmp"; do
    set -- $driver
    "$tools/$1" "$2" -o "$tmp/team" "$tmp/team.upc" > "$out" 2>&1
    rc=$?
    expect_status "$driver builds a hybrid program" 0
done
for launcher in mupcrun upcrun; do
    OMP_NUM_THREADS=3 timeout -k 5 60 "$tools/$launcher" -n 2 "$tmp/team" > "$out" 2>&1
    rc=$?
    expect_status "$launcher runs it" 0
    expect_output "$launcher: OMP_NUM_THREADS=3 reaches thread 0" "^thread 0: team of 3$"
    expect_output "$launcher: OMP_NUM_THREADS=3 reaches thread 1" "^thread 1: team of 3$"
done

# worker_call NAME STATEMENT: a program whose OpenMP worker 1 makes STATEMENT
worker_call() {
    printf '#include <upc.h>\n#include <omp.h>\n#include <stdio.h>\nshared int x[THREADS];\nint main(void)\n{\n    int s = 0;\n#pragma omp parallel num_threads(2) reduction(+:s)\n    {\n        if (omp_get_thread_num() == 1)\n            %s\n    }\n    printf("%%d\\n", s);\n    return 0;\n}\n' "$2" > "$tmp/$1.upc"
    "$tools/mupcc" -fopenmp -o "$tmp/$1" "$tmp/$1.upc" > "$out" 2>&1 || fail "$1.upc builds"
}
worker_call barrier 'upc_barrier;'
run 2 60 "$tmp/barrier"
expect_failure "upc_barrier from an OpenMP worker fails"
expect_output "  naming upc_barrier and its file:line" "barrier\.upc:11: upc_barrier called from a pthread that is not the UPC thread"
worker_call read 's += x[(MYTHREAD + 1) % THREADS];'
run 2 60 env MUPC_SHM=off "$tmp/read"
expect_failure "a remote read from an OpenMP worker fails"
expect_output "  naming the read and its file:line" "read\.upc:11: shared read called from a pthread that is not the UPC thread"
finish
