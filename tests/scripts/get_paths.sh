#!/bin/sh
# SPDX-License-Identifier: MIT
# get_paths.sh -- large gets take two paths: on-node direct reads
# (direct_gets = on, the default, which every other test runs) and the
# message path (direct_gets = off, or a node whose kernel refuses
# cross-memory attach).  Run the programs with large gets over the message
# path too, and check what the runtime says about the path it took.
# Threads whose segments are mapped (shm = on) need neither: shm = off here.
# The message path again with fragment_size = 256K: their 1-3 MiB transfers
# then move as 4-12 MPI messages each (the 4 MiB default makes one).
. "$top_srcdir/tests/scripts/lib.sh"

for n in 2 3; do
    for prog in test_access test_nb test_nonblocking; do
        run $n 120 env MUPC_SHM=off MUPC_DIRECT_GETS=off "$top_builddir/tests/mr/$prog"
        expect_status "$prog, $n threads, direct_gets=off" 0
        run $n 120 env MUPC_SHM=off MUPC_DIRECT_GETS=off MUPC_FRAGMENT_SIZE=256K \
            "$top_builddir/tests/mr/$prog"
        expect_status "$prog, $n threads, direct_gets=off, 256 KiB fragments" 0
    done
    run $n 60 env MUPC_SHM=off MUPC_DIRECT_GETS=off MUPC_VERBOSE=1 "$top_builddir/tests/mr/test_nb"
    expect_output "direct_gets=off: no thread is read directly ($n threads)" \
        "thread 0 reads 0 of the other $((n - 1)) threads directly"
    run $n 60 env MUPC_SHM=off MUPC_VERBOSE=1 "$top_builddir/tests/mr/test_nb"
    if grep -q "the kernel refused cross-memory attach" "$out"; then
        # not a failure of ours: the message path serves them (tested above)
        ok "direct_gets=on: the kernel refuses cross-memory attach here; reported ($n threads)"
    else
        expect_output "direct_gets=on: every other thread is read directly ($n threads)" \
            "thread 0 reads $((n - 1)) of the other $((n - 1)) threads directly"
    fi
done

# While fragments are in flight no pthread sleeps (engine.c, bulk_moving);
# once they are done, waits must sleep again.  3 threads get and put 3 MiB
# over messages, then two of them wait 1 s in a barrier for the third:
# about 0.15 CPU-seconds in all here, 1.5 when the count of fragments in
# flight never went back to zero and the waits kept polling.
run 3 60 env MUPC_SHM=off MUPC_DIRECT_GETS=off "$top_builddir/bench/idle" 1 in-barrier after-transfers
cpu=$(awk '$1 == "idle.window_cpu_s" { print $2 }' "$out")
if [ "$rc" = 0 ] && awk -v c="$cpu" 'BEGIN { exit !(c != "" && c + 0 < 0.6) }'; then
    ok "waits sleep again after bulk transfers (${cpu} CPU-s over 1 s, < 0.6)"
else
    fail "waits after bulk transfers: ${cpu:-no figure} CPU-s over 1 s (status $rc), want < 0.6"
fi
finish
