#!/usr/bin/env bash
# The real client on our output (long tier): msprof-analyze's advisor, compare, cluster and the DB
# recipes read a 2-rank data-parallel run (workloads/unit/allreduce.yaml: compute, an HCCL
# AllReduce with its stream events, an optimizer op after the compute stream's wait) at Level1
# and Level2, text and db, through scripts/check_with_msprof_analyze.sh, which fails on any error
# line the tool logs. Skips (exit 77) when msprof-analyze is not set up: it is not a Debian package
# and CI has no PyPI (tests/sim/engine/stream_event_tasks_test.cpp and client_structure_test.cpp
# keep the structural rules in the CI tier).
# usage: msprof_analyze_check.sh ASCENDSIM SOURCE_DIR
source "$(dirname "$0")/msprof_analyze_preamble.sh"
status=0
for level in Level1 Level2; do
    for export in text db; do
        out="$scratch/allreduce_${level}_$export"
        mkdir -p "$out"
        "$program" --workload "$source_dir/workloads/unit/allreduce.yaml" --level "$level" \
            --export-type "$export" --deterministic -o "$out" >/dev/null 2>"$scratch/sim.err" ||
            { echo "FAIL: simulation $level $export: $(cat "$scratch/sim.err")"; exit 1; }
        bash "$source_dir/scripts/check_with_msprof_analyze.sh" "$out"
        rc=$?
        [[ $rc -eq 2 ]] && exit 77  # the tool's dependencies are missing
        [[ $rc -ne 0 ]] && status=1
    done
done
exit $status
