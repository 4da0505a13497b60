#!/bin/sh
# SPDX-License-Identifier: MIT
# cache_modes.sh -- test_cache under several cache geometries and with the
# cache off: each run checks every read against its model, and the final
# array (printed as a digest by thread 0) must be byte-identical in every
# mode.  The small geometries force conflicts, victim traffic and
# write-backs on eviction; MUPC_CACHE_STATS prints the counters, so the
# script also checks that the cache was really used.  shm = off: the
# cache serves only threads of other nodes, so with on-node shared memory
# these runs would never touch it.  cache_memory = 64K holds one table of
# the last geometry: past two threads every new remote thread reuses it.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/test_cache

modes="cache=off
cache=on
cache=on cache_line_size=64 cache_sets=16 victim_cache_lines=0
cache=on cache_line_size=64 cache_sets=16 victim_cache_lines=2
cache=on cache_line_size=2048 cache_sets=16 victim_cache_lines=64
cache=on cache_line_size=2048 cache_sets=16 victim_cache_lines=2 cache_memory=64K"

for n in 2 3 4; do
    reference=
    # the modes come on fd 3: mpirun reads standard input
    while IFS= read -r mode <&3; do
        # shellcheck disable=SC2086
        run $n 120 env MUPC_SHM=off $(echo " $mode cache_stats=on" | sed 's/ \([a-z_]*\)=/ MUPC_\U\1=/g') "$prog"
        desc="$mode ($n threads)"
        if [ "$rc" -ne 0 ]; then fail "$desc: status $rc"; continue; fi
        digest=$(sed -n 's/^digest //p' "$out")
        if [ -z "$digest" ]; then fail "$desc: no digest"; continue; fi
        if [ -z "$reference" ]; then
            reference=$digest
            ok "$desc: digest $digest"
        elif [ "$digest" = "$reference" ]; then
            ok "$desc: same digest as with the cache off"
        else
            fail "$desc: digest $digest, with the cache off $reference"
        fi
        case $mode in
        cache=off) expect_output "$desc: statistics say off" "thread 0: cache off" ;;
        *) expect_output "$desc: the cache served hits" "thread 1: cache: [0-9]+ accesses, [1-9][0-9]* hits" ;;
        esac
        case $mode,$n in
        *cache_memory=64K,[34]) # one table (41 KiB) for two or three remote threads
            expect_output "$desc: tables were reused" "thread 1: cache: .*; 1 thread tables held, [1-9][0-9]* reused" ;;
        *cache_memory=64K,2) # one remote thread: its table is never reused
            expect_output "$desc: one table, not reused" "thread 1: cache: .*; 1 thread tables held, 0 reused" ;;
        esac
        case $mode in
        *cache_line_size=64\ *) expect_output "$desc: conflicts evicted lines" "thread 1: cache: .* [1-9][0-9]* evictions" ;;
        esac
    done 3<<MODES
$modes
MODES
done
finish
