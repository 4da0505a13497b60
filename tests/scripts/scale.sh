#!/bin/sh
# SPDX-License-Identifier: MIT
# scale.sh -- make check-scale: libmupc at 16 to 1,024 threads on eight
# emulated hosts (tools/mupc-cluster), oversubscribed on this machine, so
# correctness, start-up and memory, not speed.  At each count: the MPI
# program of the same shape (bench/mpi_scale) and bench/scale, each timed
# from launch to exit, with the proportional memory (Pss) of their ranks;
# then the test programs and the examples.  Prints a table with the marks
# of "What a rank costs" (doc/architecture.md) and fails on a missed mark
# or a failed program.  Root; hours on two cores (every program at 256
# threads took 19 minutes in all, test_lock 6 of them; at 512 a program
# takes 1-14 minutes, test_cache 29 before its lock rounds were cut; at
# 1,024 2-57, test_lock the 57, matmul 52), so not part of make check.  A
# program whose every rank talks to every other needs about 17 kB per peer
# per rank (cache tables, connections): at 1,024 ranks more than a 24 GB
# machine has, so the test programs sample past 16 threads, and matmul,
# which cannot, runs with a smaller cache_memory.
#   SCALE_THREADS   counts, multiples of 8 (default "16 256 512 1024")
#   SCALE_PROGRAMS  programs run at each count past 16 (default below:
#                   every test program and example)
#   SCALE_UCX_TLS   UCX transports (default sm,self,tcp: see below)
#   SCALE_MIN_FREE_MB  a run is stopped (and fails, saying so) when the
#                   machine's MemAvailable falls below this (default 1024),
#                   before the kernel's OOM killer picks a process itself
#   SCALE_STARTUP_ROUNDS  interleaved start-up rounds at each count, of
#                   which the medians are compared (default 3: at 1,024
#                   threads one MPI_Init alone took 92 to 326 s, and single
#                   runs of the two programs gave ratios of 0.77 and 1.59)
. "$top_srcdir/tests/scripts/lib.sh"
cluster=$top_builddir/tools/mupc-cluster
rounds=${SCALE_STARTUP_ROUNDS:-3}
case $rounds in
'' | *[!0-9]* | 0 | 0*)
    echo "FAIL: SCALE_STARTUP_ROUNDS=$rounds: give a positive whole number of start-up rounds (default 3)"
    exit 1 ;;
esac
if [ -z "${SCALE_TEST_INSIDE:-}" ]; then
    reason=$("$cluster" check)
    case $? in
    0) ;;
    77) echo "SKIP: $reason"; exit 77 ;;
    *) echo "FAIL: mupc-cluster check: $reason"; exit 1 ;;
    esac
    # a name beginning with mupc: "mupc-cluster clean" removes it after an interrupted run
    rm -f "$out" # exec skips lib.sh's exit trap
    SCALE_TEST_INSIDE=1 exec "$cluster" run --hosts 8 --ppn 128 --name mupcscale -- sh "$0"
