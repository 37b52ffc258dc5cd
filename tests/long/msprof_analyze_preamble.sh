# Sourced by the long-tier checks that run the real msprof-analyze (usage: ASCENDSIM SOURCE_DIR):
# sets program, source_dir and a scratch folder removed on exit; skips the test (exit 77) when
# msprof-analyze is not set up: it is not a Debian package and CI has no PyPI.
set -uo pipefail
program=$1
source_dir=$2
src=${MSPROF_ANALYZE_SRC:-/tmp/msprof-analyze}
if [[ ! -f $src/msprof_analyze/cli/entrance.py ]]; then
    echo "SKIP: no msprof-analyze source tree at $src (../shared/tools/SETUP_msprof_analyze.md)"
    exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
