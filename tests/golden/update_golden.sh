#!/usr/bin/env bash
# Regenerates the golden regression tier (tests/golden/expected/) from a built ascendsim binary.
# Usage: tests/golden/update_golden.sh [path/to/ascendsim]      (default: build/ascendsim)
# Runs every case of tests/golden/cases.txt with --deterministic and replaces expected/<case>/ with
# its output tree. SQLite databases are not committed; each is replaced by "<file>.db.rowcounts"
# ("<table> <rows>" per table, by table name), which golden_regression_test.cpp compares.
# Review `git diff tests/golden/expected` before committing: every change there is an output change.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
bin=${1:-$repo/build/ascendsim}
[[ -x $bin ]] || { echo "update_golden.sh: no executable ascendsim at $bin (build it or pass its path)" >&2; exit 1; }

row_counts() {  # the committed stand-in of one database
    local db=$1 table
    for table in $(sqlite3 -readonly "$db" "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name"); do
        echo "$table $(sqlite3 -readonly "$db" "SELECT COUNT(*) FROM \"$table\"")"
    done
}

while read -r name workload options; do
    [[ -z $name || $name == \#* ]] && continue
    out=$(mktemp -d)
    # shellcheck disable=SC2086  # options are separate words on purpose
    "$bin" --workload "$repo/$workload" --config-dir "$repo/configs" --deterministic --output "$out" $options >/dev/null
    while IFS= read -r -d '' db; do
        row_counts "$db" > "$db.rowcounts"
        rm "$db"
    done < <(find "$out" -name '*.db' -print0)
    rm -rf "${here:?}/expected/$name"
    mkdir -p "$here/expected/$name"
    cp -R "$out"/. "$here/expected/$name/"
    rm -rf "$out"
    echo "$name: $(find "$here/expected/$name" -type f | wc -l) files"
done < "$here/cases.txt"
