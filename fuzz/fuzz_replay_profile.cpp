// Fuzz target: what `ascendsim replay` reads from a real profile before it simulates anything:
// kernel_details.csv in every era (kernel_details_reader), the tensor cells of each row
// (real_tensors), the op each row becomes (replay_op_rules) and the chip the profile ran on
// (chip_inference over the shipped configs). A malformed file must come out as ReplayInputError
// (replay: exit 2) and a row the simulator cannot express as UnreplayableKernel (listed as not
// replayed); anything else escaping, a crash or a hang is a finding.
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_support.h"
#include "sim/config/chip_config_loader.h"
#include "sim/replay/input/chip_inference.h"
#include "sim/replay/input/kernel_details_reader.h"
#include "sim/replay/input/real_tensors.h"
#include "sim/replay/rules/replay_op_rules.h"

namespace {
// Rows past this many are read but not lowered: a 64 KiB input holds a few hundred rows, and
// each lowered row is independent of the others.
constexpr std::size_t kRowsLowered = 64;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    static const std::vector<ascendsim::ChipSummary> chips = ascendsim::listChips(ascendsim::fuzz::configDir());
    ascendsim::RealProfile profile;
    try {
        profile = ascendsim::parseKernelDetailsCsv(text, "kernel_details.csv");
    } catch (const ascendsim::ReplayInputError&) {
        return 0;
    }
    try {
        (void)ascendsim::inferChip(ascendsim::chipEvidence(profile), chips);
    } catch (const ascendsim::ReplayInputError&) {
    }
    for (std::size_t i = 0; i < profile.kernels.size() && i < kRowsLowered; ++i) {
        const ascendsim::RealKernel& kernel = profile.kernels[i];
        try {
            for (const auto& t : ascendsim::realInputs(kernel)) (void)ascendsim::tensorBytes(t), (void)ascendsim::logicalShape(t);
            for (const auto& t : ascendsim::realOutputs(kernel)) (void)ascendsim::tensorBytes(t), (void)ascendsim::logicalShape(t);
            (void)ascendsim::replayOp(kernel);
        } catch (const ascendsim::UnreplayableKernel&) {
        }
    }
    return 0;
}
