#!/usr/bin/env bash
# Runs the real msprof-analyze over result directories, as a new user would, and fails if any
# analysis logs an error. For developers: msprof-analyze is not a Debian package and CI has no
# PyPI, so CI keeps the structural rules it depends on as unit tests instead
# (tests/sim/engine/command/client_structure_test.cpp, tests/sim/engine/stream_event_tasks_test.cpp,
# tests/profiler/writers/communication_transports_test.cpp).
#
# Usage: scripts/check_with_msprof_analyze.sh DIR...
#   DIR: a *_ascend_pt directory, or a folder holding them (the ranks of one run, or several runs).
#   Per *_ascend_pt directory: `advisor all`, and `compare` against itself (operator, module, API
#   and kernel trees). Per DIR: `cluster` (all; not applicable to a non-distributed run, whose
#   profiler_info.json carries no rank), and with a DB export the recipes
#   cluster_time_summary, compute_op_sum and hccl_sum.
# Environment:
#   MSPROF_ANALYZE_SRC  source tree to import (default /tmp/msprof-analyze; set it up as
#                       ../shared/tools/SETUP_msprof_analyze.md says, or see docs/output-formats.md)
#   MSPROF_PYTHON       interpreter that sees Debian's python3-* packages (default /usr/bin/python3)
#   KEEP_LOGS=1         keep the work folder with every log and result (its path is printed)
#   MSPROF_TIMEOUT      seconds one analysis may take (default 1800; a timeout fails it)
#   MSPROF_ANALYSES     which to run (default "advisor compare cluster recipes"; add
#                       "cluster-advisor" for `advisor all` over a distributed run's folder, which
#                       lists the ranks advisor found slowest)
#   MSPROF_COMPARE_BASE a *_ascend_pt directory to compare each one against (default: itself),
#                       e.g. the same workload on another chip, or a real sample of the same level
#   MSPROF_PER_RANK_MAX advisor/compare on the first N *_ascend_pt of a DIR only (default all; a
#                       128-rank run is checked by cluster and a few ranks)
# msprof-analyze exits 0 even when an analysis fails, so every log is read: a line with ERROR,
# Traceback, Exception or "Failed"/"failed to" fails the check (exit 1). Lines saying an analysis
# found no data are listed, not failed: the real samples report the same ones (docs/output-formats.md).
# A run without collectives (no communication.json, no COMMUNICATION_OP table) skips the
# communication recipes and lists cluster's two communication-group errors instead of failing.
# A text export whose communication.json steps hold p2p ops only lists advisor's and compare's
# "rdma_bandwidth" error (a bug of msprof-analyze that real data of that kind meets too).
# With Python's SQLite older than 3.44 (Debian 12), advisor's call-stack query on a DB export with
# affinity APIs is refused; that error is listed ("env"), not failed. LD_LIBRARY_PATH=DIR holding a
# newer libsqlite3.so.0 runs it (docs/output-formats.md).
# Exit codes: 0 all analyses clean, 1 an analysis logged an error, 2 bad usage or no msprof-analyze.
set -uo pipefail

