#pragma once
// Transpose lowering shared with TransData: moves op.inputs[0] viewed as `shape` (same element
// count) to op.outputs[0] in the order `perm` (see transpose.cpp for the modelled forms).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Where the permuted tensor goes: op.outputs[0], or the launch's GM workspace (a helper kernel
// whose result a following kernel of the same op reads; workspaceBytes is set accordingly).
enum class PermutationTarget : std::uint8_t { Output, Workspace };

// How a pass's tiles follow each other: Pipelined (two buffers, a tile's load under the previous
// tile's work) or Serial, as CANN's TIK loops run (no ping-pong, and TIK's own synchronisation
// starts a tile only once the previous tile's stores have landed; docs/fidelity.md §98), or
// SingleBuffer: one buffer per queue and no barrier, as TBE's DSL TransData schedules keep every UB
// tensor (docs/fidelity.md §87f, §113): a tile's load waits for the previous tile's compute, its
// compute for the previous tile's store.
enum class PermutationTiles : std::uint8_t { Pipelined, Serial, SingleBuffer };

std::vector<LoweredKernel> lowerPermutation(const OpInstance& op, const ChipConfig& chip,
                                            const std::vector<std::int64_t>& shape,
                                            const std::vector<std::int64_t>& perm,
                                            PermutationTarget target = PermutationTarget::Output,
                                            PermutationTiles tiles = PermutationTiles::Pipelined);

// NCHW → NC1HWC0 of x viewed as [N, channels, planeElements]: each image's channels in blocks of
// c0, every block transposed to [planeElements, c0]; a last block of fewer real channels is
// padded with zeros (a C = 3 image becomes C1 = 1 block of C0 channels, 3 of them real).
std::vector<LoweredKernel> lowerChannelBlocking(const OpInstance& op, const ChipConfig& chip,
                                                std::int64_t channels, std::int64_t planeElements,
                                                std::int64_t c0);

}  // namespace ascendsim
