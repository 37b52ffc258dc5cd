#include "sim/replay/input/chip_inference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "sim/replay/report/replay_statistics.h"

namespace ascendsim {

namespace {

// The blocks a side of `kernel` ran, as msprof divided its cycles by them.
std::uint32_t blocksOnSide(const RealKernel& kernel, const std::string& prefix) {
    const std::string& core = kernel.acceleratorCore;
    if (prefix.empty()) return kernel.blockDim;
    if (prefix == "aic_") return core == "AI_CORE" || core == "MIX_AIC" ? kernel.blockDim : 0;
    if (core == "AI_VECTOR_CORE" || core == "MIX_AIV") return kernel.blockDim;
    return core == "MIX_AIC" ? kernel.mixBlockDim : 0;
}

// The largest block dim that two op types share. A block dim can exceed the core count (the
// blocks then run in waves: one MaxPoolGradWithArgmaxV1 launches 256 blocks on 48 AIV), but
// CANN's tilings mostly launch one block per core, so the core count is the largest common one.
std::uint32_t commonLargestBlockDim(const std::map<std::uint32_t, std::set<std::string>>& typesByBlockDim) {
    std::uint32_t largest = 0, any = 0;
    for (const auto& [blocks, types] : typesByBlockDim) {
        any = std::max(any, blocks);
        if (types.size() >= 2) largest = std::max(largest, blocks);
    }
    return largest > 0 ? largest : any;
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// "Ascend910A" is the config family "Ascend910"; other NPU_INFO names are config-name prefixes.
std::string configPrefix(const std::string& npuName) {
    if (npuName == "Ascend910A") return "ascend910";
    return lower(npuName);
}

std::string mhzText(const std::optional<double>& mhz) {
    if (!mhz) return "not recorded";
    std::ostringstream text;
    text << std::lround(*mhz) << " MHz";
    return text.str();
}

}  // namespace

ChipEvidence chipEvidence(const RealProfile& profile) {
    ChipEvidence e;
    e.npuName = profile.npuName;
    bool coupled = profile.era == FormatVersion::Era2024 || profile.npuName.starts_with("Ascend910A");
    std::vector<double> cube, vector;
    std::map<std::uint32_t, std::set<std::string>> cubeBlocks, vectorBlocks;
    for (const auto& kernel : profile.kernels) {
        const std::string& core = kernel.acceleratorCore;
        for (const auto& side : kernel.sides) {
            coupled = coupled || side.prefix.empty();
            const std::uint32_t blocks = blocksOnSide(kernel, side.prefix);
            if (blocks == 0) continue;
            const double mhz = side.totalCycles / blocks / side.coreTimeUs;
            (side.prefix == "aiv_" ? vector : cube).push_back(mhz);
        }
        const bool cubeSide = core == "AI_CORE" || core == "MIX_AIC";
        if (cubeSide) cubeBlocks[kernel.blockDim].insert(kernel.type);
        if (core == "AI_VECTOR_CORE" || core == "MIX_AIV") vectorBlocks[kernel.blockDim].insert(kernel.type);
        if (core == "MIX_AIC") vectorBlocks[kernel.mixBlockDim].insert(kernel.type);
    }
    e.maxCubeBlocks = commonLargestBlockDim(cubeBlocks);
    e.maxVectorBlocks = commonLargestBlockDim(vectorBlocks);
    e.organisation = coupled ? CoreOrganisation::Coupled : CoreOrganisation::Split;
    if (coupled) {
        e.maxCubeBlocks = std::max(e.maxCubeBlocks, e.maxVectorBlocks);
        e.maxVectorBlocks = 0;
    }
    e.clockSamples = cube.size() + vector.size();
    if (!cube.empty()) e.cubeMhz = median(cube);
    if (!vector.empty()) e.vectorMhz = median(vector);
    return e;
}

ChipChoice inferChip(const ChipEvidence& e, const std::vector<ChipSummary>& chips) {
    const std::optional<double> clock = e.cubeMhz ? e.cubeMhz : e.vectorMhz;
    const std::string prefix = configPrefix(e.npuName);
    const ChipSummary* best = nullptr;
    double bestScore = std::numeric_limits<double>::infinity();
    for (const auto& chip : chips) {
        if (chip.organisation != e.organisation) continue;
        double score = 0.0;
        if (clock) score += std::fabs(chip.aiCoreFreqMhz - *clock) / *clock;
        const bool holdsBlocks = chip.aiCoreCount >= e.maxCubeBlocks &&
                                 (e.organisation == CoreOrganisation::Coupled || chip.vectorCoreCount >= e.maxVectorBlocks);
        if (!holdsBlocks) score += 1.0;
        if (chip.aiCoreCount > 0) score += 0.05 * (chip.aiCoreCount - std::min(chip.aiCoreCount, e.maxCubeBlocks)) / chip.aiCoreCount;
        if (!prefix.empty() && !lower(chip.name).starts_with(prefix)) score += 0.5;
        if (score < bestScore) {
            bestScore = score;
            best = &chip;
        }
    }
    if (best == nullptr) {
        throw ReplayInputError(std::string("no chip config of the profile's organisation (") +
                               organisationName(e.organisation) + ") in the config folder; pass --chip");
    }
    std::ostringstream reason;
    reason << (e.npuName.empty() ? "NPU_INFO not recorded" : "NPU_INFO " + e.npuName) << "; "
           << organisationName(e.organisation) << " cores; largest block dim " << e.maxCubeBlocks;
    if (e.organisation == CoreOrganisation::Split) reason << " AIC / " << e.maxVectorBlocks << " AIV";
    reason << "; PMU clock " << mhzText(e.cubeMhz);
    if (e.organisation == CoreOrganisation::Split) reason << " AIC, " << mhzText(e.vectorMhz) << " AIV";
    reason << " (" << e.clockSamples << " samples) -> " << best->name << " (" << best->aiCoreCount;
    if (e.organisation == CoreOrganisation::Split) reason << "/" << best->vectorCoreCount;
    reason << " cores, " << best->aiCoreFreqMhz << " MHz)";
    return ChipChoice{best->name, reason.str()};
}

}  // namespace ascendsim
