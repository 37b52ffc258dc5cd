#!/usr/bin/env bash
# Cluster benchmark (docs/performance.md "Clusters" and "MPI"): the 128-rank Llama TP8 x PP4 x DP4
# step at Level1 (4 pipeline stages in 1F1B: each stage simulated once, the arrival rounds settled
# on replays), one process against `mpirun -np 2`, with identical output checked (diff -r).
#
# Usage: bench/cluster_bench.sh [BUILD_DIR] [EXTRA ascendsim ARGS...]
#   e.g. bench/cluster_bench.sh build, or bench/cluster_bench.sh build --set dp=1 (32 ranks)
#
# Runs, in order:
#   llama128_one_thread   one process writing on one thread (the reference tree for diff -r)
#   llama128_one_process  one process on the default writer threads (the machine's hardware threads)
#   llama128_mpirun_np2   `mpirun -np 2`, one writer thread per process (if mpirun is installed)
#   CLUSTER_BENCH_SLOW=1: also the step with a slow rank (--set slow_rank=3:1.2), one process
#   against mpirun -np 2
# For each run it prints: wall seconds, user + sys CPU of every process (/usr/bin/time around each
# one), disk used, the rank directories written, the load average before and after (from
# /proc/loadavg, as `uptime` prints it: figures taken at a load above the core count carry the
# other jobs' contention), and each process's "cluster: ..." lines: the ranks it writes, the wall
# and CPU time of its simulation (and of each rank kind's), of its waits in the exchange, and of
# its writing. Last, the speed-up of mpirun -np 2 over one process: wall, and CPU critical path
# (per process its simulation CPU plus its writing CPU divided by its writer threads, the largest
# of the processes: what the wall time would be on free cores). On a loaded machine the wall
# ratio flatters mpirun: two processes get a larger share of the contended cores than one.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
binary=$(realpath "$build/ascendsim")
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cluster_bench_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mpi_flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)

load() { cut -d' ' -f1-3 /proc/loadavg; }

# One process's CPU as /usr/bin/time writes it to FILE ("user sys"): "U + S = T s".
cpu_of() { awk '{ printf "%.1f + %.1f = %.1f s", $1, $2, $1 + $2 }' "$1"; }

# run NAME PROCESSES ascendsim ARGS...: runs one process, or PROCESSES under mpirun, each timed by
# /usr/bin/time into $scratch/NAME.cpu.P; prints the figures above.
declare -A wall_of cpu_max_of
run() {
    local name=$1 processes=$2
    shift 2
    local out=$scratch/$name
    mkdir -p "$out"
    local before start end
    before=$(load)
    start=$(date +%s.%N)
    if [ "$processes" -eq 1 ]; then
        /usr/bin/time -f '%U %S' -o "$scratch/$name.cpu.0" "$binary" "$@" -o "$out" --log-level info \
            >"$scratch/$name.log" 2>&1 || { echo "$name failed:"; tail -5 "$scratch/$name.log"; exit 1; }
    else
        # Each process times itself: mpirun's own clock would sum them.
        mpirun "${mpi_flags[@]}" -np "$processes" bash -c \
            '/usr/bin/time -f "%U %S" -o "$0.cpu.$OMPI_COMM_WORLD_RANK" "$@"' "$scratch/$name" \
            "$binary" "$@" -o "$out" --log-level info >"$scratch/$name.log" 2>&1 ||
            { echo "$name failed:"; tail -5 "$scratch/$name.log"; exit 1; }
    fi
    end=$(date +%s.%N)
    wall_of[$name]=$(echo "$end - $start" | bc)
    printf '%-26s %7.1f s wall  %6s on disk  %3d rank dirs  load %s -> %s\n' "$name" "${wall_of[$name]}" \
        "$(du -sh "$out" | cut -f1)" "$(find "$out" -maxdepth 1 -name '*_ascend_pt' | wc -l)" "$before" "$(load)"
    local p
    for ((p = 0; p < processes; ++p)); do
        echo "    process $p: user + sys $(cpu_of "$scratch/$name.cpu.$p")"
    done
    grep -ho 'cluster: .*' "$scratch/$name.log" | sed 's/^/    /' || true
    # CPU critical path: per process its simulation CPU plus its writing CPU over its writer
    # threads (the writing runs on all of them), the largest over the processes.
    cpu_max_of[$name]=$(grep -ho 'cluster: .*' "$scratch/$name.log" | awk '
        { p = match($0, /process [0-9]+ of/) ? substr($0, RSTART + 8, RLENGTH - 11) : 0
          if (!match($0, /, [0-9.]+ s CPU/)) next
          cpu = substr($0, RSTART + 2, RLENGTH - 8) + 0 }
        / simulated in / { sim[p] = cpu }
        / wrote / { threads = $0; sub(/.* on /, "", threads); write[p] = cpu / (threads + 0) }
        END { for (q in sim) if (sim[q] + write[q] > max) max = sim[q] + write[q]; printf "%.1f", max }')
    echo "    CPU critical path: ${cpu_max_of[$name]} s (simulation + writing over its threads, slowest process)"
}

# same REFERENCE NAME: the tree of run NAME is byte-identical to run REFERENCE's.
same() {
    diff -r "$scratch/$1" "$scratch/$2" >/dev/null && echo "$2: output identical to $1" ||
        { echo "$2: OUTPUT DIFFERS from $1"; exit 1; }
    rm -rf "${scratch:?}/$2"
}

# speedup ONE TWO: wall and CPU critical path of run TWO against run ONE.
speedup() {
    printf '%s against %s: %.2fx wall, %.2fx CPU critical path\n' "$2" "$1" \
        "$(echo "${wall_of[$1]} / ${wall_of[$2]}" | bc -l)" "$(echo "${cpu_max_of[$1]} / ${cpu_max_of[$2]}" | bc -l)"
}

echo "machine: $(nproc) cores; uptime: $(uptime)"
llama=(--workload workloads/llama_tp_pp_dp.yaml --level Level1 --deterministic "$@")
run llama128_one_thread 1 "${llama[@]}" --write-threads 1
run llama128_one_process 1 "${llama[@]}"
same llama128_one_thread llama128_one_process
if command -v mpirun >/dev/null; then
    run llama128_mpirun_np2 2 "${llama[@]}"
    same llama128_one_thread llama128_mpirun_np2
    speedup llama128_one_process llama128_mpirun_np2
fi
if [ "${CLUSTER_BENCH_SLOW:-0}" = 1 ]; then
    run llama128_slow_rank 1 "${llama[@]}" --set slow_rank=3:1.2
    if command -v mpirun >/dev/null; then
        run llama128_slow_mpirun_np2 2 "${llama[@]}" --set slow_rank=3:1.2
        same llama128_slow_rank llama128_slow_mpirun_np2
        speedup llama128_slow_rank llama128_slow_mpirun_np2
    fi
fi
echo "uptime at the end: $(uptime)"
