#!/usr/bin/env bash
# The real client finds the slow rank we inject (long tier): msprof-analyze's `advisor all` over
# the folder of the 4-rank TP2 x DP2 unit (workloads/unit/tp_dp.yaml, Level1) with
# `--set slow_rank=1:1.5` picks rank 1 as the cluster's slowest computing rank. Without the slow
# rank it picks rank 0: advisor compares every (step, rank) row, the unit's two profiled steps
# differ by 11 % (the first computes 261 us, the second 232 us), and among the four equal rows of
# the longer step it takes the first. The 128-rank Llama step with slow_rank=3:1.2
# is the full-size case (docs/performance.md, session 15: advisor names rank 3 in stage 0).
# Skips (exit 77) when msprof-analyze is not set up (scripts/check_with_msprof_analyze.sh).
# usage: msprof_advisor_slow_rank_check.sh ASCENDSIM SOURCE_DIR
source "$(dirname "$0")/msprof_analyze_preamble.sh"
for run in slow even; do
    mkdir -p "$scratch/$run"
    sets=()
    [[ $run == slow ]] && sets=(--set slow_rank=1:1.5)
    "$program" --workload "$source_dir/workloads/unit/tp_dp.yaml" --level Level1 --deterministic \
        "${sets[@]}" -o "$scratch/$run" >/dev/null 2>"$scratch/sim.err" ||
        { echo "FAIL: simulation $run: $(cat "$scratch/sim.err")"; exit 1; }
done
MSPROF_ANALYSES="cluster-advisor" bash "$source_dir/scripts/check_with_msprof_analyze.sh" \
    "$scratch/slow" "$scratch/even" >"$scratch/advisor.txt"
rc=$?
cat "$scratch/advisor.txt"
[[ $rc -eq 2 ]] && exit 77  # the tool's dependencies are missing
[[ $rc -ne 0 ]] && exit 1
# The lines of each folder's section: "== DIR" starts one.
section() { awk -v dir="$scratch/$1" '/^== /{on = index($0, "== " dir " ") == 1} on' "$scratch/advisor.txt"; }
if ! section slow | grep -q 'advisor: Maximum computation time for rank 1$'; then
    echo "FAIL: advisor did not name the slow rank 1"
    exit 1
fi
if ! section even | grep -q 'advisor: Maximum computation time for rank 0$'; then
    echo "FAIL: without the slow rank advisor did not pick rank 0"
    exit 1
fi
echo "advisor names the injected slow rank 1, and rank 0 without it"
