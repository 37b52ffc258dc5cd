#pragma once
// Which real kernel rows write their output over an input (docs/fidelity.md §16). The export
// records no addresses, but torch_npu's kernel names carry the aclnn API that launched them:
// "aclnnInplaceRelu_Relu_Relu", "aclnnInplaceMuls_MulAiCore_Mul", "aclnnInplaceZero_...". An
// aclnnInplace* API updates its self tensor, so the kernel's output is its input 0's memory —
// except aclnnInplaceCopy (copy_(self, src)), whose recorded input is src and whose output is a
// different tensor (self). The replay places such an output on its input (kernel_replay.h).
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

bool isInPlaceKernel(const RealKernel& kernel);
// aclnnInplaceCopy: the kernel writes its output into an existing tensor (self), not its input.
bool isCopyIntoExisting(const RealKernel& kernel);

}  // namespace ascendsim
