#!/usr/bin/env bash
# `ascendsim matrix` end to end on the unit MatMul: the trees and MANIFEST.json appear, every
# digest in the manifest is the file's sha256sum, one job and two jobs give byte-identical
# manifests, planned skips are listed, and a bad axis value or a non-empty output folder exits 2
# leaving nothing behind.
# usage: matrix_cli_test.sh ASCENDSIM SOURCE_DIR
set -euo pipefail
program=$1
source_dir=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
workload="$source_dir/workloads/unit/matmul.yaml"
axes=(--levels L0,L1 --metrics None,PipeUtilization --eras 8.3,2024 --export text,db)

"$program" matrix -w "$workload" "${axes[@]}" -j 1 -o "$scratch/one" >"$scratch/one.out" 2>/dev/null ||
    fail "matrix -j 1 failed: $(cat "$scratch/one.out")"
"$program" matrix -w "$workload" "${axes[@]}" -j 2 -o "$scratch/two" >/dev/null 2>&1 || fail "matrix -j 2 failed"
cmp -s "$scratch/one/MANIFEST.json" "$scratch/two/MANIFEST.json" || fail "manifests differ between -j 1 and -j 2"

# 2 levels x 2 metrics x 2 eras x 2 exports = 16; Level0 x PipeUtilization (4) are skipped.
written=$(grep -c '"status": "written"' "$scratch/one/MANIFEST.json")
skipped=$(grep -c '"status": "skipped"' "$scratch/one/MANIFEST.json")
[ "$written" -eq 12 ] && [ "$skipped" -eq 4 ] || fail "expected 12 written and 4 skipped, got $written and $skipped"
grep -q "4 skipped: torch_npu forces aic_metrics" "$scratch/one.out" || fail "skips not reported: $(cat "$scratch/one.out")"
[ -d "$scratch/one/Level1-PipeUtilization-2024-db" ] || fail "no Level1-PipeUtilization-2024-db tree"
[ ! -e "$scratch/one/Level0-PipeUtilization-8.3-text" ] || fail "a skipped combination has a tree"

# Every listed digest is the file's own.
python3 - "$scratch/one" <<'PY'
import hashlib, json, os, sys
root = sys.argv[1]
manifest = json.load(open(os.path.join(root, "MANIFEST.json")))
checked = 0
for c in manifest["combinations"]:
    if c["status"] != "written":
        continue
    tree = os.path.join(root, c["name"])
    listed = sorted(f["path"] for f in c["files"])
    on_disk = sorted(os.path.relpath(os.path.join(d, f), tree) for d, _, fs in os.walk(tree) for f in fs)
    assert listed == on_disk, (c["name"], set(listed) ^ set(on_disk))
    for f in c["files"]:
        data = open(os.path.join(tree, f["path"]), "rb").read()
        assert hashlib.sha256(data).hexdigest() == f["sha256"], f["path"]
        assert len(data) == f["bytes"], f["path"]
        checked += 1
assert checked > 100, checked
PY

set +e
"$program" matrix -w "$workload" --levels L7 -o "$scratch/bad" 2>"$scratch/bad.err"; status=$?
set -e
[ "$status" -eq 2 ] || fail "a bad level exited $status, not 2"
grep -q -- "--levels: unknown value 'L7'" "$scratch/bad.err" || fail "bad level message: $(cat "$scratch/bad.err")"
[ ! -e "$scratch/bad" ] || fail "a rejected matrix left an output folder"
set +e
"$program" matrix -w "$workload" --levels L1 -o "$scratch/one" 2>"$scratch/busy.err"; status=$?
set -e
[ "$status" -eq 2 ] || fail "a non-empty output folder exited $status, not 2"
ls -d "$scratch"/one.tmp-* >/dev/null 2>&1 && fail "a staging folder was left behind"
echo "ok: $written trees, $skipped skipped, manifests identical at -j 1 and -j 2"
