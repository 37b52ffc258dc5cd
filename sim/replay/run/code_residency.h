#pragma once
// Whether a real kernel found its code still in the cores' instruction caches when it launched
// (docs/fidelity.md "Cold instruction fetch", §76). The profile's rows are walked in launch order
// through the device's own ICache model, one per core: each AI core kernel runs through its
// binary's code image (op type, task type and dtypes: CANN reuses one binary for every shape),
// evicting the least recently used lines of others. The task scheduler hands a launch's blocks to
// the cores of a kind in turn, carrying on where the previous launch of that kind stopped (§76),
// so a repeated one-block launch lands on the next core, not on the one that holds its code. A
// row more than half of whose blocks found every line is resident — the same binary ran on those
// cores recently enough — and is replayed with its code preloaded; any other row fetches cold.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// One entry per profile.kernels row; all false when the chip models no code image
// (icache.kernel_code_bytes = 0). The chip gives the ICache and how many cores of each kind the
// scheduler turns through.
std::vector<bool> codeResidentRows(const RealProfile& profile, const ChipConfig& chip);

// The row ran a MIX binary (MIX_AIC or MIX_AIV task): its blocks run through a MIX binary's code
// image (icache.mix_kernel_code_bytes).
bool runsMixBinary(const RealKernel& kernel);

}  // namespace ascendsim
