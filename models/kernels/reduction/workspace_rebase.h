#pragma once
// Kernels of a multi-pass op that hand data to each other through the launch workspace, whose GM
// address is known only when a block's program is generated (BlockProgramRequest::workspaceAddr).
// Such a kernel is lowered against tensors placed at kWorkspacePlaceholder + offset, and its
// program is wrapped so every GM address in that range is moved onto the real workspace.
#include <cstdint>

#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Far above any device address the host allocates (assumed: HBM is < 2^40 bytes).
inline constexpr std::uint64_t kWorkspacePlaceholder = std::uint64_t{1} << 60;

// `kernel` with its program rebased from kWorkspacePlaceholder onto the launch workspace and
// workspaceBytes set to `bytes` (the size of the placeholder range).
LoweredKernel rebasedOntoWorkspace(LoweredKernel kernel, std::uint64_t bytes);

}  // namespace ascendsim
