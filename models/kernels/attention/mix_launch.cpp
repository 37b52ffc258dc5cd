#include "models/kernels/attention/mix_launch.h"

#include <algorithm>
#include <string>

#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

std::uint32_t aivPerGroup(const ChipConfig& chip) { return std::max<std::uint32_t>(1, chip.vectorCoresPerCube); }

LoweredKernel mixAicKernel(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles) {
    if (chip.organisation != CoreOrganisation::Split)
        throwLoweringError(op, "MIX attention kernels need a chip with separate AIC/AIV cores, but " + chip.name +
                                   " has coupled AI cores (hardware.md §2.1); not supported there");
    LoweredKernel kernel;
    kernel.type = TaskType::MixAic;
    kernel.blockDim = chooseBlockDim(op, chip, tiles);
    if (kernel.blockDim > chip.aiCoreCount)
        throwLoweringError(op, "block_dim " + std::to_string(kernel.blockDim) + " exceeds the " +
                                   std::to_string(chip.aiCoreCount) + " AIC groups that can be co-resident for cross-core sync");
    kernel.mixBlockDim = aivPerGroup(chip) * kernel.blockDim;
    return kernel;
}

}  // namespace ascendsim
