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

// NCHW → NC1HWC0 of x viewed as [N, channels, planeElements]: each image's channels in blocks of
// c0, every block transposed to [planeElements, c0]; a last block of fewer real channels is
// padded with zeros (a C = 3 image becomes C1 = 1 block of C0 channels, 3 of them real).
std::vector<LoweredKernel> lowerChannelBlocking(const OpInstance& op, const ChipConfig& chip,
                                                std::int64_t channels, std::int64_t planeElements,
                                                std::int64_t c0);

}  // namespace ascendsim
