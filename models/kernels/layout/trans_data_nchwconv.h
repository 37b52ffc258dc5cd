#pragma once
// TransData NCHW ↔ NC1HWC0 with the vnchwconv transpose: 16-bit data everywhere, 32-bit data on
// the parts whose vnchwconv takes 32-bit elements (see the .cpp).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// Whether the chip's vnchwconv transposes 32-bit elements (the 220x parts: platform_config
// Ascend910B*.ini list float32 for Intrinsic_vnchwconv, Ascend910A.ini does not).
bool vnchwconvTakes32BitElements(const ChipConfig& chip);

// op.inputs[0] → op.outputs[0] over N images of `channels` channels × `planeElements` (H·W) in
// cells of c0 channels (32 B of elements, or 16 fp32 channels: NC1HWC0:1); toBlocked: NCHW →
// NC1HWC0 (a C that is not a multiple of C0 padded with zero channels), else back.
std::vector<LoweredKernel> lowerNchwConvTransData(const OpInstance& op, const ChipConfig& chip, std::int64_t channels,
                                                  std::int64_t planeElements, bool toBlocked, std::int64_t c0);

}  // namespace ascendsim
