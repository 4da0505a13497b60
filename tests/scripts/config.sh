#!/bin/sh
# SPDX-License-Identifier: MIT
# config.sh -- bad configuration stops the job before user code, naming
# the file:line or variable, the key, why, and what is allowed.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/exit_modes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
# run_on_one_core N PROGRAM ARGS...: run, every rank on CPU 0
run_on_one_core() {
    n=$1
    shift
    timeout -k 5 60 taskset -c 0 "$MPIRUN" -n "$n" "$@" > "$out" 2>&1
    rc=$?
}

MUPC_BATCH_SIZE=3000 run 2 30 "$prog" status 0
expect_status "bad environment value exits 2" 2
expect_output "names the variable, key and rule" \
    "environment MUPC_BATCH_SIZE: batch_size: 3000 is not a power of two; allowed:"

printf '# test\nsegment_size = 8M\nbogus_key = 1\n' > "$tmp/bad.conf"
MUPC_CONF=$tmp/bad.conf run 2 30 "$prog" status 0
expect_status "unknown key exits 2" 2
expect_output "names file:line of the unknown key" "bad.conf:3: unknown key 'bogus_key'"

printf 'spin_polls = -4\n' > "$tmp/neg.conf"
MUPC_CONF=$tmp/neg.conf run 3 30 "$prog" status 0
expect_output "rejects a negative value" "neg.conf:1: spin_polls: .*allowed: 0\\.\\.1000000"

printf 'segment_size = 2M\nbatch_size = 4K\nverbose = 1\n' > "$tmp/good.conf"
MUPC_CONF=$tmp/good.conf run 2 30 "$prog" status 0
expect_status "a good file is accepted" 0
expect_output "verbose prints the settings" "segment_size = 2M"
expect_output "and where they came from" "batch_size = 4K"

MUPC_CONF=$tmp/missing.conf run 2 30 "$prog" status 0
expect_failure "MUPC_CONF naming a missing file is an error"
expect_output "and says which" "missing.conf"
# A comment may be of any length (lines of over 1022 characters were refused).
{ printf '# '; head -c 3000 /dev/zero | tr '\0' 'x'; printf '\nverbose = 1\n'; } > "$tmp/long.conf"
MUPC_CONF=$tmp/long.conf run 2 30 "$prog" status 0
expect_status "a 3000-character comment line is accepted" 0
expect_output "and the line after it is read" "verbose = 1 .*long.conf:2"

MUPC_CONF=$tmp run 2 30 "$prog" status 0
expect_status "MUPC_CONF naming a directory exits 2" 2
expect_output "and says it is a directory" "'$tmp' is a directory; name a file"

printf 'spin_polls = 5\nspin_polls = 6\nverbose = 1\n' > "$tmp/dup.conf"
MUPC_CONF=$tmp/dup.conf run 3 30 "$prog" status 0
expect_status "a key set twice is accepted" 0
expect_output "with a warning naming both lines" \
    "warning: .*dup.conf:2: spin_polls is set again \\(first set at .*dup.conf:1\\)"
expect_output "and the later value used" "spin_polls = 6 .*dup.conf:2"
if [ "$(grep -c 'is set again' "$out")" = 1 ]; then ok "the warning comes once, not per thread"
else fail "the duplicate-key warning came $(grep -c 'is set again' "$out") times"; fi

MUPC_CACHE_LINE_SISE=256 run 3 30 "$prog" status 0
expect_status "a misspelt MUPC_ variable does not stop the job" 0
expect_output "but is named with the closest key" \
    "environment MUPC_CACHE_LINE_SISE is not a libmupc setting and is ignored; did you mean MUPC_CACHE_LINE_SIZE"
if [ "$(grep -c 'is not a libmupc setting' "$out")" = 1 ]; then ok "that warning comes once"
else fail "the unknown-variable warning came $(grep -c 'is not a libmupc setting' "$out") times"; fi

printf 'cache_sets = 6\0014\n' > "$tmp/bin.conf"
MUPC_CONF=$tmp/bin.conf run 2 30 "$prog" status 0
expect_status "a binary byte in a setting exits 2" 2
expect_output "naming the key, byte and column" "bin.conf:1: cache_sets: byte 0x01 at column 15 is not text"

# mupcrun --set: keys are lower case, and it says so.
mupcrun=$top_builddir/tools/mupcrun
"$mupcrun" --set CACHE=off -n 1 true > "$out" 2>&1; rc=$?
expect_status "mupcrun --set CACHE=off is refused" 2
expect_output "with the lower-case spelling" "keys are lower case: --set cache=off"
"$mupcrun" --conf "$tmp" -n 1 true > "$out" 2>&1; rc=$?
expect_status "mupcrun --conf DIRECTORY is refused" 2
expect_output "saying it is a directory" "is a directory"
# Ranks per core: on one core, 8 ranks stretch the idle sleep's default
# bound (2 ms x 8), a value the user set stays, and 3 ranks (below the
# stretch) keep 2 ms.  The ranks inherit taskset's single core.
MUPC_VERBOSE=1 run_on_one_core 8 "$prog" status 0
expect_status "8 ranks on one core run" 0
expect_output "stretch the idle sleep 8 times" \
    "8 ranks per core on thread 0's node: waits spin 25 polls, yield for yield_window_us .*; idle communication pthreads sleep up to 16000 us"
expect_output "and, one node, sleep until woken" "then sleep until woken \(every message rings a bell: one node\)"
expect_output "with 8 ranks per core no wake-up is measured" \
    "wake_cost_us = 200 +# default: 8 ranks per core: the largest the policy takes"
MUPC_VERBOSE=1 MUPC_IDLE_SLEEP_MAX_US=3000 run_on_one_core 8 "$prog" status 0
expect_output "but not a value the user set" "8 ranks per core .* sleep up to 3000 us"
MUPC_CACHE_MEMORY=64K run 2 30 "$prog" status 0
expect_failure "cache_memory too small for one table stops the job"
expect_output "naming the setting, the table's size and what to change" \
    "cache_memory = 65536 bytes \(environment MUPC_CACHE_MEMORY\) cannot hold the table of one remote thread \(cache_sets = 256 lines of cache_line_size = 1024 bytes: 313368 bytes\): raise cache_memory to at least 307K"
MUPC_CACHE_MEMORY=307K run 2 30 "$prog" status 0
expect_status "one table's worth is enough" 0

MUPC_VERBOSE=1 run_on_one_core 3 "$prog" status 0
expect_output "3 ranks per core keep the default" "3 ranks per core .* sleep up to 2000 us"
# The waiting policy's wake-up cost: measured (auto), or the user's.
MUPC_VERBOSE=1 run 2 30 "$prog" status 0
expect_output "wake_cost_us = auto is measured at start-up" \
    "wake_cost_us = [0-9]+ +# default: measured: a futex wake-up of another process, [0-9.]+ us"
MUPC_VERBOSE=1 MUPC_WAKE_COST_US=40 run 2 30 "$prog" status 0
expect_output "a wake_cost_us the user set is taken as it is" \
    "wake_cost_us = 40 +# environment MUPC_WAKE_COST_US"
MUPC_WAKE_COST_US=500 run 2 30 "$prog" status 0
expect_failure "wake_cost_us out of range stops the job"
expect_output "naming the range" "wake_cost_us.*500.*allowed: 1\.\.200, or auto"
finish
