#pragma once
// A dropout mask generator that runs on the AI CPU records no tensors: the 910A sample's
// "StatelessDropOutGenMask25" row is N/A throughout. The mask it writes is the one the next
// DropOutDoMask reads (its input 2, "36864" UINT8 for a [32, 9216] x), so this pass gives such a
// row that tensor as its output: the replay then knows how many mask bits it generates.
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

// How far ahead the consumer may be (other streams' kernels can start in between).
inline constexpr std::size_t kDropoutMaskConsumerLookahead = 8;

void attributeDropoutMaskTensors(std::vector<RealKernel>& kernels);

}  // namespace ascendsim
