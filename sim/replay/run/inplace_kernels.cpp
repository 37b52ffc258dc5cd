#include "sim/replay/run/inplace_kernels.h"

namespace ascendsim {

bool isCopyIntoExisting(const RealKernel& kernel) { return kernel.name.starts_with("aclnnInplaceCopy"); }

std::vector<std::size_t> inPlaceInputs(const RealKernel& kernel) {
    // varRef, mRef, vRef (aclnnApplyAdamWV2GetWorkspaceSize's first three tensors).
    if (kernel.type == "ApplyAdamWV2") return {0, 1, 2};
    if (kernel.name.starts_with("aclnnInplace") && !isCopyIntoExisting(kernel)) return {0};
    return {};
}

bool isInPlaceKernel(const RealKernel& kernel) { return !inPlaceInputs(kernel).empty(); }

}  // namespace ascendsim
