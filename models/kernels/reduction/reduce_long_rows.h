#pragma once
// ReduceSum / ReduceMean / ReduceMax over rows too long for UB (the Qwen3 sample's loss-path
// ReduceSum of x [4096, 1, 151936] fp32 over the vocabulary: 594 KiB rows, UB 192 KiB).
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// `rows` rows of `length` elements of x (op.inputs[0], contiguous) to one value each in op.outputs[0].
LoweredKernel lowerLongRowReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp, bool mean,
                                    std::uint64_t rows, std::uint64_t length);

}  // namespace ascendsim
