#!/usr/bin/env bash
# The CI test tier under AddressSanitizer + UndefinedBehaviorSanitizer, in ./build-sanitize.
# Only the project's code is instrumented (SystemC and the other Debian libraries are used as
# installed), so this costs one rebuild of ours. docs/reliability.md has the figures.
#   scripts/run_sanitized_tests.sh            # the CI tier
#   scripts/run_sanitized_tests.sh -R Limits  # extra arguments go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."
# GCC's manual (-fsanitize=address): "sanitizers tend to increase the rate of false positive
# warnings ... We recommend against combining -Werror and [the use of] sanitizers". GCC 12 does
# report a -Wrestrict memcpy of 2^63 bytes in a plain std::string assignment under ASan; the
# normal build keeps -Werror, this one prints warnings without failing on them.
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DASCENDSIM_SANITIZE=address,undefined -DASCENDSIM_WERROR=OFF >/dev/null
cmake --build build-sanitize -j "$(nproc)"
# SystemC's coroutine stacks are not ASan-instrumented; leak checking would report its
# process-lifetime kernel objects, so it is off.
export ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-sanitize && ctest --output-on-failure -j "$(nproc)" -LE long "$@"
