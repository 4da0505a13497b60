#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_smoke.sh -- `make bench` works: a quick pass of bench/run-bench
# produces every figure bench/RESULTS.md lists, each a number, and the
# tables bench/results-md makes of them.
. "$top_srcdir/tests/scripts/lib.sh"
MPIRUN=$MPIRUN MPICC=${MPICC:-mpicc} BENCH_BUILDDIR=$top_builddir timeout -k 5 240 \
    bash "$top_srcdir/bench/run-bench" --quick > "$out" 2>&1
rc=$?
expect_status "run-bench --quick" 0
for name in mpi.pingpong.rtt_us mpi.pingpong.bw_mbs mpi.rma_get_us mpi.barrier.us \
            mpi.barrier_4t_us mupc.get.latency_us mupc.put.issue_us mupc.memget.bw_mbs \
            mupc.barrier.us mupc.get.latency_4t_us mupc.barrier_4t_us mupc.idle.extra_cpu_s \
            mupc.alloc.global_us mupc.lock.uncontended_us mupc.atomic.fadd_us \
            mupc.alloc.all_us mupc.lock.contended_us mupc.local.hot_get_ns mupc.cache.hit_ns \
            mupc.cache.miss_us mupc.vector.cached_us_per_dword mupc.gasp.get_nohooks_us \
            mupc.gasp.get_hooks_us mupc.gasp.get_count_us gasp.overhead.none_pct \
            gasp.overhead.count_pct mupc.checks.off.get_us mupc.checks.bounds.get_us \
            mupc.checks.off.local_get_ns mupc.checks.bounds.local_get_ns \
            checks.overhead.get_pct checks.overhead.local_get_pct mupc.xlate.private.get_ns \
            mupc.xlate.local.get_ns mupc.xlate.local_any.get_ns mupc.xlate.matmul_s mupc.hand.matmul_s \
            mupc.xlate.ptr_private_get_ns mupc.xlate.ptr_local_get_ns mupc.xlate.ptr_shm_get_ns \
            mupc.xlate.naive_kernel_s mupc.xlate.tuned_kernel_s mupc.xlate.forall_ns \
            mupc.xlate.forall_blocked_ns mupc.xlate.forall_private_ns \
            mupc.io.write_bw_mbs mpi.io.write_bw_mbs mupc.shm.barrier.us mupc.shm.barrier_4t_us \
            mupc.sim2.barrier.us mupc.barrier_wait_wake_us mupc.shm.barrier_4t_loaded_us \
            mupc.coll_wait_wake_us mupc.futex_wake_us mupc.futex_barrier_4t_loaded_us \
            mupc.xlate.dir_local_get_ns \
            mupc.xlate.dir_stencil_ns mupc.xlate.privatized_stencil_ns \
            mupc.startup_16t_s mpi.startup_16t_s mupc.xlate.translate_ms cc.translated_ms; do
    expect_output "prints $name" "^$name -?[0-9]+\\.[0-9]+$"
done
for name in mpi.bcast_8b_us mpi.allreduce_d_us mpi.alltoall_64k_mbs mupc.local.get_ns \
            mupc.private.get_ns mupc.apexmap.nocache.l1.k1_mbs mupc.apexmap.line1024.sets64.l64.k0.01_mbs \
            mupc.table51.naive.nocache_s mupc.table51.temporal.line2048_s \
            mupc.table51.temporal.line256.miss_rate_pct; do
    expect_output "prints $name" "^$name -?[0-9]+(\.[0-9]+)?$"
done
# the performance matrix: every pattern, read and write, cache off and on, 2 and 4 threads
for pattern in stream stream_stride1 baseline coalesce vector local ring flush; do
    for column in read.nocache write.nocache read.cache write.cache; do
        for t in "" _4t; do
            grep -Eq "^mupc\.$pattern\.$column${t}_us_per_dword [0-9]+\.[0-9]+$" "$out" ||
                fail "no figure mupc.$pattern.$column${t}_us_per_dword"
        done
    done
