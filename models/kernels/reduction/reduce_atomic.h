#pragma once
// fp32 sums that blocks add into y with atomics, after an atomic clean zeroed it: the 910A's
// ReduceSumD when TBE picks its reduce-atomic schedule (docs/fidelity.md §54).
#include <optional>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// The replay marked the op's output as atomically cleaned before it (the 910A's "atomic_memset"
// row) and the reduction is one TBE adds with atomics: a sum (or mean) from fp32 into fp32.
bool reducesIntoAtomicallyCleanedOutput(const OpInstance& op, VectorOp reduceOp);

// [R1, A, R2] reduced over R1 and R2 (R2 = 1: the sum over the leading axis of [R1, A]). Blocks
// split R1; nullopt when one row of R2 does not fit in UB.
std::optional<LoweredKernel> lowerAtomicReduction(const OpInstance& op, const ChipConfig& chip, bool mean,
                                                  std::uint64_t outer, std::uint64_t kept, std::uint64_t inner);

}  // namespace ascendsim
