#!/usr/bin/env bash
# The CI test tier under AddressSanitizer + UndefinedBehaviorSanitizer, in ./build-sanitize.
# Only the project's code is instrumented (SystemC and the other Debian libraries are used as
# installed), at -Og -g1 (the Sanitize build type, cmake/Sanitizers.cmake), as unity sources
# (cmake/UnityBuild.cmake), without the benchmarks and the long-tier binary that this tier does
# not run. ccache keeps the objects, so a routine run recompiles only what changed.
# docs/reliability.md has the figures.
#   scripts/run_sanitized_tests.sh            # the CI tier
#   scripts/run_sanitized_tests.sh -R Limits  # extra arguments go to ctest
#   CCACHE_DISABLE=1 scripts/run_sanitized_tests.sh   # a cold build, as measured
set -euo pipefail
cd "$(dirname "$0")/.."
# Ninja when installed and the folder is new (an existing folder keeps its generator).
generator=()
if [[ ! -f build-sanitize/CMakeCache.txt ]] && command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
# GCC's manual (-fsanitize=address): "sanitizers tend to increase the rate of false positive
# warnings ... We recommend against combining -Werror and [the use of] sanitizers". GCC 12 does
# report a -Wrestrict memcpy of 2^63 bytes in a plain std::string assignment under ASan; the
# normal build keeps -Werror, this one prints warnings without failing on them.
cmake -S . -B build-sanitize "${generator[@]}" -DCMAKE_BUILD_TYPE=Sanitize \
  -DASCENDSIM_SANITIZE=address,undefined -DASCENDSIM_WERROR=OFF -DASCENDSIM_UNITY_BUILD=ON \
  -DASCENDSIM_BENCHMARKS=OFF -DASCENDSIM_LONG_TESTS=OFF >/dev/null
cmake --build build-sanitize -j "$(nproc)"
# SystemC's coroutine stacks are not ASan-instrumented; leak checking would report its
# process-lifetime kernel objects, so it is off.
export ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-sanitize && ctest --output-on-failure -j "$(nproc)" -LE long "$@"
