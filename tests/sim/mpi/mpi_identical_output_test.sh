#!/usr/bin/env bash
# `mpirun -np 2 ascendsim` writes the same rank directories, byte for byte, as one process: the
# 4-rank TP2 x DP2 unit with a slow rank (distinct ranks simulated on both processes, arrival
# times exchanged over MPI) and without (every rank alike), and the 4-stage 1F1B pipeline unit
# (each process simulates its two stages once and replays them in the later rounds), with its
# transfers separate and batched (Megatron's batch_p2p_comm). The same with `-np 3`: the pipeline's
# four stages are then planned whole to the processes by their estimated cost (one process writes
# two stages), and the slow-rank unit's two rank kinds, fewer than the processes, keep the
# contiguous ranges (a kind simulated by two processes).
# Usage: mpi_identical_output_test.sh ASCENDSIM SOURCE_DIR
set -euo pipefail
binary=$1
source_dir=$2
if ! command -v mpirun >/dev/null; then
    echo "mpirun not installed (apt-get install openmpi-bin): skipped"
    exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mpi_flags=(--oversubscribe)
[ "$(id -u)" -eq 0 ] && mpi_flags+=(--allow-run-as-root)

# check NAME WORKLOAD [ascendsim args...]; NP processes (default 2).
check() {
    local name=$1 workload=$2 np=${NP:-2}
    shift 2
    mkdir -p "$scratch/$name/one" "$scratch/$name/two"
    "$binary" --workload "$source_dir/workloads/unit/$workload" --config-dir "$source_dir/configs" \
        --deterministic --output "$scratch/$name/one" "$@" >"$scratch/$name/one.log"
    mpirun "${mpi_flags[@]}" -np "$np" "$binary" --workload "$source_dir/workloads/unit/$workload" \
        --config-dir "$source_dir/configs" --deterministic --output "$scratch/$name/two" "$@" \
        >"$scratch/$name/two.log"
    local count
    count=$(find "$scratch/$name/two" -maxdepth 1 -name '*_ascend_pt' | wc -l)
    if [ "$count" -ne 4 ]; then
        echo "$name: mpirun -np $np wrote $count rank directories, expected 4"
        exit 1
    fi
    if ! diff -r "$scratch/$name/one" "$scratch/$name/two" >"$scratch/$name/diff.txt"; then
        echo "$name: the trees differ:"
        head -20 "$scratch/$name/diff.txt"
        exit 1
    fi
    echo "$name: identical ($count rank directories, -np $np)"
}

check slow_rank tp_dp.yaml --set slow_rank=1:1.5
check alike tp_dp.yaml
check pipeline pipeline_1f1b.yaml
check pipeline_batched pipeline_1f1b.yaml --set batch_p2p=1
NP=3 check slow_rank_np3 tp_dp.yaml --set slow_rank=1:1.5
NP=3 check pipeline_np3 pipeline_1f1b.yaml --set batch_p2p=1
