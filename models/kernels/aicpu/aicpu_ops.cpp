// AI CPU ops (docs/op-catalog.md): TopK, NonMaxSuppression, Unique. They run on the AI CPU, so
// their lowering is a cycle count from the cost model in aicpu_cost.h.
#include <algorithm>
#include <cmath>

#include "models/kernels/aicpu/aicpu_cost.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

double sortCompares(double n) { return n > 1 ? n * std::log2(n) : 0.0; }

namespace {

LoweredKernel aiCpuKernel(double cycles) {
    LoweredKernel kernel;
    kernel.type = TaskType::AiCpu;
    kernel.blockDim = 1;
    kernel.aiCpuCycles = static_cast<std::uint64_t>(std::llround(kAiCpuKernelSetupCycles + cycles));
    return kernel;
}

void requireInputs(const OpInstance& op, std::size_t inputs, std::size_t outputs) {
    if (op.inputs.size() < inputs || op.outputs.size() < outputs)
        throwLoweringError(op, "needs " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) + " outputs");
}

// Per row of L: a size-k heap over L elements (L·log2 k compares), then sorting the k winners.
std::vector<LoweredKernel> lowerTopK(const OpInstance& op, const ChipConfig&) {
    requireInputs(op, 1, 2);
    const TensorInfo& x = op.inputs[0];
    if (x.shape.empty()) throwLoweringError(op, "x must have rank ≥ 1");
    const double length = static_cast<double>(x.shape.back());
    const std::int64_t k = op.intAttr("k", -1);
    if (k <= 0 || static_cast<double>(k) > length)
        throwLoweringError(op, "attribute k must be in 1.." + std::to_string(x.shape.back()));
    const double rows = static_cast<double>(x.elementCount()) / std::max(length, 1.0);
    const double kk = static_cast<double>(k);
    const double compares = length * std::log2(std::max(kk, 2.0)) + (op.boolAttr("sorted", true) ? sortCompares(kk) : 0.0);
    const double perRow = compares * kAiCpuCyclesPerCompare + (length + 2 * kk) * kAiCpuCyclesPerElement;
    return {aiCpuKernel(rows * perRow)};
}

// Sort by score, then greedy suppression: each kept box is compared with the candidates left
// (at most N per kept box, at most max_output_size kept).
std::vector<LoweredKernel> lowerNonMaxSuppression(const OpInstance& op, const ChipConfig&) {
    requireInputs(op, 2, 1);
    const double boxes = static_cast<double>(op.inputs[1].elementCount());
    const std::int64_t maxOutput = op.intAttr("max_output_size", -1);
    if (maxOutput <= 0) throwLoweringError(op, "attribute max_output_size is required and must be positive");
    const double kept = std::min(boxes, static_cast<double>(maxOutput));
    const double cycles = sortCompares(boxes) * kAiCpuCyclesPerCompare + kept * boxes * kAiCpuCyclesPerIou +
                          5 * boxes * kAiCpuCyclesPerElement;
    return {aiCpuKernel(cycles)};
}

// Sort with indices, then one pass to mark first occurrences and scatter the inverse index.
std::vector<LoweredKernel> lowerUnique(const OpInstance& op, const ChipConfig&) {
    requireInputs(op, 1, 2);
    const double n = static_cast<double>(op.inputs[0].elementCount());
    const double cycles = sortCompares(n) * kAiCpuCyclesPerCompare + 4 * n * kAiCpuCyclesPerElement;
    return {aiCpuKernel(cycles)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("TopK", lowerTopK);
ASCENDSIM_REGISTER_KERNEL("NonMaxSuppression", lowerNonMaxSuppression);
ASCENDSIM_REGISTER_KERNEL("Unique", lowerUnique);

}  // namespace ascendsim
