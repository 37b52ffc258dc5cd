#pragma once
// TransData NCHW ↔ NC1HWC0 of 16-bit data with the vnchwconv 16 × 16 transpose (see the .cpp).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// op.inputs[0] → op.outputs[0] over N images of `channels` channels × `planeElements` (H·W);
// toBlocked: NCHW → NC1HWC0 (a C that is not a multiple of 16 padded with zero channels), else back.
std::vector<LoweredKernel> lowerNchwConvTransData(const OpInstance& op, const ChipConfig& chip, std::int64_t channels,
                                                  std::int64_t planeElements, bool toBlocked);

}  // namespace ascendsim