fi
# MPICH 4.0.2 over UCX 1.13's TCP transport alone cannot start 1,024 ranks
# here (MPI_Init: connections time out, "Destination is unreachable"), and
# at 512 a plain MPI program dies in MPI_Finalize (UCX's tcp_cm assertion
# "stale_fd == -1").  With sm in the list, UCX carries every pair of ranks
# through shared memory, across the emulated hosts too: they share one
# kernel (an MPI ping-pong between two of them takes 1.2 us, against 12-30
# over TCP).  libmupc still sees eight hosts (its node detection is by host
# name), so its cross-node protocol runs: messages, no mapped segments
# between hosts.  The network under it is tried by make check (cluster.sh)
# and make bench-cluster, over TCP.
export UCX_TLS="${SCALE_UCX_TLS:-sm,self,tcp}"
cluster_mpirun=$MPIRUN
tmp=$(mktemp -d)
min_free_kb=$((${SCALE_MIN_FREE_MB:-1024} * 1024))
# guard_memory: every 5 s, stop the running job (every mpiexec of this
# script names node1 first in -hosts) if memory runs low, and leave a note;
# it ends with the script ($$ is the script's process in the subshell too)
guard_memory() {
    while kill -0 $$ 2> /dev/null && sleep 5; do
        avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
        if [ "$avail" -lt "$min_free_kb" ] && pkill -KILL -f -- "-hosts node1[ :,]"; then
            echo "$avail" > "$tmp/low_memory"
        fi
    done
}
guard_memory &
guard=$!
trap 'kill "$guard" 2> /dev/null; rm -rf "$tmp" "$out"' EXIT
# expect_program DESCRIPTION: the last run passed (status 0), and the memory
# guard did not stop it
expect_program() {
    if [ -e "$tmp/low_memory" ]; then
        : > "$out"
        fail "$1: stopped when MemAvailable fell to $(cat "$tmp/low_memory") kB (SCALE_MIN_FREE_MB)"
        rm -f "$tmp/low_memory"
    else
        expect_status "$1" 0
    fi
}
ex=$top_builddir/examples
mr=$top_builddir/tests/mr
# Each entry a program and its arguments joined by commas, after mpiexec
# options if any; THREADS in an argument becomes the thread count.  The
# test programs bound their all-pairs loops past 16 threads
# (tests/mr/check.h).  matmul's N must be a multiple of THREADS, and every
# rank reads a column from every thread: with the default cache_memory
# (48M: 160 tables) a rank would touch about 4 MB of cache at 1,024 threads,
# 4 GB across the job on top of MPI's 7 GB; 16M (53 tables) leaves room.
programs=${SCALE_PROGRAMS-"$mr/test_barrier $mr/test_lock $mr/test_atomic $mr/test_access
    $mr/test_pointers $mr/test_memory_model $mr/test_heap $mr/test_cache $mr/test_nb
    $mr/test_nonblocking $mr/test_wake $mr/test_coll
    $ex/heat $ex/histogram $ex/sobel -genv,MUPC_CACHE_MEMORY,16M,$ex/matmul,--loop,temporal,THREADS"}

# on_hosts N: MPIRUN puts N ranks on the 8 hosts, N/8 each, in blocks
on_hosts() {
    list=
    for i in 1 2 3 4 5 6 7 8; do list="${list:+$list,}node$i:$(($1 / 8))"; done
    printf '#!/bin/sh\nexec "%s" -hosts %s "$@"\n' "$cluster_mpirun" "$list" > "$tmp/mpirun"
    chmod +x "$tmp/mpirun"
    MPIRUN=$tmp/mpirun
}

now() { date +%s.%N; }
# timed N PROGRAM ARGS...: run, and the seconds from launch to exit in $secs
timed() {
    t0=$(now)
    run "$@"
    secs=$(echo "$(now) - $t0" | bc)
}
value() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

results=$tmp/results
: > "$results"
for n in ${SCALE_THREADS:-16 256 512 1024}; do
    on_hosts "$n"
    limit=$((120 + n * 2))
    # start-up: the trivial programs, launch to exit, interleaved rounds
    mpi_all='' mupc_all=''
    for round in $(seq "$rounds"); do
        timed "$n" "$limit" "$top_builddir/bench/mpi_startup"
        expect_program "$n threads: bench/mpi_startup (round $round)"
        mpi_all="$mpi_all $secs"
        timed "$n" "$limit" "$top_builddir/bench/startup"
        expect_program "$n threads: bench/startup (round $round)"
        mupc_all="$mupc_all $secs"
    done
    echo "$n threads, start-up rounds (s): MPI$mpi_all; mupc$mupc_all"
    # shellcheck disable=SC2086 # one word a round
    mpi_secs=$(median $mpi_all) mupc_secs=$(median $mupc_all)
    # memory and the fence
    run "$n" "$limit" "$top_builddir/bench/mpi_scale"
    expect_program "$n threads: bench/mpi_scale"
    echo "$n mpi $mpi_secs $(value mpi.scale.pss_median_kb "$out") - -" | tee -a "$results"
    run "$n" "$limit" "$top_builddir/bench/scale" 20
    expect_program "$n threads: bench/scale"
    echo "$n mupc $mupc_secs $(value mupc.scale.pss_median_kb "$out") $(value mupc.scale.fence_one_target_us "$out") $(value mupc.scale.fence_empty_us "$out") $(value mupc.scale.fence_one_polling_us "$out") $(value mupc.scale.get_polling_us "$out")" | tee -a "$results"
    [ "$n" -le 16 ] && continue
    for entry in $programs; do
        # shellcheck disable=SC2046 # the commas split an entry's words
        set -- $(echo "$entry" | sed -e "s/,/ /g" -e "s/THREADS/$n/g")
        desc=
        for word; do desc="$desc ${word#"$top_builddir"/}"; done
        timed "$n" "$((limit * 2))" "$@"
        expect_program "$n threads:$desc ($secs s)"
    done
done

# the table, and the marks
awk '
    $2 == "mpi" { ms[$1] = $3; mp[$1] = $4 }
    $2 == "mupc" { us[$1] = $3; up[$1] = $4; uf[$1] = $5; ue[$1] = $6; up1[$1] = $7; ug[$1] = $8; n[++k] = $1 }
    END {
        printf "%8s %9s %9s %6s %11s %11s %13s %13s %11s %11s\n", "threads", "MPI s", "mupc s", "ratio", "MPI Pss kB", "mupc Pss kB", "fence 1 (us)", "polling (us)", "get (us)", "fence 0 (us)"
        for (i = 1; i <= k; i++) { t = n[i]
            printf "%8d %9.1f %9.1f %6.2f %11d %11d %13.1f %13.1f %11.1f %11.3f\n", t, ms[t], us[t], (ms[t] > 0 ? us[t] / ms[t] : 0), mp[t], up[t], uf[t], up1[t], ug[t], ue[t] }
    }' "$results"
first=$(awk '$2 == "mupc" { print $1; exit }' "$results")
last=$(awk '$2 == "mupc" { t = $1 } END { print t }' "$results")
mark() { # DESCRIPTION AWK-CONDITION
    if awk "BEGIN { exit !($2) }"; then ok "mark: $1"; else echo "---- $2"; : > "$out"; fail "mark: $1"; fi
}
f() { awk -v t="$1" -v w="$2" -v c="$3" '$1 == t && $2 == w { print $c }' "$results"; }
if [ "$first" != "$last" ]; then
    mark "Pss at $last threads <= Pss at $first + 2048 kB" "$(f "$last" mupc 4) <= $(f "$first" mupc 4) + 2048"
    mark "Pss at $last threads <= MPI's + 2048 kB" "$(f "$last" mupc 4) <= $(f "$last" mpi 4) + 2048"
    mark "start-up at $last threads <= 1.3 x MPI's" "$(f "$last" mupc 3) <= 1.3 * $(f "$last" mpi 3)"
    # The fence after one write, with its target polling, is one round
    # trip at any count: no more than 1.5 strict reads of the same thread
    # timed one by one, alternating with it (up to 512 ranks per core
    # here, the round trip itself grows with the ranks waking around it).
    # With the target asleep in a barrier ("fence 1") it is mostly the
    # target's communication pthread's idle sleep, which stretches with the
    # ranks per core.  The empty fence is the fence's own bookkeeping,
    # which must not grow with the job.
    for t in "$first" "$last"; do
        mark "fence after one write at $t threads <= 1.5 round trips" "$(f "$t" mupc 7) <= 1.5 * $(f "$t" mupc 8)"
    done
    mark "empty fence at $last threads <= 2 x at $first" "$(f "$last" mupc 6) <= 2 * $(f "$first" mupc 6)"
fi
finish
