#pragma once
// SoftmaxV2 over a non-last axis: x viewed as [outer, L, inner], softmax along L. A tile loads the
// L rows of one chunk of inner columns (strided bursts), and the reductions along L are
// elementwise Max/Add folds across rows, vectorised over the chunk's columns.
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

LoweredKernel lowerSoftmaxAcrossRows(const OpInstance& op, const ChipConfig& chip,
                                     std::uint64_t outer, std::uint64_t axisLength,
                                     std::uint64_t inner);

}  // namespace ascendsim
