#!/usr/bin/env bash
# Runs the open-source msprof analysis (GitHub Ascend/msprof, directory analysis/) over the raw
# data of PROF_* directories, as `msprof --export=on` does, and fails if it logs an error. It
# proves that ascendsim's raw records (profiler/writers/prof_raw/) are laid out as CANN writes
# them: msprof rebuilds op_summary, op_statistic, task_time, api_statistic and the msprof
# timeline from them alone. Not run in CI (no msprof there); see docs/output-formats.md.
#
# Usage: scripts/check_with_msprof_export.sh PROF_DIR...
#   Each PROF_DIR is copied to a work folder; the folders ascendsim exported into it (timeline/,
#   summary/, mindstudio_profiler_output/, analyze/) are removed, then `export summary` and
#   `export timeline` run on the copy. The outputs are listed; the work folder's path is printed.
#   When PROF_DIR has ascendsim's own export (mindstudio_profiler_output/op_summary_*.csv, or the
#   2023 era's device_*/summary/op_summary_*.csv), the PMU columns msprof computed from the raw
#   PMU records must equal it (compare_op_summary.py).
# Environment:
#   MSPROF_SRC     an extracted Ascend/msprof tree (default /tmp/era2023/msprof): `fetch
#                  github:Ascend/msprof`, then `git -C $MIRROR/Ascend+msprof/repo archive HEAD | tar -x`
#   MSPROF_PYTHON  interpreter (default python3); msprof's analysis needs only the standard library
# Exit codes: 0 clean, 1 an error was logged or nothing was exported, 2 bad usage or no msprof.
set -uo pipefail

if [[ $# -eq 0 || $1 == -h || $1 == --help ]]; then
    sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
    [[ $# -eq 0 ]] && exit 2 || exit 0
fi
SRC=${MSPROF_SRC:-/tmp/era2023/msprof}
PY=${MSPROF_PYTHON:-python3}
ENTRANCE=$SRC/analysis/msprof/msprof.py  # the `msprof` analysis entry point
if [[ ! -f $ENTRANCE ]]; then
    echo "error: no msprof analysis at $SRC (MSPROF_SRC)" >&2
    exit 2
fi
WORK=$(mktemp -d /tmp/msprof_export_XXXXXX)
echo "work folder: $WORK"
status=0
for prof in "$@"; do
    if [[ ! -d $prof/host && -z $(ls -d "$prof"/device_* 2>/dev/null) ]]; then
        echo "error: $prof is not a PROF_* directory" >&2
        exit 2
    fi
    copy=$WORK/$(basename "$prof")
    cp -r "$prof" "$copy"
    rm -rf "$copy"/device_*/timeline "$copy"/device_*/summary "$copy"/mindstudio_profiler_output "$copy"/analyze
    for what in summary timeline; do
        PYTHONPATH=$SRC/analysis "$PY" "$ENTRANCE" export "$what" -dir "$copy" >"$WORK/$(basename "$prof").$what.out" 2>&1
    done
    if grep -h "ERROR\|Traceback" "$copy"/mindstudio_profiler_log/*.log "$WORK"/*.out; then status=1; fi
    echo "$prof:"
    ls "$copy/mindstudio_profiler_output" | sed 's/^/  /'
    if ! ls "$copy"/mindstudio_profiler_output/*.csv >/dev/null 2>&1; then
        echo "  no summary exported" >&2
        status=1
    fi
    ours=$(ls "$prof"/mindstudio_profiler_output/op_summary_*.csv "$prof"/device_*/summary/op_summary_*.csv 2>/dev/null | head -1)
    theirs=$(ls "$copy"/mindstudio_profiler_output/op_summary_*.csv 2>/dev/null | head -1)
    if [[ -n $ours && -n $theirs && $(head -1 "$ours") == *aicore_time* ]]; then
        "$PY" "$(dirname "$0")/compare_op_summary.py" "$theirs" "$ours" || status=1
    fi
done
exit $status
