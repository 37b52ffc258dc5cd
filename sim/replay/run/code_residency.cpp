#include "sim/replay/run/code_residency.h"

#include <algorithm>

#include "models/device/icache_model.h"
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

// One ICache per core of a side. Block i of a kernel runs on core i (the dispatcher hands a
// kernel's blocks to the cores in order), so a kernel of b blocks fetches its code into cores
// 0 .. b-1 and leaves the other cores' caches alone.
class CoreCaches {
public:
    explicit CoreCaches(const ICacheConfig& icache) : icache_(icache) {}
    // Runs `blocks` blocks of `binary`; returns on how many cores a line of its code missed.
    std::uint32_t run(std::uint64_t binary, std::uint32_t blocks) {
        while (cores_.size() < blocks) cores_.emplace_back(icache_);
        std::uint32_t cold = 0;
        for (std::uint32_t core = 0; core < blocks; ++core) cold += cores_[core].fetchImage(binary) > 0 ? 1 : 0;
        return cold;
    }

private:
    ICacheConfig icache_;
    std::vector<ICacheModel> cores_;
};

}  // namespace

std::vector<bool> codeResidentRows(const RealProfile& profile, const ICacheConfig& icache) {
    std::vector<bool> resident(profile.kernels.size(), false);
    if (ICacheModel(icache).imageLines() == 0) return resident;
    CoreCaches cubeSide(icache);
    CoreCaches vectorSide(icache);
    for (std::size_t row = 0; row < profile.kernels.size(); ++row) {
        const RealKernel& kernel = profile.kernels[row];
        const CoreSides sides = sidesOf(kernel.acceleratorCore);
        if (!sides.cube && !sides.vector) continue;
        const std::uint64_t binary = binaryOf(kernel, profile.hasShapes);
        const std::uint32_t blocks = std::max<std::uint32_t>(kernel.blockDim, 1);
        const std::uint32_t vectorBlocks =
            kernel.acceleratorCore == "MIX_AIC" && kernel.mixBlockDim > 0 ? kernel.mixBlockDim : blocks;
        std::uint32_t cold = 0;
        std::uint32_t cores = 0;
        if (sides.cube) {
            cold += cubeSide.run(binary, blocks);
            cores += blocks;
        }
        if (sides.vector) {
            cold += vectorSide.run(binary, vectorBlocks);
            cores += vectorBlocks;
        }
        // The replay runs a kernel either warm or cold on every core: warm when most of its
        // cores found the code (a one-block kernel in between evicts it on one core only).
        resident[row] = 2 * cold < cores;
    }
    return resident;
}

}  // namespace ascendsim
