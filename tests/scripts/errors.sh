#!/bin/sh
# SPDX-License-Identifier: MIT
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
check double-free 2 'upc_free: the pointer-to-shared \(thread 0, offset [0-9]+, phase 0\) was freed already \(double free\)'
check never-allocated 1 'upc_free: .* was never allocated'
check free-static 2 'upc_free: .* points into static shared data, which cannot be freed'
check free-other-thread 2 "upc_free: the pointer-to-shared \\(thread 1, offset [0-9]+, phase 0\\) points at thread 1's part of a block from upc_global_alloc or upc_all_alloc: free the pointer the allocation returned \\(thread 0\\)"
check free-fabricated 2 'upc_free: the pointer-to-shared \(thread 1, offset [0-9]+, phase 0\) was never allocated \(it points into free heap space\)'
check free-phase 2 'upc_free: the pointer-to-shared \(thread 0, offset [0-9]+, phase 3\) has phase 3: free the pointer the allocation returned \(phase 0\)'
check free-huge 2 'upc_free: the pointer-to-shared \(thread [01], offset [0-9]+, phase 0\) lies beyond the end of the shared segment'
check free-interior 2 'upc_free: .* points inside an allocated block, not at its start'
check heap-exhausted 2 'upc_global_alloc: out of shared memory: asked for 1099511627776 bytes per thread, but the symmetric heap \(upc_all_alloc, upc_global_alloc\) has [0-9]+ bytes in use and thread [01].s local heap \(upc_alloc\) reaches down to offset [0-9]+ of the [0-9]+-byte segment: no free space below it is large enough; raise segment_size in mupc.conf \(or MUPC_SEGMENT_SIZE\)'
check local-exhausted 1 'upc_alloc: out of shared memory: asked for 1099511627776 bytes, but this thread.s local heap \(upc_alloc\) has 0 bytes in use and no free space in the [0-9]+-byte segment is that large; raise segment_size'
# the two heaps share the segment: whichever finds the other in its way
# names both, and what to change
export MUPC_SEGMENT_SIZE=64M
check heaps-meet-symmetric 2 'upc_all_alloc: out of shared memory: asked for 41943040 bytes per thread, but the symmetric heap \(upc_all_alloc, upc_global_alloc\) has 0 bytes in use and thread [01].s local heap \(upc_alloc\) reaches down to offset [0-9]+ of the 67108864-byte segment: no free space below it is large enough; raise segment_size in mupc.conf \(or MUPC_SEGMENT_SIZE\), or free shared memory'
check heaps-meet-local 2 'upc_alloc: out of shared memory: asked for 41943040 bytes, but this thread.s local heap \(upc_alloc\) has 0 bytes in use at the top of the 67108864-byte segment and the symmetric heap \(upc_all_alloc, upc_global_alloc\) reaches up to offset [0-9]+: no free space between them is large enough; raise segment_size'
export MUPC_LOCAL_HEAP_PERCENT=10
check local-limit 1 'upc_alloc: out of shared memory: asked for 16777216 bytes, but this thread.s local heap has 0 bytes in use and may use at most 10% of the 67108864-byte segment; raise local_heap_percent \(or MUPC_LOCAL_HEAP_PERCENT\)'
unset MUPC_SEGMENT_SIZE MUPC_LOCAL_HEAP_PERCENT
check unlock-not-held 3 'upc_unlock: this thread does not hold the lock'
check lock-twice 2 'upc_lock: this thread already holds the lock.*not recursive'
# upc_lock_free of a held lock succeeds (UPC 1.3); a later use is a use of
# a freed lock, by the thread that freed it or by its holder
check unlock-freed 2 'upc_unlock: the lock \(host thread [01], slot [0-9]+\) has been freed'
check unlock-freed-by-other 2 'upc_unlock: the lock \(host thread 0, slot [0-9]+\) has been freed'
check wait-on-freed 2 'upc_lock: the lock \(host thread 1, slot [0-9]+\) has been freed'
# on the message path the host catches the holder's release and names its line
export MUPC_SHM=off
run 2 60 "$prog" unlock-freed-by-other
expect_failure "unlock-freed-by-other (shm off) fails"
expect_output "unlock-freed-by-other (shm off) names the line" "upc_unlock at line $(line_of unlock-freed-by-other) of thread 1: the lock \(host thread 0, slot [0-9]+\) has been freed"
run 2 60 "$prog" wait-on-freed
expect_failure "wait-on-freed (shm off) fails"
expect_output "wait-on-freed (shm off) names the line" "misuse.c:$(line_of wait-on-freed): upc_lock: the lock \(host thread 1, slot [0-9]+\) has been freed"
unset MUPC_SHM
check use-freed 2 'upc_lock: the lock .* has been freed'
check not-a-lock 1 'upc_lock: not a lock handle'
check atomic-op-outside-domain 2 'upc_atomic_relaxed: operation 0x10 \(UPC_XOR\) is not one of the operations this domain was created with'
check atomic-op-for-type 2 'upc_all_atomicdomain_alloc: operation UPC_XOR is not defined for UPC_DOUBLE'
check atomic-misaligned 2 'upc_atomic_relaxed: target offset [0-9]+ is not aligned to 8 bytes for UPC_INT64'
check coll-flags 2 'upc_all_broadcast: synchronization flags 0x3: give at most one of UPC_IN_NOSYNC'
check coll-not-permutation 3 'upc_all_permute: perm is not a permutation: perm\[0\] and perm\[1\] are both 0; each of 0..2 must appear once'
check coll-float-xor 2 'upc_all_reduceD: operation UPC_XOR \(0x10\): bitwise operations .* need an integer type'
check coll-func-null 2 'upc_all_reduceI: operation UPC_NONCOMM_FUNC \(0x10000\): .* need a function \(func is NULL\)'
check coll-too-big 2 'upc_all_broadcast: dst block: 1099511627776 bytes at thread [01], offset [0-9]+ lie outside the shared segment'

