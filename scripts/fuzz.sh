#!/usr/bin/env bash
# Runs one libFuzzer target for SECONDS (default 600) at the lowest CPU priority, one process:
#   scripts/fuzz.sh fuzz_workload_loader 600
# Targets: fuzz_expression fuzz_workload_loader fuzz_chip_config fuzz_overrides fuzz_compare_csv
# fuzz_replay_profile.
# Builds them (clang, ASan+UBSan+libFuzzer) into ./build-fuzz first. The checked-in seeds are in
# fuzz/corpus/TARGET; new inputs go to build-fuzz/corpus/TARGET and crashes to
# build-fuzz/findings/TARGET. The last line of the log gives the executions (docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-600}
if ! command -v clang++ >/dev/null; then
  echo "scripts/fuzz.sh: needs clang++ and libFuzzer: apt-get install clang libclang-rt-14-dev" >&2
  exit 2
fi
CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASCENDSIM_FUZZ=ON \
  -DASCENDSIM_SANITIZE=address,undefined -DASCENDSIM_WERROR=OFF >/dev/null
nice -n 19 cmake --build build-fuzz --target "$target" -j 2
mkdir -p "build-fuzz/corpus/$target" "build-fuzz/findings/$target"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
exec nice -n 19 "build-fuzz/fuzz/$target" -max_total_time="$seconds" -rss_limit_mb=4096 \
  -timeout=20 -max_len=65536 -print_final_stats=1 -artifact_prefix="build-fuzz/findings/$target/" \
  "build-fuzz/corpus/$target" "fuzz/corpus/$target"