done
ok "prints the whole performance matrix"
expect_output "prints the matrix as a table" "^baseline +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$"
expect_output "prints the Apex-MAP table" "^line1024.sets64$"
expect_output "prints Table 5.1" "^temporal +[0-9.]+ \| +[0-9.]+ +[0-9.]+%"
expect_output "prints a progress line per run" "^run-bench: \[[0-9]+\] 2 threads: .*bench/matrix"
expect_output "prints the marks" "^mark get_vs_mpi_rtt "
expect_output "prints the cache marks" "^mark vector_cached_vs_get "
expect_output "prints the GASP marks" "^mark gasp_overhead_count_pct "
expect_output "prints the translated-code mark" "^mark xlate_local_vs_private "
expect_output "prints the translated-kernel mark" "^mark xlate_matmul_vs_hand "
expect_output "prints the translation-time mark" "^mark xlate_translate_vs_cc "
expect_output "prints the wake-up marks" "^mark barrier_wait_wake_vs_mpi "
expect_output "and the loaded barrier's" "^mark shm_barrier_4t_loaded_us "
expect_output "and against the bare futex barrier's" "^mark shm_barrier_4t_loaded_vs_futex "
expect_output "and the wake-ups against the kernel's floor" "^mark coll_wait_wake_vs_futex "
# bench/waits: the on-node waits against the message path, 3 and 4 threads
for t in 3 4; do
    for prefix in mupc.waits mupc.waits_msg; do
        for f in all_alloc_free all_lock_alloc_free gather_all broadcast_allsync barrier; do
            expect_output "prints $prefix.${f}_${t}t_us" "^$prefix\.${f}_${t}t_us [0-9]+\.[0-9]+$"
        done
        expect_output "prints $prefix.exchange_64k_${t}t_mbs" "^$prefix\.exchange_64k_${t}t_mbs [0-9]+\.[0-9]+$"
    done
    expect_output "marks the ${t}-thread waits against the message path" \
        "^mark waits_all_alloc_free_${t}t_vs_msg +[0-9]+\.[0-9]+ "
done
expect_output "and the pointer read once per loop" "^mark xlate_dir_local_vs_private "
expect_output "and the two-node barrier's" "^mark sim2_barrier_vs_mpi "
plots=$(mktemp -d) # run-bench's output, for mupc-bench-plot below
cp "$out" "$plots/run.txt"
# its result file, as bench/results-md prints it for bench/RESULTS.md:
# a table per area of marks, each figure beside its baseline, and the sweep
file=$(sed -n 's/^run-bench: results written to //p' "$plots/run.txt")
if [ -r "$file" ]; then ok "run-bench --quick writes its result file"; else fail "no result file ('$file')"; fi
bash "$top_srcdir/bench/results-md" "$file" > "$out" 2>&1
rc=$?
expect_status "bench/results-md" 0
expect_output "an area's table" "^### On one node \\(shared memory, the default\\)$"
expect_output "a mark of a ratio, with both figures and the verdict" \
    "^\\| \`get_vs_mpi_rtt\` \\| .* \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| <= 2.0x \\| (ok|\\*\\*MISSED\\*\\*) \\|$"
expect_output "the waits against the message path" "^\\| \`waits_exchange_4t_vs_msg\` \\| "
expect_output "the sweep, with the futex floor" "^\\| 3 \\| [0-9.]+ / [0-9.]+ \\| [0-9.]+ \\| "
expect_output "and the performance matrix" "^baseline +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$"
bash "$top_srcdir/bench/results-md" /nonexistent > "$out" 2>&1
rc=$?
expect_status "bench/results-md without a file" 2
# --splice: what lies between a page's markers is replaced, the rest kept
printf 'top\n<!-- make bench: begin x -->\nold\n<!-- make bench: end -->\nbottom\n' > "$plots/page.md"
echo new > "$plots/new.md"
bash "$top_srcdir/bench/results-md" --splice "make bench" "$plots/new.md" "$plots/page.md" > "$out" 2>&1
rc=$?
expect_status "bench/results-md --splice" 0
if [ "$(tr '\n' ' ' < "$plots/page.md")" = "top <!-- make bench: begin x --> new <!-- make bench: end --> bottom " ]; then
    ok "--splice replaces what lies between the markers"
