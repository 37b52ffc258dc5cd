#pragma once
// Whether a real kernel found its code still in the cores' instruction caches when it launched
// (docs/fidelity.md "Cold instruction fetch"). The profile's rows are walked in launch order
// through the device's own ICache model, one per core side: each AI core kernel runs through its
// binary's code image (op type, task type and dtypes: CANN reuses one binary for every shape),
// evicting the least recently used lines of others. A row whose every line hit is resident —
// the same binary ran recently enough — and is replayed with its code preloaded; any other row
// (the first launch in the profile, or one after other kernels evicted its code) fetches cold.
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// One entry per profile.kernels row; all false when the chip models no code image
// (icache.kernel_code_bytes = 0).
std::vector<bool> codeResidentRows(const RealProfile& profile, const ICacheConfig& icache);

}  // namespace ascendsim
