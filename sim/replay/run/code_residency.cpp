#include "sim/replay/run/code_residency.h"

#include "models/core/icache_model.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

namespace {

struct CoreSides {
    bool cube = false;    // AIC, or the coupled core of a 910A
    bool vector = false;  // AIV
};

// The sides whose cores run a row's blocks; neither for AI CPU, DSA and communication tasks.
CoreSides sidesOf(const std::string& acceleratorCore) {
    if (acceleratorCore == "AI_CORE") return {true, false};
    if (acceleratorCore == "AI_VECTOR_CORE") return {false, true};
    if (acceleratorCore == "MIX_AIC" || acceleratorCore == "MIX_AIV") return {true, true};
    return {};
}

std::uint64_t binaryOf(const RealKernel& k, bool hasShapes) {
    // Without shapes (Level0) the type is not recorded; the kernel name stands for the binary.
    const std::string& op = hasShapes ? k.type : k.name;
    return codeImageOfKey(op + '|' + k.acceleratorCore + '|' + k.inputDtypes + '|' + k.outputDtypes);
}

}  // namespace

std::vector<bool> codeResidentRows(const RealProfile& profile, const ICacheConfig& icache) {
    std::vector<bool> resident(profile.kernels.size(), false);
    ICacheModel cubeSide(icache);
    ICacheModel vectorSide(icache);
    if (cubeSide.imageLines() == 0) return resident;
    for (std::size_t row = 0; row < profile.kernels.size(); ++row) {
        const RealKernel& kernel = profile.kernels[row];
        const CoreSides sides = sidesOf(kernel.acceleratorCore);
        if (!sides.cube && !sides.vector) continue;
        const std::uint64_t binary = binaryOf(kernel, profile.hasShapes);
        std::uint32_t misses = 0;
        if (sides.cube) misses += cubeSide.fetchImage(binary);
        if (sides.vector) misses += vectorSide.fetchImage(binary);
        resident[row] = misses == 0;
    }
    return resident;
}

}  // namespace ascendsim
