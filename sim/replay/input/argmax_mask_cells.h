#pragma once
// The argmax mask a max pool's backward reads is the one its forward wrote: MaxPoolWithArgmaxV1's
// output 1, [N, C1, kh·kw, ⌈Ho·Wo/16⌉ + 1, C0] uint16 in x's NC1HWC0 layout ("32,16,9,4,16" for
// AlexNet's 13 × 13 → 6 × 6 pool). The 910B2 export (aclnnMaxPool2dWithMaskBackward, both the text
// and the DB) records the backward's input 2 as [N, C1·C0, kh·kw, kh·kw, ⌈Ho·Wo/16⌉ + 1, C0]
// ("32,256,9,9,4,16"): C0 · kh·kw = 144 times the bytes the forward wrote (81 MiB for 0.59 MB; 238
// MiB for the 55 × 55 layer, read in 100 µs real — more than HBM delivers), and a shape no forward
// tensor has. The 910A export records the forward's shape. This pass gives such a cell the tensor
// the forward wrote — its shape and, when a forward row of the profile wrote that mask, its format
// cell — so the L2 timeline reads that tensor (held or cold, a few MiB), not a stream that empties
// L2 in the backward pass (docs/fidelity.md §159), and the replay's kernel reads it as recorded.
#include <vector>

#include "sim/replay/input/real_profile.h"

namespace ascendsim {

void restoreArgmaxMaskCells(std::vector<RealKernel>& kernels);

}  // namespace ascendsim
