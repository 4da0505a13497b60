#!/bin/sh
# SPDX-License-Identifier: MIT
# run-mr.sh PROGRAM [ARGS] -- the test driver for multi-rank programs: runs
# PROGRAM with 1, 2, 3 and 4 UPC threads on one node with shared memory
# (shm = on, the default), then in the two other layouts of on-node shared
# memory: every access a message (shm = off, 2 and 4 threads) and two
# simulated nodes (simulate_nodes = 2, 3 and 4 threads: threads of one
# pretend node share memory, the others use messages, the cache and the
# barrier between nodes).  Each run has a time limit, so a hang fails
# the test instead of the whole suite.  MUPC_TEST_THREADS="N ..." runs only
# those thread counts, in the default layout.
# Automake gives every extensionless test this driver, so the Check unit
# tests (tests/unit/, no MPI) pass through here too and run once, directly.
prog=$1
shift
case "$prog" in
*/unit/*) exec "$prog" "$@" ;; # Check unit tests: no MPI, run once
esac
limit=${MUPC_TEST_TIMEOUT:-120}
runs=${MUPC_TEST_THREADS:-1 2 3 4 2:shm=off 4:shm=off 3:simulate_nodes=2 4:simulate_nodes=2}
for run in $runs; do
    n=${run%%:*}
    setting=
    [ "$run" != "$n" ] && setting=${run#*:}
    (
        if [ -n "$setting" ]; then
            key=$(echo "${setting%%=*}" | tr a-z A-Z)
            export "MUPC_$key=${setting#*=}"
        fi
        echo "== $prog with $n thread(s)${setting:+, $setting}"
        exec timeout -k 5 "$limit" ${MPIRUN:-mpirun} -n "$n" "$prog" "$@"
    )
    rc=$?
    if [ "$rc" -ne 0 ]; then
        [ "$rc" -eq 124 ] && echo "FAIL: $prog with $n thread(s)${setting:+, $setting} did not finish within ${limit}s"
        echo "FAIL: $prog with $n thread(s)${setting:+, $setting} exited with status $rc"
        exit 1
    fi
done
exit 0
