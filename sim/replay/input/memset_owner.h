#pragma once
// CANN launches a MemSet before a kernel that accumulates into its outputs with atomic adds
// (EmbeddingDenseGradV2's table, a split-K MatMul's C, Conv2DBackpropFilter's dw) and names it
// after that kernel: "aclnnMm_MatMulCommon_MemSet" precedes "aclnnMm_MatMulCommon_MatMulV2". Its
// row records no tensors ("N/A"); the tensor it zeroes is the owner's output. This pass gives each
// such MemSet row its owner's first output as its tensor, so the replay knows the bytes it writes.
// The 910A's "atomic_memset-1_271" rows name no owner: theirs is the next kernel on the stream
// that adds into an fp32 output with atomics (memset_owner.cpp lists the types).
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// How far ahead the owner may be (other streams' kernels can start in between).
inline constexpr std::size_t kMemSetOwnerLookahead = 8;

void attributeMemSetTensors(std::vector<RealKernel>& kernels);

}  // namespace ascendsim
