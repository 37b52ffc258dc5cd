#!/usr/bin/env bash
# Installs the Debian packages ascendsim builds against. Idempotent: packages already present
# are not reinstalled, so a prepared machine skips the network entirely.
set -euo pipefail
packages=(build-essential cmake pkg-config libsystemc-dev libyaml-cpp-dev libeigen3-dev
          libspdlog-dev libgtest-dev libgmock-dev libcli11-dev nlohmann-json3-dev libsqlite3-dev
          libjs-chart.js libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
