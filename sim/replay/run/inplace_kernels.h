#pragma once
// Which real kernel rows write their outputs over their inputs (docs/fidelity.md §16, §107). The
// export records no addresses, but torch_npu's kernel names carry the aclnn API that launched
// them: "aclnnInplaceRelu_Relu_Relu", "aclnnInplaceMuls_MulAiCore_Mul", "aclnnInplaceZero_...". An
// aclnnInplace* API updates its self tensor, so the kernel's output is its input 0's memory —
// except aclnnInplaceCopy (copy_(self, src)), whose recorded input is src and whose output is a
// different tensor (self). A few APIs update several of their tensors: aclnnApplyAdamWV2 takes
// varRef, mRef and vRef and writes the new parameter and moments over them (its row records the
// inputs var, m, v, grad, step and no outputs; hicann/ops-nn optim/apply_adam_w_v2/docs/
// aclnnApplyAdamWV2.md). The replay places such outputs on their inputs (kernel_replay.h) and the
// L2 timeline marks those inputs written (l2_timeline.h).
#include <cstddef>
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// The inputs the kernel writes over, in output order: output j is the memory of input
// inPlaceInputs(kernel)[j] (recorded or not: ApplyAdamWV2's outputs are not). Empty for a kernel
// whose outputs are new tensors.
std::vector<std::size_t> inPlaceInputs(const RealKernel& kernel);
// Some output of the kernel is one of its inputs' memory.
bool isInPlaceKernel(const RealKernel& kernel);
// aclnnInplaceCopy: the kernel writes its output into an existing tensor (self), not its input.
bool isCopyIntoExisting(const RealKernel& kernel);

}  // namespace ascendsim
