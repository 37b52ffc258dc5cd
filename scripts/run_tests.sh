#!/usr/bin/env bash
# Install dependencies, build everything, and run the CI test tier (ctest label "long" excluded).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
cd build && ctest --output-on-failure -j "$(nproc)" -LE long