else fail "--splice left: $(cat "$plots/page.md")"; fi
printf 'top\n' > "$plots/page.md"
bash "$top_srcdir/bench/results-md" --splice "make bench" "$plots/new.md" "$plots/page.md" > "$out" 2>&1
rc=$?
expect_status "bench/results-md --splice on a page without markers" 2
expect_output "says the markers are lost" "has lost its '<!-- make bench: begin/end -->' markers"
# the sweep's floor: a bare futex barrier of N processes
"$top_builddir/bench/futex_barrier" -n 3 --quick > "$out" 2>&1
rc=$?
expect_status "bench/futex_barrier -n 3" 0
expect_output "prints the 3-process floor" "^mupc\\.futex_barrier_3t_us [0-9]+\\.[0-9]+$"
"$top_builddir/bench/futex_barrier" -n 1 > "$out" 2>&1
rc=$?
expect_status "bench/futex_barrier -n 1" 2
expect_output "says what it takes" "-n takes 2 to 64 processes, not '1'"
# The counting tool in bench/gasp_count really gets the events it is timed with.
GASP_COUNT_REPORT=1 MUPC_CACHE=off timeout -k 5 60 $MPIRUN -n 2 "$top_builddir/bench/gasp_count" --quick > "$out" 2>&1
rc=$?
expect_status "bench/gasp_count --quick" 0
expect_output "its tool counted thread 0's gets" "^gasp_count_tool: thread 0 counted [1-9][0-9]* gets$"
# make bench-cluster's barrier beside MPI_Barrier in one job (a hybrid
# program: it calls MPI itself), here on one host
MUPC_CACHE=off timeout -k 5 60 $MPIRUN -n 2 "$top_builddir/bench/barrier_mpi" --quick > "$out" 2>&1
rc=$?
expect_status "bench/barrier_mpi --quick" 0
for name in mupc.injob.barrier.us mpi.injob.barrier.us injob.barrier.ratio; do
    expect_output "bench/barrier_mpi prints $name" "^$name [0-9]+\.[0-9]+$"
done
# make bench-cluster's MPI_Barrier beside a pthread that only wakes up
# (plain MPI); a period it cannot take gets the usage and status 2
timeout -k 5 60 $MPIRUN -n 2 "$top_builddir/bench/mpi_waker" --quick > "$out" 2>&1
rc=$?
expect_status "bench/mpi_waker --quick" 0
for name in mpi.waker_off.barrier.us mpi.waker_on.barrier.us waker.barrier.ratio; do
    expect_output "bench/mpi_waker prints $name" "^$name [0-9]+\.[0-9]+$"
done
timeout -k 5 60 $MPIRUN -n 2 "$top_builddir/bench/mpi_waker" 2ms > "$out" 2>&1
rc=$?
expect_status "bench/mpi_waker 2ms" 2
expect_output "prints its usage" "^usage: mpi_waker .*got '2ms'$"
# mupc-bench-plot draws what run-bench printed (or says what to install)
bash "$top_srcdir/tools/mupc-bench-plot" -o "$plots/out" "$plots/run.txt" > "$out" 2>&1
rc=$?
if [ -s "$plots/out/matrix.dat" ] && [ -s "$plots/out/matrix_4t.gp" ] && [ -s "$plots/out/apexmap.gp" ] &&
   [ "$(grep -c '^[a-z_0-9]* ' "$plots/out/matrix.dat")" = 8 ]; then
    ok "mupc-bench-plot writes the data and scripts (8 patterns)"
