#pragma once
// Transpose lowering shared with TransData: moves op.inputs[0] viewed as `shape` (same element
// count) to op.outputs[0] in the order `perm` (see transpose.cpp for the modelled forms).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Where the permuted tensor goes: op.outputs[0], or the launch's GM workspace (a helper kernel
// whose result a following kernel of the same op reads; workspaceBytes is set accordingly).
enum class PermutationTarget : std::uint8_t { Output, Workspace };

std::vector<LoweredKernel> lowerPermutation(const OpInstance& op, const ChipConfig& chip,
                                            const std::vector<std::int64_t>& shape,
                                            const std::vector<std::int64_t>& perm,
                                            PermutationTarget target = PermutationTarget::Output);

}  // namespace ascendsim
