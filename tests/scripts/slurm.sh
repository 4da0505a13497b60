#!/bin/sh
# SPDX-License-Identifier: MIT
# slurm.sh -- libmupc under a real Slurm: two emulated hosts of 2 CPUs
# (mupc-slurm: mupc-cluster's hosts, a slurmctld, a slurmd on each), and
# on them, as a cluster's user works, with the build tree's MPI: a batch
# job running every example through mupcrun and upcrun; salloc with
# mupcrun and upcrun; srun launching the ranks itself (Slurm's PMI: pmi2
# for MPICH, pmix for Open MPI); a job's exit status; a crash ending its
# job; scancel leaving no process on any host; repeated jobs that must all
# end (SLURM_REPEATS).  Skipped, with the reason,
# where mupc-slurm cannot run (not root, no Slurm or munge).
if [ -z "${SLURM_TEST_TMP:-}" ]; then
    slurm=${top_builddir:-.}/tools/mupc-slurm
    reason=$("$slurm" check)
    case $? in
    0) ;;
    77) echo "SKIP: $reason"; exit 77 ;;
    *) echo "FAIL: mupc-slurm check: $reason"; exit 1 ;;
    esac
    # job scripts and their output, in a directory the hosts see
    SLURM_TEST_TMP=$(mktemp -d) || exit 1
    export SLURM_TEST_TMP
    "$slurm" run --hosts 2 --cpus 2 --share "$SLURM_TEST_TMP" --share "${top_builddir:-.}" -- sh "$0"
    rc=$?
    rm -rf "$SLURM_TEST_TMP"
    exit $rc
fi
# on the cluster's head, SLURM_CONF set
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$SLURM_TEST_TMP
name=$(sed -n 's/^ClusterName=//p' "$SLURM_CONF")
bt=$(cd "$top_builddir" && pwd -P)
ex=$bt/examples
exit_modes=$bt/tests/mr/exit_modes
state=$(dirname "$SLURM_CONF")
case $("$bt/tools/mupcrun" --version) in
*"Open MPI"*) srun_mpi=pmix ;;
*) srun_mpi=pmi2 ;; # MPICH's PMI-1 client: Slurm's pmi2 plugin serves it
esac

# slurm LIMIT COMMAND...: a Slurm command with a time limit -> $rc, $out
slurm() {
    limit=$1
    shift
    timeout -k 5 "$limit" "$@" > "$out" 2>&1
    rc=$?
}

# job NAME LIMIT SCRIPT-LINES: sbatch --wait of a 2-node, 4-task job; its
# output in $out, sbatch's status in $rc, its id in $jobid
job() {
    printf '#!/bin/sh\n#SBATCH -N 2 -n 4 -t 5\n%s\n' "$3" > "$tmp/$1.sh"
    timeout -k 5 "$2" sbatch --parsable --wait -o "$tmp/$1.out" "$tmp/$1.sh" > "$tmp/$1.id" 2>&1
    rc=$?
    jobid=$(head -n 1 "$tmp/$1.id")
    cat "$tmp/$1.id" "$tmp/$1.out" > "$out" 2>/dev/null
}

# leftovers: the processes on the hosts other than their slurmd (a job's
# end is not instantaneous: up to 15 s for its processes to go)
leftovers() {
    for t in $(seq 30); do
        left=
        for i in 1 2; do
            for p in $(ip netns pids "$name-node$i"); do
                [ "$p" = "$(cat "$state/node$i/slurmd.pid")" ] ||
                    left="$left node$i:$p:$(ps -o args= -p "$p" | cut -c1-60)"
            done
        done
        [ -z "$left" ] && return 0
        sleep 0.5
    done
    echo "$left" | tr ' ' '\n' >> "$out"
    return 1
}
expect_no_leftovers() {
    if leftovers; then ok "$1: no process left on any host"; else fail "$1: processes left on the hosts"; fi
}

# ranks_on_both REGEX: processes whose command line matches REGEX run on
# node1 and on node2
ranks_on_both() {
    for t in $(seq 60); do
        n=0
        for i in 1 2; do
            ip netns pids "$name-node$i" | xargs -r ps -o args= -p | grep -q -- "$1" && n=$((n + 1))
        done
        [ "$n" = 2 ] && return 0
        sleep 0.5
    done
    return 1
}

# ended_job ID: scontrol show job ID once the job is no longer COMPLETING
# (within 15 s; the record goes MinJobAge=5 s after)
ended_job() {
    for t in $(seq 30); do
        slurm 30 scontrol show job "$1"
        grep -q "JobState=COMPLETING" "$out" || return 0
        sleep 0.5
    done
}

slurm 30 sinfo -h -N -o '%N %t'
expect_output "sinfo: node1 idle" "^node1 idle$"
expect_output "sinfo: node2 idle" "^node2 idle$"

# A batch job: every example through mupcrun, then through upcrun
for launch in "mupcrun -n 4" "upcrun -n 4"; do
    l=${launch%% *}
    job "examples-$l" 180 "cd $bt || exit 1
$bt/tools/$launch $bt/tools/mupc-nodes
$bt/tools/$launch $ex/heat 2000 50 || exit 11
$bt/tools/$launch $ex/histogram 4096 20 || exit 12
$bt/tools/$launch $ex/sobel 64 || exit 13
$bt/tools/$launch $ex/matmul --loop naive --layout block 48 || exit 14"
    expect_status "sbatch --wait, $launch: the examples' job" 0
    expect_output "sbatch, $launch: 4 threads on 2 nodes" "^mupc: 4 threads on 2 nodes$"
    expect_output "sbatch, $launch: heat" "max error .* vs sequential: OK"
    expect_output "sbatch, $launch: histogram" "^histogram: 4 UPC threads, .* check OK$"
    expect_output "sbatch, $launch: sobel" "^sobel: 4 UPC threads, .* check OK$"
    expect_output "sbatch, $launch: matmul" "^matmul: naive loop, block striped, .* check OK$"
