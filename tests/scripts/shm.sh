#!/bin/sh
# SPDX-License-Identifier: MIT
# shm.sh -- on-node shared memory and simulated nodes as a user sees them:
# the node layout mupcrun --show-config prints for each setting, invalid
# values refused before user code runs, and barrier misuse still reported
# (with file:line) when the barrier is hierarchical.  The multi-rank tests
# themselves run in every layout through run-mr.sh.
. "$top_srcdir/tests/scripts/lib.sh"
mupcrun=$top_builddir/tools/mupcrun
export MUPCRUN_MPIRUN="$MPIRUN"

# layout N SETTING... : mupcrun -n N --set SETTING... --show-config
layout() {
    n=$1
    shift
    sets=
    for s in "$@"; do sets="$sets --set $s"; done
    # shellcheck disable=SC2086
    timeout -k 5 60 "$mupcrun" -n "$n" $sets --show-config > "$out" 2>&1
    rc=$?
}

layout 4
expect_status "show-config with -n 4" 0
expect_output "one node, shared memory" "^mupc: node 0: threads 0-3 \(shared memory\)$"
expect_output "and the settings first" "^  shm = on "
layout 4 simulate_nodes=2
expect_output "2 simulated nodes of 4 threads: first half" "^mupc: node 0: threads 0,1 \(shared memory\)$"
expect_output "2 simulated nodes of 4 threads: second half" "^mupc: node 1: threads 2,3 \(shared memory\)$"
layout 3 simulate_nodes=2
# thread t is on pretend node t * 2 / 3
expect_output "3 threads on 2 simulated nodes: a node of two" "^mupc: node 0: threads 0,1 \(shared memory\)$"
expect_output "and one of one" "^mupc: node 1: thread 2$"
layout 4 simulate_nodes=4
expect_output "4 simulated nodes: thread 3 alone" "^mupc: node 3: thread 3$"
expect_output "and 4 nodes in all" "^mupc: 4 threads on 4 nodes$"
layout 2 shm=off
expect_output "shm = off: one node, messages" "^mupc: node 0: threads 0,1 \(messages\)$"
layout 2 simulate_nodes=9
expect_output "more simulated nodes than threads: a node each" "^mupc: 2 threads on 2 nodes$"

# invalid values stop the job before user code, naming key and range
run 2 60 env MUPC_SIMULATE_NODES=0 "$top_builddir/tests/mr/test_barrier"
expect_failure "simulate_nodes = 0 is refused"
expect_output "and the message names the key and the range" "simulate_nodes.*allowed: 1\.\.1024"
run 2 60 env MUPC_SHM=maybe "$top_builddir/tests/mr/test_barrier"
expect_failure "shm = maybe is refused"
expect_output "and the message names the key" "MUPC_SHM: "

# threads given different node settings (MPMD launch, one environment
# each): refused at start-up instead of computing two layouts
prog=$top_builddir/tests/mr/test_barrier
out_mpmd=$(timeout -k 5 60 "$MPIRUN" -n 1 env MUPC_SHM=on "$prog" : -n 1 env MUPC_SHM=off "$prog" 2>&1)
rc=$?
printf '%s\n' "$out_mpmd" > "$out"
if printf '%s\n' "$out_mpmd" | grep -q "proxy.*error\|unrecognized argument"; then
    ok "the launcher cannot start two programs (MPMD ':'); not checked"
else
    expect_failure "shm = on on one thread and off on another is refused"
    expect_output "and the message names both settings" \
        "node settings differ between threads: thread 0 has shm = on, simulate_nodes = 1, thread 1 shm = off"
fi

# a named-barrier mismatch is caught by the on-node barrier (one node),
# across nodes, and between a node's leader and its members
prog=$top_builddir/tests/mr/misuse
for layout in "shm=on" "simulate_nodes=2"; do
    key=$(echo "${layout%%=*}" | tr a-z A-Z)
    for n in 2 3 4; do
        run "$n" 60 env "MUPC_$key=${layout#*=}" "$prog" named-mismatch
        expect_failure "named-mismatch, $layout, $n threads, fails"
        expect_output "named-mismatch, $layout, $n threads, names both values" \
            "named barrier mismatch: thread [0-3] passed [12] but thread [0-3] passed [12]"
        run "$n" 60 env "MUPC_$key=${layout#*=}" "$prog" skip-barrier
        expect_failure "skip-barrier, $layout, $n threads, fails"
        expect_output "skip-barrier, $layout, $n threads, names where the others wait" \
            "reached the end of main .or called exit. while thread [0-3] waits in upc_barrier at "
    done
done

# Waiters asleep in a barrier, a broadcast or a lock on one node are woken by whoever
# releases them: with sleeps of up to 100 ms, a waiter left to its
# timeout would be released ~50 ms late; tests/mr/test_wake checks 30 ms.
for n in 2 3 4; do
    run "$n" 120 env MUPC_SHM=on MUPC_IDLE_SLEEP_MAX_US=100000 TEST_WAKE_MAX_MS=30 \
        "$top_builddir/tests/mr/test_wake"
    expect_status "test_wake, shm, $n threads, woken within 30 ms" 0
done
finish