# a null private pointer in a bulk transfer, local and remote
check memget-null 2 'upc_memget: the private destination is a null pointer \(8 bytes\)'
check memput-null 2 'upc_memput: the private source is a null pointer \(8 bytes\)'
check memget-nb-null 2 'upc_memget_nb: the private destination is a null pointer \(8 bytes\)'
check memput-nbi-near-null 2 'upc_memput_nb: the private source 0x40 lies in the first 4096 bytes of memory'

# a thread leaves main while others wait in a barrier: the waiting thread
# names where it waits (the exit barrier is not a user barrier)
left='thread [0-9] reached the end of main .or called exit. while thread [0-9] waits in'
check skip-barrier 2 "thread 0 reached the end of main .or called exit. while thread 1 waits in upc_barrier at .*misuse.c:$(line_of skip-barrier);"
check skip-barrier 4 "thread 0 reached the end of main .or called exit. while thread [1-3] waits in upc_barrier at "
check extra-barrier 3 "thread [02] reached the end of main .or called exit. while thread 1 waits in upc_barrier at .*misuse.c:$(line_of extra-barrier);"
check exit-in-wait 3 "thread 2 reached the end of main .or called exit. while thread [01] waits in upc_wait at "
check exit-in-collective 2 "thread 0 reached the end of main .or called exit. while thread 1 waits in upc_all_broadcast at "
run 2 60 "$prog" exit-after-notify
expect_failure "exit-after-notify fails"
expect_output "exit-after-notify names the problem" 'main returned between upc_notify and upc_wait'

# a collective call that differs between threads: thread 0 names both
# calls with their arguments and each thread's file:line
differ() { # differ MODE THREADS CALL0 CALL1 (the calls' regexes, without file:line)
    at="at [^ ]*misuse.c:$(line_of "$1")"
    run "$2" 60 "$prog" "$1"
    expect_failure "$1 ($2 threads) fails"
    expect_output "$1 names both calls" "collective call number 1 differs between threads: thread [0-9] called ($3 $at, thread [0-9] called $4|$4 $at, thread [0-9] called $3) $at; every thread must make the same collective calls"
}
differ all-alloc-mismatch 2 'upc_all_alloc\(nblocks=1, nbytes=8\)' 'upc_all_alloc\(nblocks=2, nbytes=8\)'
differ coll-other-root 2 'upc_all_broadcast\(nbytes=8, root=0, flags=0\)' 'upc_all_broadcast\(nbytes=8, root=1, flags=0\)'
differ coll-other-flags 2 'upc_all_broadcast\(nbytes=8, root=0, flags=0\)' 'upc_all_broadcast\(nbytes=8, root=0, flags=0x1\)'
differ coll-other-nbytes 2 'upc_all_broadcast\(nbytes=8, root=0, flags=0x5\)' 'upc_all_broadcast\(nbytes=16, root=0, flags=0x5\)'
differ coll-other-op 3 'upc_all_reduceL\(op=0x1, nelems=4, blk_size=4, dst thread=0, flags=0\)' 'upc_all_reduceL\(op=0x100, nelems=4, blk_size=4, dst thread=0, flags=0\)'
# broadcast on one thread, gather on another (different lines)
run 2 60 "$prog" coll-other-call
expect_failure "coll-other-call fails"
expect_output "coll-other-call names both calls" "collective call number 1 differs between threads: thread [01] called upc_all_(broadcast|gather)\\(nbytes=8, root=0, flags=0\\) at [^ ]*misuse.c:[0-9]+, thread [01] called upc_all_(gather|broadcast)\\(nbytes=8, root=0, flags=0\\) at [^ ]*misuse.c:[0-9]+;"
expect_output "coll-other-call names both" "broadcast.*gather|gather.*broadcast"
# the same after 100 matching calls, with no barrier to send the queued
# arrivals: thread 0 learns of it while every thread waits for data
for n in 2 3; do
    run $n 60 "$prog" coll-late-call
    expect_failure "coll-late-call ($n threads) fails, without hanging"
    gather="thread 0 called upc_all_gather\\(nbytes=8, root=0, flags=0x[0-9a-f]+\\) at [^ ]*misuse.c:$(line_of coll-late-gather)"
    bcast="thread [12] called upc_all_broadcast\\(nbytes=8, root=0, flags=0x[0-9a-f]+\\) at [^ ]*misuse.c:$(line_of coll-late-call)"
    expect_output "coll-late-call ($n threads) names both calls" "collective call number 101 differs between threads: ($gather, $bcast|$bcast, $gather);"