else fail "mupc-bench-plot: data or scripts missing in $plots/out"; fi
# the sweep: six figures, each at the 3 and 4 threads of a quick run
if [ -s "$plots/out/waits.gp" ] && [ "$(grep -c '^[34] [0-9.]* [0-9.]* ' "$plots/out/waits.dat")" = 12 ]; then
    ok "mupc-bench-plot writes the sweep's data (6 figures at 3 and 4 threads)"
else fail "mupc-bench-plot: the sweep's data is missing or short in $plots/out"; fi
if command -v gnuplot > /dev/null; then
    expect_status "mupc-bench-plot with gnuplot" 0
    for f in matrix matrix_4t apexmap waits; do
        if grep -q "<svg" "$plots/out/$f.svg" 2>/dev/null; then ok "drew $f.svg"; else fail "no $f.svg"; fi
    done
else
    expect_status "mupc-bench-plot without gnuplot fails" 1
    expect_output "and says what to install" "gnuplot is not installed \\(apt-get install gnuplot-nox\\)"
fi
echo "x 1" > "$plots/none.txt"
bash "$top_srcdir/tools/mupc-bench-plot" -o "$plots/none" "$plots/none.txt" > "$out" 2>&1
rc=$?
expect_status "mupc-bench-plot on a file without figures" 1
expect_output "says so" "has no performance-matrix, Apex-MAP or bench/waits figures"
rm -rf "$plots"
# bench/run-nas on stand-ins that print what the NAS programs print: the
# medians, the ratio, its verdict, and a run that does not verify
nas=$(mktemp -d)
mkdir "$nas/upc" "$nas/mpi"
fake_nas() { # fake_nas FILE SECONDS VERDICT
    printf '#!/bin/sh\necho " Time in seconds =   %s"\necho " Verification    =   %s"\n' "$2" "$3" > "$1"
    chmod +x "$1"
}
fake_nas "$nas/upc/cg.B.O3.2" 9.00 SUCCESSFUL
fake_nas "$nas/mpi/cg.B.x" 10.00 SUCCESSFUL
fake_nas "$nas/upc/ft.A.O1.2" 3.00 SUCCESSFUL
fake_nas "$nas/mpi/ft.A.x" 2.00 SUCCESSFUL
MUPCRUN=$top_builddir/tools/mupcrun timeout -k 5 120 bash "$top_srcdir/bench/run-nas" \
    --upc "$nas/upc" --mpi "$nas/mpi" --rounds 1 --out "$nas/report" cg.B ft.A > "$out" 2>&1
rc=$?
expect_status "run-nas on verified runs" 0
expect_output "run-nas: cg.B under MPI" "^\\| cg.B \\| 9.00 \\| 10.00 \\| 0.900 \\| ok \\|$"
expect_output "run-nas: ft.A over MPI" "^\\| ft.A \\| 3.00 \\| 2.00 \\| 1.500 \\| MISSED \\|$"
if grep -q '^nas.cg.B.upc_s 9.00$' "$nas/report"; then ok "run-nas writes its lines"; else fail "run-nas: no lines in $nas/report"; fi
fake_nas "$nas/upc/cg.B.O3.2" 9.00 UNSUCCESSFUL
MUPCRUN=$top_builddir/tools/mupcrun timeout -k 5 120 bash "$top_srcdir/bench/run-nas" \
    --upc "$nas/upc" --mpi "$nas/mpi" --rounds 1 --out "$nas/report" cg.B > "$out" 2>&1
rc=$?
expect_status "run-nas on a run that does not verify" 1
expect_output "says so" "upc FAILED s"
bash "$top_srcdir/bench/run-nas" --upc "$nas/none" --mpi "$nas/mpi" > "$out" 2>&1
rc=$?
expect_status "run-nas without its directories" 2
rm -rf "$nas"
finish
