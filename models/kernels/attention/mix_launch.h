#pragma once
// The launch shape of a MIX_AIC kernel whose AIC and AIVs exchange data through cross-core flags
// (hardware.md §2.1, §2.4): a split chip, one block per AIC group, every group co-resident (a
// flag wait must not wait for a group that cannot start), vectorCoresPerCube AIVs per group.
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// A MixAic kernel for `tiles` units of work: type, blockDim (the op's override or CANN's choice,
// at most the AIC count), mixBlockDim. Throws LoweringError on a coupled chip or a block_dim
// beyond the AIC groups.
LoweredKernel mixAicKernel(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles);

// AIVs per AIC group of `chip` (at least 1).
std::uint32_t aivPerGroup(const ChipConfig& chip);

}  // namespace ascendsim
