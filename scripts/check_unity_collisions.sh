#!/usr/bin/env bash
# Finds file-scope names that two source files of one target both define, which break the unity
# build of the sanitized CI tier (scripts/run_sanitized_tests.sh) with "redefinition of ..."
# although the normal build, file by file, is clean. It configures ./build-unity-check with every
# target as ONE unity source (batch size 0, so any batch size and file order the real build picks
# is covered) and only checks syntax (a build type SyntaxOnly of -fsyntax-only, which the
# compiler check at configure time does not use: nothing is compiled or linked, so the link
# steps are not run). Prints each collision and exits 1 if there is one.
# A file that collides either gets a distinct name or goes on ASCENDSIM_NOT_UNITY_FILES
# (cmake/UnityBuild.cmake). docs/reliability.md "Unity builds".
#   scripts/check_unity_collisions.sh
set -uo pipefail
cd "$(dirname "$0")/.."
generator=()
if [[ ! -f build-unity-check/CMakeCache.txt ]] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
cmake -S . -B build-unity-check "${generator[@]}" -DCMAKE_BUILD_TYPE=SyntaxOnly \
  -DCMAKE_CXX_FLAGS_SYNTAXONLY=-fsyntax-only -DASCENDSIM_WERROR=OFF \
  -DASCENDSIM_UNITY_BUILD=ON -DASCENDSIM_UNITY_BATCH_SIZE=0 \
  -DASCENDSIM_BENCHMARKS=OFF -DASCENDSIM_LONG_TESTS=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null || exit 2
log=build-unity-check/collisions.log
# Each unity source's own compile command from compile_commands.json, run directly: building
# through ninja would skip a target that depends on another's link step (cli_tests needs the
# ascendsim binary), and with -fsyntax-only nothing links, so such targets went unchecked.
python3 - build-unity-check/compile_commands.json >build-unity-check/unity_commands.txt <<'PY'
import json, sys
for entry in json.load(open(sys.argv[1])):
    if "/Unity/unity_" in entry["file"]:
        print("cd %s && %s" % (entry["directory"], entry["command"]))
PY
: >"$log"
xargs -P "$(nproc)" -I{} -d '\n' sh -c '{} 2>&1' <build-unity-check/unity_commands.txt >>"$log"
if grep -E -B2 -A3 "error: (redefinition|conflicting declaration)" "$log"; then
  echo "unity collisions found (full log: $log)" >&2
  exit 1
fi
if grep -qE "error:" "$log"; then
  grep -m5 -B2 -E "error:" "$log" >&2
  echo "compile errors other than collisions (full log: $log)" >&2
  exit 1
fi
echo "no unity collisions ($(wc -l <build-unity-check/unity_commands.txt) unity sources checked)"
