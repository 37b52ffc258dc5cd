#pragma once
// MaxPoolGradWithArgmaxV1's TIK kernel (the fp16 form, argmaxPoolPacking), as CANN 8.1 runs it:
// dynamic/max_pool_grad_with_argmaxv1.py hands fp16 to dynamic/max_pool_grad_with_argmaxv2.py's
// MaxpoolGrad (docs/fidelity.md §70). Its UB is seven equal parts (UB less 8 KiB, in fp16
// elements, over 7): grad, the selected grad / the fp16 result, the mask, the fp32 result (two
// parts) and the fp32 selected grad. Each block takes whole (n, c1) planes, one after another
// (thread_num = 1: nothing double-buffered). A plane is one chunk when its fp32 dx (H·W·16) and its
// grad fit their parts (tiling mode 0), else chunks of the most output rows whose dx rows fit
// (mode 1; the rows a window spans past its stride carried from chunk to chunk in UB). Per chunk:
//   V:    the fp32 dx rows and the grad part cleared (and the carried rows restored);
//   MTE2: the chunk's grad rows (one burst);
//   per window tap, one after another (the mask part is reused: a tap's load waits for the
//   previous tap's vector work, its vector work for its load):
//     V: the mask part cleared; MTE2: the tap's mask entries of the chunk (one burst);
//     V: per 8 positions a CMPMASK load and a one-repeat vsel (⌈rows·Wo/16⌉·16 positions), the
//        selected values to fp32, per output row two block-strided vadds (lanes 0-7, 8-15) of 20
//        positions at a time into the tap's input positions (stride sw);
//   V:    the fp32 dx rows to fp16; MTE3: the chunk's dx rows; V: the carried rows saved.
#include <cstdint>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"

namespace ascendsim {

struct ArgmaxGradTensors {
    std::uint64_t dy = 0, mask = 0, dx = 0;
};

// The kernel for geometry `g` (fp16), its blocks over the planes. Throws LoweringError naming the
// op when one output row's chunk does not fit its UB parts (CANN's tiling would cut W: not modelled).
LoweredKernel lowerMaxPoolGradWithArgmaxTik(const OpInstance& op, const ChipConfig& chip, const ArgmaxPoolGeometry& g,
                                            const ArgmaxGradTensors& t, std::uint64_t workBytes);

}  // namespace ascendsim
