#!/bin/sh
# SPDX-License-Identifier: MIT
# exits.sh -- every way of ending a program ends every thread, promptly,
# with the right status; exit() ends only its thread (UPC 1.3 §5.1.2.2.3).
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/exit_modes

for n in 1 2 3 4; do
    run $n 60 "$prog" status 0;  expect_status "collective exit 0 ($n threads)" 0
    run $n 60 "$prog" status 3;  expect_status "collective exit 3 ($n threads)" 3
    run $n 30 "$prog" global 7;  expect_status "upc_global_exit(7) ($n threads)" 7
    expect_output "global exit output flushed ($n threads)" "calls upc_global_exit\\(7\\)"
    run $n 30 "$prog" exit 5;    expect_status "exit(5) ends one thread, the job ends with the others ($n threads)" 5
done
for n in 2 4; do
    run $n 30 "$prog" exit-barrier 5
    expect_failure "exit(5) on one thread while the others wait in a barrier ($n threads)"
    expect_output "the mismatch is named ($n threads)" \
        "thread $((n - 1)) reached the end of main .or called exit. while thread [0-9] waits in upc_barrier"
done
for n in 2 4; do
    run $n 60 "$prog" crash 0
    expect_failure "a crashing thread ends the job ($n threads)"
    expect_output "the crash is reported ($n threads)" "thread $((n - 1)): fatal signal 11"
done
# a signal raised by user code: restore the previous handler and raise it
# again, so the process dies of it and the launcher ends the job
for sig in 11 7; do
    run 2 60 "$prog" raise $sig
    expect_failure "raise($sig) ends the job"
    expect_output "raise($sig) is reported" "thread 1: fatal signal $sig"
    if grep -q "survived raise" "$out"; then fail "raise($sig): the thread went on"; fi
done

# kill -SIG from outside to thread T of an N-thread job; the signal may land
# on either pthread (the waiting threads' communication pthread, often)
# kill_one N T SIG
kill_one() {
    timeout -k 5 60 "$MPIRUN" -n "$1" "$prog" pid > "$out" 2>&1 &
    job=$!
    pid=
    for i in $(seq 300); do
        pid=$(sed -n "s/^thread $2 pid //p" "$out")
        [ -n "$pid" ] && break
        sleep 0.1
    done
    [ -n "$pid" ] && kill -"$3" "$pid"
    wait $job
    rc=$?
}
for t in 0 2; do
    kill_one 3 $t SEGV
    expect_failure "kill -SEGV of thread $t ends the job"
    expect_output "kill -SEGV of thread $t is reported" "thread $t: fatal signal 11"
done
kill_one 2 1 BUS
expect_failure "kill -BUS ends the job"
finish