done
# and with exchanges, which on a node wait for their targets to enter
for shm in on off; do
    for n in 2 4; do
        MUPC_SHM=$shm run $n 60 "$prog" exchange-late-call
        expect_failure "exchange-late-call ($n threads, shm $shm) fails, without hanging"
        gather="thread 0 called upc_all_gather\\(nbytes=8, root=0, flags=0x[0-9a-f]+\\) at [^ ]*misuse.c:$(line_of exchange-late-gather)"
        exch="thread [1-3] called upc_all_exchange\\(nbytes=4, flags=0x[0-9a-f]+\\) at [^ ]*misuse.c:$(line_of exchange-late-call)"
        expect_output "exchange-late-call ($n threads, shm $shm) names both calls" \
            "collective call number 101 differs between threads: ($gather, $exch|$exch, $gather);"
    done
done
# a collective call on one thread while the others wait in a barrier:
# whichever thread sees it first says so, no hang (shm on and off)
for shm in on off; do
    for n in 2 4; do
        for who in first last; do
            MUPC_SHM=$shm run $n 60 "$prog" coll-vs-barrier-$who
            expect_failure "coll-vs-barrier-$who ($n threads, shm $shm) fails, without hanging"
            expect_output "coll-vs-barrier-$who ($n threads, shm $shm) names the call and the barrier" \
                "(thread [0-9] called upc_all_alloc\\(nblocks=1, nbytes=8\\) at [^ ]*misuse.c:$(line_of coll-vs-barrier) while thread 0 waits in upc_barrier at [^ ]*misuse.c:$(line_of coll-vs-barrier-wait);|thread [0-9] waits in a barrier after 0 collective calls, while thread [0-9] has made 1, the last upc_all_alloc\\(nblocks=1, nbytes=8\\) at [^ ]*misuse.c:$(line_of coll-vs-barrier);)"
        done
    done
done
# a call on thread 0 alone that waits for nobody: the barrier after it
# merges the records (shm on: the flat barrier) and names the call
for n in 2 4; do
    MUPC_SHM=on run $n 60 "$prog" nosync-vs-barrier
    expect_failure "nosync-vs-barrier ($n threads) fails"
    expect_output "nosync-vs-barrier ($n threads) names the call" "thread [1-3] waits in a barrier after 0 collective calls, while thread 0 has made 1, the last upc_all_broadcast\\(nbytes=8, root=0, flags=0x[0-9a-f]+\\) at [^ ]*misuse.c:$(line_of nosync-vs-barrier);"
done
# a collective call while another thread has left main
check exit-in-all-alloc 2 "thread 0 reached the end of main .or called exit. while thread 1 waits in upc_all_alloc at [^ ]*misuse.c:$(line_of exit-in-all-alloc);"
check exit-in-all-alloc 4 "thread 0 reached the end of main .or called exit. while thread [1-3] waits in upc_all_alloc at "
check exit-in-nosync 3 "thread 0 reached the end of main .or called exit. while thread [12] waits in upc_all_gather at [^ ]*misuse.c:$(line_of exit-in-nosync);"
finish
