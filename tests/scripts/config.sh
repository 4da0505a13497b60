#!/bin/sh
# config.sh -- bad configuration stops the job before user code, naming
# the file:line or variable, the key, why, and what is allowed.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/exit_modes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT

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
finish
