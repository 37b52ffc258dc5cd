#!/usr/bin/env bash
# Long tier: the .deb installs with apt-get on a clean Debian 12 root (debootstrap minbase, nothing
# else installed) and runs the main job there. Needs root and the Debian mirror; skips (exit 0
# with a message) without them. A prepared root may be given in $ASCENDSIM_CLEAN_ROOT (a copy is
# used, the original stays clean).
# usage: install_on_clean_debian.sh BUILD_DIR CPACK_COMMAND
set -euo pipefail
build=$1
cpack=$2
if [ "$(id -u)" -ne 0 ] || ! command -v debootstrap >/dev/null; then
    echo "skipped: needs root and debootstrap"
    exit 0
fi
scratch=$(mktemp -d)
cleanup() {
    umount "$scratch/root/proc" 2>/dev/null || true
    rm -rf "$scratch"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$build" && "$cpack" -G DEB -B "$scratch/pkg" >"$scratch/cpack.log" 2>&1) ||
    { cat "$scratch/cpack.log" >&2; fail "cpack did not build the package"; }
deb=$(find "$scratch/pkg" -maxdepth 1 -name 'ascendsim_*.deb' | head -1)

root="$scratch/root"
if [ -n "${ASCENDSIM_CLEAN_ROOT:-}" ] && [ -d "$ASCENDSIM_CLEAN_ROOT" ]; then
    cp -a "$ASCENDSIM_CLEAN_ROOT" "$root"
else
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$scratch/debootstrap.log" 2>&1 ||
        { tail -5 "$scratch/debootstrap.log"; echo "skipped: debootstrap could not reach the Debian mirror"; exit 0; }
fi
chroot "$root" sh -c 'command -v ascendsim' && fail "the clean root already has ascendsim"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
cp "$deb" "$root/tmp/"
chroot "$root" sh -c "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/$(basename "$deb")" \
    >"$scratch/apt.log" 2>&1 || { tail -20 "$scratch/apt.log" >&2; fail "apt-get could not install the package"; }
chroot "$root" sh -c 'cd /tmp && ascendsim --workload /usr/share/ascendsim/workloads/resnet50.yaml --level Level2 \
    --deterministic -o out' >"$scratch/run.log" 2>&1 || { tail -20 "$scratch/run.log" >&2; fail "the main job failed"; }
kernel_details=$(find "$root/tmp/out" -path '*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv' | head -1)
[ -n "$kernel_details" ] || fail "no kernel_details.csv"
installed=$(grep -c "^Unpacking" "$scratch/apt.log" || true)
echo "ok: $(basename "$deb") installed on a clean Debian 12 root with $installed packages and ran the main job"
