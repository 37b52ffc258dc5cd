#!/usr/bin/env bash
# Host instructions of the main job, counted by valgrind's callgrind: a figure that does not move
# with the machine's load or speed, so two builds can be compared on a busy or variable VM where
# wall and CPU seconds cannot (docs/performance.md "Session 25").
#
# Usage: bench/instruction_count.sh [BINARY...]     (default: build/ascendsim)
#   e.g. bench/instruction_count.sh /tmp/old/ascendsim build/ascendsim
#   ASCENDSIM_COUNT_ARGS="--workload workloads/resnet50.yaml --level Level2" overrides the run.
#   ASCENDSIM_COUNT_TOP=N prints each binary's N costliest functions (default 8).
# For each binary it prints the instructions executed (Ir) of the whole run, the functions that
# cost the most, and the run's output tree checksum (to see that the builds did the same work);
# with two or more binaries, each one's change against the first. A run takes about 60-100 times
# its native time (3-4 minutes for the main job on the 2-core build VM).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "instruction_count.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
[ $# -eq 0 ] && set -- build/ascendsim
read -r -a run_args <<< "${ASCENDSIM_COUNT_ARGS:---workload workloads/resnet50.yaml --level Level2}"
top=${ASCENDSIM_COUNT_TOP:-8}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/instruction_count_XXXXXX")
trap 'rm -rf "$scratch"' EXIT
first=""
n=0
for binary in "$@"; do
    [ -x "$binary" ] || { echo "instruction_count.sh: $binary is not an executable" >&2; exit 2; }
    n=$((n + 1))
    out="$scratch/out$n"
    profile="$scratch/callgrind$n.out"
    echo "== $binary ${run_args[*]} --deterministic"
    valgrind --tool=callgrind --callgrind-out-file="$profile" "$binary" "${run_args[@]}" \
        --deterministic -o "$out" >/dev/null 2>"$scratch/valgrind$n.log" ||
        { tail -5 "$scratch/valgrind$n.log" >&2; exit 1; }
    total=$(sed -n 's/^summary: *//p' "$profile")
    printf 'instructions: %s\n' "$total"
    callgrind_annotate --threshold=100 "$profile" 2>/dev/null |
        awk -v top="$top" '/file:function/ {on = 1; next} on && NF && !/^-/ && shown < top {sub(/ \[.*/, ""); print "  " $0; ++shown}'
    printf 'output tree checksum: %s\n' "$(cd "$out" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
    if [ -z "$first" ]; then
        first=$total
    else
        awk -v a="$first" -v b="$total" 'BEGIN { printf "against the first binary: %+.2f %%\n", (b - a) * 100.0 / a }'
    fi
done
