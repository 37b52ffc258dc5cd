#include "sim/replay/run/code_residency.h"

#include <algorithm>

#include "models/core/icache_model.h"
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

namespace {

// The ICaches of one kind of core and where the scheduler's turn through them stands.
struct CoreRing {
    std::vector<ICacheModel> caches;
    std::size_t next = 0;  // the core the next launch's first block goes to

    // Runs `blocks` blocks of `binary` on the next cores in turn; returns how many found every
    // line of its code. Blocks past one per core run on cores that have just fetched it.
    std::uint32_t launch(std::uint64_t binary, std::uint32_t blocks, std::uint32_t& launched) {
        const std::size_t cores = caches.size();
        const std::size_t onCores = std::min<std::size_t>(blocks, cores);
        std::uint32_t resident = 0;
        for (std::size_t i = 0; i < onCores; ++i)
            resident += caches[(next + i) % cores].fetchImage(binary) == 0 ? 1 : 0;
        next = (next + onCores) % cores;
        launched += static_cast<std::uint32_t>(onCores);
        return resident;
    }
};

// The blocks a row runs on each kind of core; none for AI CPU, DSA and communication tasks. A
// MIX_AIC row's AIV blocks are its Mix Block Dim (its AIC blocks × the AIV per AIC when the export
// leaves it 0); a MIX_AIV row's AIC blocks are its Mix Block Dim.
struct RowBlocks {
    std::uint32_t cube = 0;    // AIC, or the coupled cores of a 910A
    std::uint32_t vector = 0;  // AIV
};

RowBlocks blocksOf(const RealKernel& k, std::uint32_t vectorCoresPerCube) {
    const std::string& core = k.acceleratorCore;
    if (core == "AI_CORE") return {k.blockDim, 0};
    if (core == "AI_VECTOR_CORE") return {0, k.blockDim};
    if (core == "MIX_AIC") return {k.blockDim, k.mixBlockDim > 0 ? k.mixBlockDim : k.blockDim * vectorCoresPerCube};
    if (core == "MIX_AIV") return {k.mixBlockDim, k.blockDim};
    return {};
}

CoreRing ringOf(const ICacheConfig& icache, std::uint32_t cores) {
    return CoreRing{std::vector<ICacheModel>(std::max<std::uint32_t>(cores, 1), ICacheModel(icache)), 0};
}

}  // namespace

bool runsOnAiCores(const RealKernel& k) {
    const std::string& core = k.acceleratorCore;
    return core == "AI_CORE" || core == "AI_VECTOR_CORE" || core == "MIX_AIC" || core == "MIX_AIV";
}

std::uint64_t codeBinaryOf(const RealKernel& k, bool hasShapes) {
    // Without shapes (Level0) the type is not recorded; the kernel name stands for the binary.
    const std::string& op = hasShapes ? k.type : k.name;
    std::string key = op + '|' + k.acceleratorCore + '|' + k.inputDtypes + '|' + k.outputDtypes;
    // The formats as the export spells them, sub-format included ("NC1HWC0:1").
    if (hasShapes && binaryFixesFormats(k.type)) key += '|' + k.inputFormats + '|' + k.outputFormats;
    return codeImageOfKey(key);
}

std::vector<bool> codeResidentRows(const RealProfile& profile, const ChipConfig& chip, CodeWalk walk) {
    std::vector<bool> resident(profile.kernels.size(), false);
    if (chip.icache.kernelCodeBytes == 0) return resident;
    // Per side, one ICache stands for every core of a kind (a launch's blocks find or miss their
    // code together), and the vector side has its own. Per core, a coupled chip's vector work runs
    // on its AI cores; the 310P's standalone vector cores and the split chips' AIV have their own.
    const bool perCore = walk == CodeWalk::PerCoreRing;
    const bool ownVectorCores = !perCore || chip.organisation == CoreOrganisation::Split || chip.vectorCoreCount > 0;
    CoreRing cubeRing = ringOf(chip.icache, perCore ? chip.aiCoreCount : 1);
    CoreRing vectorRing = ringOf(chip.icache, perCore ? chip.vectorCoreCount : 1);
    CoreRing& vectorSide = ownVectorCores ? vectorRing : cubeRing;
    for (std::size_t row = 0; row < profile.kernels.size(); ++row) {
        const RealKernel& kernel = profile.kernels[row];
        const RowBlocks blocks = blocksOf(kernel, chip.vectorCoresPerCube);
        if (blocks.cube == 0 && blocks.vector == 0) continue;
        const std::uint64_t binary = codeBinaryOf(kernel, profile.hasShapes);
        std::uint32_t launched = 0;
        std::uint32_t found = 0;
        // Each side has its own code image of the binary (codeIdOf: one per core kind).
        if (blocks.cube > 0) found += cubeRing.launch(binary * 4, blocks.cube, launched);
        if (blocks.vector > 0) found += vectorSide.launch(binary * 4 + 1, blocks.vector, launched);
        // A launch lasts as long as its slowest block: one block that misses makes it pay the
        // fetch (§84: every block, not most, fits the fitted sets under the timeline).
        resident[row] = found == launched;
    }
    return resident;
}

}  // namespace ascendsim
