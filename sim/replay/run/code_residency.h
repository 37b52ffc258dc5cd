#pragma once
// Whether a real kernel found its code still in the cores' instruction caches when it launched
// (docs/fidelity.md "Cold instruction fetch", §76, §84). The profile's rows are walked in launch
// order through the device's own ICache model: each AI core kernel runs through its binary's code
// image (op type, task type and dtypes: CANN reuses one binary for every shape), evicting the
// least recently used lines of others. A row every block of which found every line is resident —
// the same binary ran there recently enough — and is replayed with its code preloaded; any other
// row fetches cold.
#include <cstdint>
#include <vector>

#include "models/chip/chip_config.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

enum class CodeWalk : std::uint8_t {
    // One ICache per core kind stands for all its cores (the cold, warm and producer states).
    PerSide,
    // One ICache per core; the task scheduler hands a launch's blocks to the cores of a kind in
    // turn, carrying on where the previous launch of that kind stopped (§76), so a repeated
    // one-block launch lands on the next core, not on the one that holds its code. The timeline
    // state walks this way (§84): with the inputs the chip holds in L2, the cold code it gives the
    // one-block launches is the time their blocks lack; the cold state's HBM reads of those inputs
    // already stand in for it, and the ring there makes AlexNet's one-block launches 1.2x slow.
    PerCoreRing,
};

// The binary a row runs (op type, core type, dtypes — and the formats where CANN's binary list fixes
// them, binaryFixesFormats: TransData's (src, dst) pair — since CANN reuses one binary for every
// shape; the kernel name without shapes), as an ICache code image key.
std::uint64_t codeBinaryOf(const RealKernel& kernel, bool hasShapes);

// Whether a row launches blocks on AI cores (AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV), whose
// code is fetched; AI CPU, DSA and communication tasks do not.
bool runsOnAiCores(const RealKernel& kernel);

// One entry per profile.kernels row; all false when the chip models no code image
// (icache.kernel_code_bytes = 0). The chip gives the ICache and how many cores of each kind the
// scheduler turns through.
std::vector<bool> codeResidentRows(const RealProfile& profile, const ChipConfig& chip, CodeWalk walk);

}  // namespace ascendsim
