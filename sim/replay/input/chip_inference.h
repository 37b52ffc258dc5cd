#pragma once
// Which shipped chip config a real profile ran on, from what the profile itself records: the
// NPU_INFO name (DB export; "Ascend910B" names only the family), the core organisation (aic_/aiv_
// columns: split; unprefixed or a 910A: coupled), the largest block dim per core kind that two
// op types share (a chip has about that many cores), and the platform clock msprof used: PMU total_cycles ÷ (blocks ×
// core time) of every row, as a median. The config whose organisation matches, whose cores hold
// the block dims and whose clock is nearest wins; more spare cores cost a little.
#include <optional>
#include <string>
#include <vector>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

struct ChipEvidence {
    std::string npuName;
    CoreOrganisation organisation = CoreOrganisation::Split;
    // Largest block dim two op types share: AI_CORE / MIX_AIC (every kernel on coupled chips),
    // AI_VECTOR_CORE / MIX_AIV and MIX_AIC mix block dims.
    std::uint32_t maxCubeBlocks = 0;
    std::uint32_t maxVectorBlocks = 0;
    std::optional<double> cubeMhz;      // median PMU clock of the AIC (or coupled) side
    std::optional<double> vectorMhz;
    std::size_t clockSamples = 0;
};

ChipEvidence chipEvidence(const RealProfile& profile);

struct ChipChoice {
    std::string name;
    std::string reason;  // one line: the evidence and why this config
};

// Throws ReplayInputError when no config of the profile's organisation exists in `chips`.
ChipChoice inferChip(const ChipEvidence& evidence, const std::vector<ChipSummary>& chips);

}  // namespace ascendsim
