#!/bin/sh
# run-mr.sh PROGRAM [ARGS] -- the test driver for multi-rank programs: runs
# PROGRAM with 1, 2, 3 and 4 UPC threads (MUPC_TEST_THREADS overrides), each
# under a time limit so a hang fails the test instead of the whole suite.
# Automake gives every extensionless test this driver, so the Check unit
# tests (tests/unit/, no MPI) pass through here too and run once, directly.
prog=$1
shift
case "$prog" in
*/unit/*) exec "$prog" "$@" ;; # Check unit tests: no MPI, run once
esac
limit=${MUPC_TEST_TIMEOUT:-120}
for n in ${MUPC_TEST_THREADS:-1 2 3 4}; do
    echo "== $prog with $n thread(s)"
    timeout -k 5 "$limit" ${MPIRUN:-mpirun} -n "$n" "$prog" "$@"
    rc=$?
    if [ "$rc" -ne 0 ]; then
        [ "$rc" -eq 124 ] && echo "FAIL: $prog with $n thread(s) did not finish within ${limit}s"
        echo "FAIL: $prog with $n thread(s) exited with status $rc"
        exit 1
    fi
done
exit 0
