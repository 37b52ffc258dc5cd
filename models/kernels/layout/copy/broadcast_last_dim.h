#pragma once
// BroadcastTo along the last dim (x [.., 1] → y [.., L], the Qwen3 sample's [1] → [4096]): each
// row's one value is read by the scalar unit and written L times by a Duplicate
// (broadcast_last_dim.cpp). BroadcastTo's other forms are elementwise copies (broadcast_to.cpp).
#include "models/kernels/kernel_registry.h"

namespace ascendsim {

// True when y differs from x only in a last dim of 1 broadcast (leading dims equal, ranks may
// differ by leading 1s).
bool broadcastsOnlyTheLastDim(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y);

std::vector<LoweredKernel> lowerBroadcastLastDim(const OpInstance& op, const ChipConfig& chip);

}  // namespace ascendsim
