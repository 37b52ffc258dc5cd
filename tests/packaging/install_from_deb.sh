#!/usr/bin/env bash
# Builds the .deb with CPack, unpacks it into a scratch root (dpkg -x, as a clean machine would get
# it), and checks that the installed program finds its own configs and workloads, runs the main
# job, and ships its man page; and that Depends names runtime libraries, never -dev packages.
# usage: install_from_deb.sh BUILD_DIR CPACK_COMMAND
set -euo pipefail
build=$1
cpack=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$build" && "$cpack" -G DEB -B "$scratch/pkg" >"$scratch/cpack.log" 2>&1) ||
    { cat "$scratch/cpack.log" >&2; fail "cpack did not build the package"; }
deb=$(find "$scratch/pkg" -maxdepth 1 -name 'ascendsim_*.deb' | head -1)
[ -n "$deb" ] || fail "no ascendsim_*.deb in $scratch/pkg"

depends=$(dpkg-deb -f "$deb" Depends)
for lib in libsystemc libyaml-cpp libsqlite3 libc6; do
    [[ "$depends" == *"$lib"* ]] || fail "Depends lacks $lib: $depends"
done
[[ "$depends" != *"-dev"* ]] || fail "Depends names a -dev package: $depends"

root="$scratch/root"
dpkg -x "$deb" "$root"
program="$root/usr/bin/ascendsim"
[ -x "$program" ] || fail "no usr/bin/ascendsim in the package"
zcat "$root/usr/share/man/man1/ascendsim.1.gz" | grep -q -- '--workload' || fail "man page lacks --workload"
[ -f "$root/usr/share/doc/ascendsim/README.md" ] || fail "README not installed"

# Nothing may point the program back at the source tree: it must find the installed configs itself.
clean_env=(env -u ASCENDSIM_SOURCE_DIR -u ASCENDSIM_CONFIG_DIR)
# A probe chip that exists only in the installed folder shows which folder the program reads.
configs="$root/usr/share/ascendsim/configs"
[ -f "$configs/Ascend910B1.yaml" ] || fail "configs not installed under usr/share/ascendsim/configs"
sed 's/^name: .*/name: InstalledProbe/' "$configs/Ascend910B1.yaml" >"$configs/InstalledProbe.yaml"
chips=$("${clean_env[@]}" "$program" chips)
[[ "$chips" == *InstalledProbe* ]] || fail "chips does not read the installed configs: $chips"
rm "$configs/InstalledProbe.yaml"

mkdir "$scratch/run"
(cd "$scratch/run" && "${clean_env[@]}" "$program" --workload "$root/usr/share/ascendsim/workloads/resnet50.yaml" \
    --level Level2 --deterministic -o out >"$scratch/run.log" 2>&1) ||
    { cat "$scratch/run.log" >&2; fail "the installed program did not run the main job"; }
kernel_details=$(find "$scratch/run/out" -path '*_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv' | head -1)
[ -n "$kernel_details" ] || fail "the main job wrote no kernel_details.csv"
[ "$(wc -l <"$kernel_details")" -gt 100 ] || fail "kernel_details.csv has too few rows"
echo "ok: $(basename "$deb") installs and runs the main job; Depends: $depends"
