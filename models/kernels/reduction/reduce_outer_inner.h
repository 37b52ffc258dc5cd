#pragma once
// Reduction over the first and the last dim of an [R1, A, R2] view (a bias gradient of
// [N, C, H·W] summed over N and H·W) in one kernel: the 910A's ReduceSumD folds the samples
// elementwise; the 220x reduces every row to vcadd partials the scalar unit takes (docs/fidelity.md §146).
#include <optional>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// nullopt when one row of R2 does not fit in UB (the caller then reduces in passes).
std::optional<LoweredKernel> lowerOuterInnerReduction(const OpInstance& op, const ChipConfig& chip, VectorOp reduceOp,
                                                      bool mean, std::uint64_t outer, std::uint64_t kept,
                                                      std::uint64_t inner);

}  // namespace ascendsim
