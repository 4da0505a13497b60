#!/bin/sh
# errors.sh -- API misuse stops the whole job promptly with a message that
# names the problem and the user's file:line.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/misuse
src=tests/mr/misuse.c

line_of() { grep -n "LINE_$1 " "$top_srcdir/$src" | cut -d: -f1; }

# check MODE THREADS REGEX
check() {
    run "$2" 60 "$prog" "$1"
    expect_failure "$1 ($2 threads) fails"
    expect_output "$1 names the problem" "$3"
    expect_output "$1 names $src:$(line_of "$1")" "misuse.c:$(line_of "$1"):"
}

check named-mismatch 2 'named barrier mismatch: thread [01] passed [12] but thread [01] passed [12]'
check named-mismatch 4 'named barrier mismatch: thread [0-3] passed [12] but thread [0-3] passed [12]'
check wait-mismatch 2 'upc_wait\(6\) does not match this thread.s upc_notify\(5\)'
check notify-twice 2 'already called upc_notify; call upc_wait'
check wait-alone 3 'upc_wait without a preceding upc_notify'
check barrier-in-phase 2 'upc_barrier: called between upc_notify and upc_wait'
check out-of-range 2 'pointer-to-shared out of range: thread [0-9]+, offset [0-9]+, 8 bytes.*raise segment_size'
check bad-thread 2 'pointer-to-shared out of range: thread 5'
check null 2 'null pointer-to-shared'
check bad-handle 2 'upc_sync: handle 0x12345678abcd is not an outstanding transfer'
finish
