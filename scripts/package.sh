#!/usr/bin/env bash
# Installs dependencies, builds (Release) and writes the Debian package ascendsim_<version>_<arch>.deb
# into ./build/package. Install it with `apt-get install ./build/package/ascendsim_*.deb`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh
(cd build && cpack -G DEB -B package)
ls -1 build/package/*.deb