done

# salloc: the launcher runs on the head, the ranks on the allocation
for launch in "mupcrun -n 4" "upcrun -n 4"; do
    slurm 60 salloc -N 2 -n 4 "$bt/tools/${launch%% *}" ${launch#* } "$ex/heat" 2000 50
    expect_status "salloc -N 2 -n 4 $launch heat" 0
    expect_output "salloc, $launch: heat" "max error .* vs sequential: OK"
done

# srun starts the ranks itself, through Slurm's PMI (without --mpi, here
# MpiDefault=none, each rank would be a job of one thread)
slurm 60 srun -N 2 -n 4 --mpi=$srun_mpi "$bt/tools/mupc-nodes"
expect_output "srun --mpi=$srun_mpi: one job of 4 threads on 2 nodes" "^mupc: 4 threads on 2 nodes$"
slurm 60 srun -N 2 -n 4 --mpi=$srun_mpi "$ex/heat" 2000 50
expect_status "srun -N 2 -n 4 --mpi=$srun_mpi heat" 0
expect_output "srun --mpi=$srun_mpi: heat" "max error .* vs sequential: OK"

# Jobs end, every time, with the right status: SLURM_REPEATS (default 3;
# make check-slurm-long: 50) batch jobs of each example on 2 nodes, and
# as many srun launches of heat
repeats=${SLURM_REPEATS:-3}
for prog in "heat 2000 20" "histogram 4096 20" "sobel 64" "matmul 24"; do
    bad=0
    for i in $(seq "$repeats"); do
        job "repeat-${prog%% *}" 60 "$bt/tools/mupcrun -n 4 $ex/$prog"
        [ "$rc" -eq 0 ] || { bad=$((bad + 1)); cp "$out" "$out.bad"; }
    done
    [ "$bad" -gt 0 ] && cp "$out.bad" "$out"
    rc=$bad
    expect_status "$repeats sbatch jobs of ${prog%% *} on 2 nodes end with status 0" 0
done
bad=0
for i in $(seq "$repeats"); do
    slurm 60 srun -N 2 -n 4 --mpi=$srun_mpi "$ex/heat" 2000 20
    [ "$rc" -eq 0 ] || { bad=$((bad + 1)); cp "$out" "$out.bad"; }
done
[ "$bad" -gt 0 ] && cp "$out.bad" "$out"
rc=$bad
expect_status "$repeats srun --mpi=$srun_mpi launches of heat end with status 0" 0
rm -f "$out.bad"

# A job's exit status: 9 from every thread
job status9 60 "$bt/tools/mupcrun -n 4 $exit_modes status 9"
expect_status "sbatch --wait: status 9 from every thread" 9
slurm 30 scontrol show job "$jobid"
expect_output "scontrol show job: ExitCode=9:0" "ExitCode=9:0"
slurm 60 srun -N 2 -n 4 --mpi=$srun_mpi "$exit_modes" status 9
expect_status "srun --mpi=$srun_mpi: status 9 from every thread" 9

# A crash on one host ends the job, through the MPI launcher, or through
# srun -K (--kill-on-bad-exit: without it, under pmi2, the other ranks
# wait in their barrier until the time limit)
job crash 60 "$bt/tools/mupcrun -n 4 $exit_modes crash"
expect_failure "sbatch --wait: a crash on node2 ends the job"
expect_output "sbatch: the crash is reported" "fatal signal 11"
expect_no_leftovers "the crashed batch job"
slurm 60 srun -K -N 2 -n 4 --mpi=$srun_mpi "$exit_modes" crash
expect_failure "srun -K --mpi=$srun_mpi: a crash on node2 ends the job"
expect_no_leftovers "the crashed srun job"

# scancel of running jobs: a batch job through mupcrun, with a process
# in a session of its own (as Hydra puts each rank: Slurm must track it
# by descent, proctrack/linuxproc, not by process group), and an srun job
printf '#!/bin/sh\n#SBATCH -N 2 -n 4 -t 5\nsetsid sleep 300 &\n%s\n' "$bt/tools/mupcrun -n 4 $ex/heat 2000 100000000" > "$tmp/long.sh"
slurm 30 sbatch --parsable -o "$tmp/long.out" "$tmp/long.sh"
jobid=$(head -n 1 "$out")
if ranks_on_both "^$ex/heat "; then ok "sbatch: heat runs on both hosts"; else fail "sbatch: heat runs on both hosts"; fi
slurm 30 scancel "$jobid"
expect_status "scancel of the batch job" 0
ended_job "$jobid"
expect_output "scontrol show job: the batch job CANCELLED" "JobState=CANCELLED"
expect_no_leftovers "scancel of the batch job"

timeout -k 5 120 srun -N 2 -n 4 --mpi=$srun_mpi "$ex/heat" 2000 100000000 > "$tmp/srun.out" 2>&1 &
srun_pid=$!
if ranks_on_both "^$ex/heat "; then ok "srun: heat runs on both hosts"; else fail "srun: heat runs on both hosts"; fi
slurm 30 scancel --name heat
expect_status "scancel of the srun job" 0
wait "$srun_pid"
rc=$?
cp "$tmp/srun.out" "$out"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ]; then ok "srun fails when its job is cancelled (status $rc)"; else fail "srun fails when its job is cancelled: status $rc"; fi
expect_no_leftovers "scancel of the srun job"
finish
