#include "sim/replay/run/inplace_kernels.h"

namespace ascendsim {

bool isCopyIntoExisting(const RealKernel& kernel) { return kernel.name.starts_with("aclnnInplaceCopy"); }

bool isInPlaceKernel(const RealKernel& kernel) {
    return kernel.name.starts_with("aclnnInplace") && !isCopyIntoExisting(kernel);
}

}  // namespace ascendsim
