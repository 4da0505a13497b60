#!/bin/sh
# exits.sh -- every way of ending a program ends every thread, promptly,
# with the right status.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/exit_modes

for n in 1 2 3 4; do
    run $n 60 "$prog" status 0;  expect_status "collective exit 0 ($n threads)" 0
    run $n 60 "$prog" status 3;  expect_status "collective exit 3 ($n threads)" 3
    run $n 30 "$prog" global 7;  expect_status "upc_global_exit(7) ($n threads)" 7
    expect_output "global exit output flushed ($n threads)" "calls upc_global_exit\\(7\\)"
    run $n 30 "$prog" exit 5;    expect_status "exit(5) on one thread ends all ($n threads)" 5
done
for n in 2 4; do
    run $n 60 "$prog" crash 0
    expect_failure "a crashing thread ends the job ($n threads)"
    expect_output "the crash is reported ($n threads)" "thread $((n - 1)): fatal signal 11"
done
finish
