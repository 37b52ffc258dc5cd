#!/usr/bin/env bash
# The main job: install dependencies, build, and profile ResNet-50 at Level2 on a simulated chip.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh --target ascendsim
./build/ascendsim --workload workloads/resnet50.yaml --level Level2 "$@"
