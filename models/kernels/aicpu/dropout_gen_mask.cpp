// StatelessDropOutGenMask (docs/op-catalog.md, "Sort, TopK and dropout masks"): the dropout keep
// mask, one bit per element (1 = keep), that DropOutDoMask applies. CANN runs it on the AI CPU
// (c1e639ee level1 rank0: "StatelessDropOutGenMask25", AI_CPU, before "DropOutDoMask26"). The
// stateless generator is Philox4x32-10 (Salmon et al., SC'11, "Parallel random numbers: as easy
// as 1, 2, 3"; TensorFlow's stateless random ops, whose name the op keeps): a call turns a 128-bit
// counter and a 64-bit key into four 32-bit random words, so one call covers four elements. Each
// element's word becomes a uniform float, is compared with the keep probability, and sets its
// bit. The element loop is split over the AI CPU cores (the kernel's ParallelFor sharding), so
// the task lasts one shard's cycles.
#include <algorithm>
#include <cmath>

#include "models/kernels/aicpu/aicpu_cost.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

// Instructions of one Philox4x32-10 call: 10 rounds of two 32×32→64 multiplies (mul + umulh
// each), four xors and two key additions (the key bump) = 10 per round (Salmon et al., Fig. 2).
constexpr double kPhiloxInstructionsPerCall = 100.0;
constexpr double kPhiloxWordsPerCall = 4.0;
// Per element after the generator: the word to a [0, 1) float (shift, or, subtract), the compare
// with the keep probability, the bit's shift and or into the mask byte (6 instructions).
constexpr double kMaskInstructionsPerElement = 6.0;
// Instructions per cycle of a TaiShan core on this integer code (assumed: 2 of its 4-wide issue,
// the multiplies' latency chains keep it from more).
constexpr double kAiCpuInstructionsPerCycle = 2.0;
// Elements below which another shard costs more to schedule than it saves (assumed: one shard
// per 4096 elements, a page of mask bits).
constexpr double kMinElementsPerShard = 4096.0;

std::vector<LoweredKernel> lowerStatelessDropOutGenMask(const OpInstance& op, const ChipConfig& chip) {
    if (op.outputs.empty()) throwLoweringError(op, "needs the mask output");
    const TensorInfo& mask = op.outputs[0];
    if (bytesOf(mask.dtype) != 1 || mask.elementCount() <= 0)
        throwLoweringError(op, "the mask must be a non-empty uint8 tensor (one bit per element)");
    // The elements: 8 per mask byte (CANN sizes the mask as ⌈n / 128⌉ · 16 bytes; an n that is
    // no multiple of 128 is overstated by < 128 elements).
    const double elements = 8.0 * static_cast<double>(mask.elementCount());
    const double shards = std::clamp(std::floor(elements / kMinElementsPerShard), 1.0,
                                     static_cast<double>(std::max<std::uint32_t>(chip.aiCpu.count, 1)));
    const double perElement =
        (kPhiloxInstructionsPerCall / kPhiloxWordsPerCall + kMaskInstructionsPerElement) / kAiCpuInstructionsPerCycle;
    LoweredKernel kernel;
    kernel.type = TaskType::AiCpu;
    kernel.blockDim = 1;
    kernel.aiCpuCycles = static_cast<std::uint64_t>(std::llround(kAiCpuKernelSetupCycles + std::ceil(elements / shards) * perElement));
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("StatelessDropOutGenMask", lowerStatelessDropOutGenMask);

}  // namespace ascendsim