if [[ $# -eq 0 || $1 == -h || $1 == --help ]]; then
    sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'
    [[ $# -eq 0 ]] && exit 2 || exit 0
fi

SRC=${MSPROF_ANALYZE_SRC:-/tmp/msprof-analyze}
PY=${MSPROF_PYTHON:-/usr/bin/python3}
if [[ ! -f $SRC/msprof_analyze/cli/entrance.py ]]; then
    echo "error: no msprof-analyze source tree at $SRC (MSPROF_ANALYZE_SRC)." >&2
    echo "       Set it up as ../shared/tools/SETUP_msprof_analyze.md describes." >&2
    exit 2
fi
if ! PYTHONPATH=$SRC "$PY" -c 'import click, pandas, sqlalchemy, xlsxwriter, ijson, networkx' 2>/dev/null; then
    echo "error: $PY cannot import msprof-analyze's dependencies (python3-click, python3-pandas," >&2
    echo "       python3-sqlalchemy, python3-xlsxwriter, python3-ijson, python3-networkx, ...)." >&2
    exit 2
fi

# advisor reads DB call stacks with GROUP_CONCAT(... ORDER BY ...) (advisor/dataset/stack/
# db_stack_finder.py), an ordered aggregate SQLite parses from 3.44 on; Debian 12 has 3.40.1.
SQLITE_VERSION=$("$PY" -c 'import sqlite3; print(sqlite3.sqlite_version)')
SQLITE_OLD=$("$PY" -c 'import sqlite3; print(int(sqlite3.sqlite_version_info < (3, 44, 0)))')
STACK_QUERY_ERROR='db_stack_finder.py:[0-9]*] Error loading API stack data: Execution failed on sql'
SQLITE_ORDER_ERROR='near "ORDER": syntax error'

WORK=$(mktemp -d "${TMPDIR:-/tmp}/msprof_check_XXXXXX")
if [[ ${KEEP_LOGS:-0} == 1 ]]; then
    echo "logs and results: $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi

# In-memory shims for Debian's older libraries (no edits to the tool's files):
# xlsxwriter 3.0.2 has no Worksheet.autofit (advisor's xlsx); cluster's Pool(os.cpu_count() // 2)
# is Pool(0) on a 1-CPU machine.
cat > "$WORK/msprof_analyze_cli.py" <<'EOF'
import os
import sys

_cpus = os.cpu_count
os.cpu_count = lambda: max(2, _cpus() or 1)
from xlsxwriter.worksheet import Worksheet
if not hasattr(Worksheet, "autofit"):
    Worksheet.autofit = lambda self, *args, **kwargs: None
if __name__ == "__main__":  # spawned worker processes import this file again: shims only
    sys.argv[0] = "msprof-analyze"
    from msprof_analyze.cli.entrance import msprof_analyze_cli
    msprof_analyze_cli()
EOF

FAILED=0
RUN=0
ANALYSES=" ${MSPROF_ANALYSES:-advisor compare cluster recipes} "
wanted() { [[ $ANALYSES == *" $1 "* ]]; }

# run NAME CWD ARGS...: runs one analysis, prints PASS/FAIL, and the lines saying "no data".
run() {
    local name=$1 cwd=$2
    shift 2
    local log="$WORK/logs/$(echo "$name" | tr ' /' '__').log"
    mkdir -p "$WORK/logs" "$cwd"
    (cd "$cwd" && PYTHONPATH=$SRC timeout "${MSPROF_TIMEOUT:-1800}" "$PY" "$WORK/msprof_analyze_cli.py" "$@") \
        >"$log" 2>&1
    local rc=$?
    RUN=$((RUN + 1))
    local errors all_errors expected=""
    all_errors=$(grep -E 'ERROR|Traceback|Exception|Failed|[Ff]ailed to' "$log")
    # Without collectives the run has no communication group: the communication recipes inside
    # `cluster` log these two errors on any single-card profile. They are listed, not failed.
    if [[ $HAS_COLLECTIVES == 0 && -n $all_errors ]]; then
        expected=$(grep -E "$NO_COLLECTIVE_ERRORS" <<<"$all_errors")
        all_errors=$(grep -v -E "$NO_COLLECTIVE_ERRORS" <<<"$all_errors")
    fi
    local tool_bug="" old_sqlite=""
    if [[ $P2P_ONLY == 1 && -n $all_errors ]]; then
        tool_bug=$(grep -E "$P2P_ONLY_TOOL_BUG" <<<"$all_errors")
        all_errors=$(grep -v -E "$P2P_ONLY_TOOL_BUG" <<<"$all_errors")
    fi
    # Every stack query refused by an SQLite older than 3.44 (one 'near "ORDER"' per error line).
    if [[ $SQLITE_OLD == 1 && -n $all_errors ]] &&
        [[ $(grep -c "$STACK_QUERY_ERROR" <<<"$all_errors") -eq $(grep -c "$SQLITE_ORDER_ERROR" "$log") ]]; then
        old_sqlite=$(grep "$STACK_QUERY_ERROR" <<<"$all_errors" |
            sed 's/.*\(\[[0-9-]* [0-9:]*\]\[ERROR\]\)/\1/; s/: Execution failed on sql.*//')
        all_errors=$(grep -v "$STACK_QUERY_ERROR" <<<"$all_errors")
    fi
    errors=$(head -5 <<<"$all_errors" | sed '/^$/d')
    if [[ $rc -ne 0 || -n $errors ]]; then
        FAILED=$((FAILED + 1))
        echo "FAIL  $name (exit $rc)"
        [[ -n $errors ]] && sed 's/^/        /' <<<"$errors"
        [[ -z $errors ]] && tail -3 "$log" | sed 's/^/        /'
    elif [[ -n $tool_bug ]]; then
        echo "bug   $name: msprof-analyze's own error, not a failure (below)"
    elif [[ -n $old_sqlite ]]; then
        echo "env   $name: SQLite $SQLITE_VERSION refuses msprof-analyze's stack query (below)"
    else
        echo "pass  $name"
    fi
    grep -iE 'no data|not find|not exist|is empty|skip' "$log" | grep -v -E 'ERROR' | sort -u |
        head -8 | sed 's/^/        note: /'
    [[ -n $expected ]] && sed 's/^/        expected without collectives: /' <<<"$expected"
    [[ -n $tool_bug ]] && sed 's/^/        msprof-analyze bug on p2p-only steps: /' <<<"$tool_bug"
    [[ -n $old_sqlite ]] && sed 's/^/        needs SQLite >= 3.44 (LD_LIBRARY_PATH=DIR of a newer libsqlite3.so.0): /' <<<"$old_sqlite"
    return 0
}

# The tool's errors on a run without collectives (no COMMUNICATION_OP table, no communication.json).
NO_COLLECTIVE_ERRORS='Create CommunicationGroupMap table failed|There is no CommunicationGroupMapping data'
HAS_COLLECTIVES=1
# msprof-analyze's compare backend (npu_profiling_parser.py _update_bandwidth) binds rdma_bandwidth
# only for a step whose "collective" part has a "Total Op Info"; torch_npu writes `"collective": {}`
# for a step of p2p ops only (_communication_parser.py compute_total_info), so advisor's overall
# analysis and compare raise on such a profile, real or simulated (docs/output-formats.md).
P2P_ONLY_TOOL_BUG="cannot access local variable 'rdma_bandwidth'"
P2P_ONLY=0
# p2p_only PT: true when PT's communication.json has steps and none of them holds a collective op.
p2p_only() {
    local json=$1/ASCEND_PROFILER_OUTPUT/communication.json
    [[ -f $json ]] || return 1
    "$PY" -c 'import json, sys
steps = json.load(open(sys.argv[1]))
sys.exit(0 if steps and not any(kinds.get("collective") for kinds in steps.values()) else 1)' "$json"
}
# has_collectives PT...: true when a directory has communication.json or a DB COMMUNICATION_OP table.
has_collectives() {
    local pt db
    for pt in "$@"; do
        [[ -f $pt/ASCEND_PROFILER_OUTPUT/communication.json ]] && return 0
        for db in "$pt"/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler*.db; do
            [[ -f $db ]] || continue
            "$PY" -c 'import sqlite3, sys
con = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
sys.exit(0 if con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", ("COMMUNICATION_OP",)).fetchone() else 1)' \
                "$db" && return 0
        done
    done
    return 1
}

for dir in "$@"; do
    if [[ ! -d $dir ]]; then
        echo "error: $dir is not a directory" >&2
        exit 2
    fi
    dir=$(cd "$dir" && pwd)
    mapfile -t pts < <(if [[ $dir == *_ascend_pt ]]; then echo "$dir"; else
        find "$dir" -mindepth 1 -maxdepth 1 -type d -name '*_ascend_pt' | sort; fi)
    if [[ ${#pts[@]} -eq 0 ]]; then
        echo "error: no *_ascend_pt directory in $dir" >&2
        exit 2
    fi
    tag=$(basename "$dir")
    if has_collectives "${pts[@]}"; then HAS_COLLECTIVES=1; else HAS_COLLECTIVES=0; fi
    per_rank=("${pts[@]:0:${MSPROF_PER_RANK_MAX:-${#pts[@]}}}")
    echo "== $dir (${#pts[@]} profiler director$([[ ${#pts[@]} -eq 1 ]] && echo y || echo ies))"
    # cluster reads a folder of *_ascend_pt directories and writes into it: give it a copy.
    cluster_in="$WORK/$tag/cluster_input"
    mkdir -p "$cluster_in"
    for pt in "${pts[@]}"; do cp -r "$pt" "$cluster_in/"; done
    for pt in "${per_rank[@]}"; do
        name=$(basename "$pt")
        out="$WORK/$tag/$name"
        if p2p_only "$pt"; then P2P_ONLY=1; else P2P_ONLY=0; fi
        wanted advisor &&
            run "advisor all  $tag/$name" "$out/advisor" advisor all -d "$pt" -o "$out/advisor" -l en --force
        wanted compare &&
            run "compare      $tag/$name" "$out/compare" compare -d "$pt" -bp "${MSPROF_COMPARE_BASE:-$pt}" -o "$out/compare" --force
    done
    P2P_ONLY=0
    # torch_npu names the file profiler_info_{rank}.json only under torch.distributed; a
    # non-distributed run's profiler_info.json has no rank, and cluster cannot place it ("Failed to
    # get rank_id"), real or simulated. Such a run is not a cluster: say so instead of failing.
    if wanted cluster && ! compgen -G "$cluster_in/*/profiler_info_*.json" >/dev/null; then
        echo "n/a   cluster      $tag: a non-distributed run (profiler_info.json has no rank; ascendsim --rank 0 writes one)"
    elif wanted cluster; then
        run "cluster      $tag" "$WORK/$tag/cluster" cluster -d "$cluster_in" -m all \
            -o "$WORK/$tag/cluster" --force
    fi
    # advisor over the whole cluster folder (MSPROF_ANALYSES must name it): its slow-rank and
    # computation analyses, which compare the ranks; listed below are the ranks it picked as the
    # slowest computing one, of the cluster or of each pipeline stage.
    if wanted cluster-advisor && compgen -G "$cluster_in/*/profiler_info_*.json" >/dev/null; then
        run "advisor-cl   $tag" "$WORK/$tag/cluster_advisor" advisor all -d "$cluster_in" \
            -o "$WORK/$tag/cluster_advisor" -l en --force
        grep -hoE 'For stage-[0-9]+, slow rank is [0-9]+|Maximum computation time for rank [0-9]+|No slow rank with computation time' \
            "$WORK/logs/advisor-cl___$tag.log" | sort -u | sed 's/^/        advisor: /'
    fi
    if wanted recipes &&
        compgen -G "$cluster_in/*/ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler*.db" >/dev/null; then
        for recipe in cluster_time_summary compute_op_sum hccl_sum; do
            # cluster_time_summary and hccl_sum sum communication: a run without collectives has
            # none (no COMMUNICATION_OP table), so they do not apply.
            if [[ $HAS_COLLECTIVES == 0 && $recipe != compute_op_sum ]]; then
                echo "n/a   $(printf '%-12s' "$recipe") $tag: no collectives in the run"
                continue
            fi
            run "$(printf '%-12s' "$recipe") $tag" "$WORK/$tag/$recipe" cluster -d "$cluster_in" \
                -m "$recipe" -o "$WORK/$tag/$recipe" --force
        done
    fi
done

echo "$RUN analyses, $FAILED failed"
[[ $FAILED -eq 0 ]] || exit 1
