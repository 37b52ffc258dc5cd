#!/usr/bin/env bash
# Cluster benchmarks (docs/performance.md "Clusters"): wall time, user CPU and disk of the
# 128-rank Llama TP8 x PP4 x DP4 step at Level1 (4 pipeline stages in 1F1B: each stage simulated
# once, the arrival rounds settled on replays): one process writing its rank directories on one
# thread, the same on the default writer threads, and `mpirun -np 2` (identical output checked
# with diff -r); with CLUSTER_BENCH_SLOW=1 also a slow rank. Prints the machine's load with each
# figure (the numbers mean little on a loaded machine without it) and each process's
# "cluster: ..." lines: the wall and CPU time of its simulation and of its writing.
# Usage: bench/cluster_bench.sh [BUILD_DIR] [EXTRA ascendsim ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true
binary=$build/ascendsim
scratch=$(mktemp -d "${TMPDIR:-/tmp}/cluster_bench_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mpi_flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)

load() { cut -d' ' -f1-3 /proc/loadavg; }

# run NAME COMMAND...: wall seconds, disk of the output, load before and after.
run() {
    local name=$1
    shift
    local out=$scratch/$name
    mkdir -p "$out"
    local before start end
    before=$(load)
    start=$(date +%s.%N)
    /usr/bin/time -f '%U' -o "$scratch/$name.user" "$@" -o "$out" --log-level info >"$scratch/$name.log" 2>&1 ||
        { echo "$name failed:"; tail -5 "$scratch/$name.log"; exit 1; }
    end=$(date +%s.%N)
    printf '%-28s %7.1f s wall  %7.1f s user  %6s on disk  %3d rank dirs  load %s -> %s\n' "$name" \
        "$(echo "$end - $start" | bc)" "$(tail -1 "$scratch/$name.user")" "$(du -sh "$out" | cut -f1)" \
        "$(find "$out" -maxdepth 1 -name '*_ascend_pt' | wc -l)" "$before" "$(load)"
    grep -ho 'cluster: .*' "$scratch/$name.log" | sed 's/^/    /' || true
}

llama=(--workload workloads/llama_tp_pp_dp.yaml --level Level1 --deterministic "$@")
# same NAME: the tree of run NAME is byte-identical to the one-thread, one-process run's.
same() {
    diff -r "$scratch/llama128_one_thread" "$scratch/$1" >/dev/null &&
        echo "$1: output identical to one process on one thread" || { echo "$1: OUTPUT DIFFERS"; exit 1; }
    rm -rf "${scratch:?}/$1"
}
# One process writing on one thread (the reference), then on the default threads (the machine's
# hardware threads), then two processes with one writer thread each.
run llama128_one_thread "$binary" "${llama[@]}" --write-threads 1
run llama128_one_process "$binary" "${llama[@]}"
same llama128_one_process
if command -v mpirun >/dev/null; then
    run llama128_mpirun_np2 mpirun "${mpi_flags[@]}" -np 2 "$binary" "${llama[@]}"
    same llama128_mpirun_np2
fi
# CLUSTER_BENCH_SLOW=1: also the step with a slow rank, one process against mpirun -np 2.
if [ "${CLUSTER_BENCH_SLOW:-0}" = 1 ]; then
    run llama128_slow_rank "$binary" "${llama[@]}" --set slow_rank=3:1.2
    if command -v mpirun >/dev/null; then
        run llama128_slow_mpirun_np2 mpirun "${mpi_flags[@]}" -np 2 "$binary" "${llama[@]}" --set slow_rank=3:1.2
        diff -r "$scratch/llama128_slow_rank" "$scratch/llama128_slow_mpirun_np2" >/dev/null &&
            echo "mpirun -np 2 (slow rank): output identical to one process" ||
            { echo "slow rank: OUTPUT DIFFERS"; exit 1; }
    fi
fi
