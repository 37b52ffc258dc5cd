#pragma once
// The TIK forms (fp16, argmaxPoolPacking) of MaxPoolWithArgmaxV1 and MaxPoolGradWithArgmaxV1.
//
// MaxPoolWithArgmaxV1 as CANN 8.1 runs it:
// dynamic/max_pool_with_argmaxv1.py hands fp16 NC1HWC0 to dynamic/max_pool_with_argmaxv2.py's
// MaxPoolWithargmaxPytorch (docs/fidelity.md §96). Its UB is six equal parts in two sets of three
// (x, y, z and their twins, used by alternate units) and a 4096-element gather buffer. The tiling
// (maxpoolwithargmaxv2.cc) gives each block whole (n, c1) planes and picks a mode by what fits one
// sixth of UB:
//   mode 1: the padded plane (and the plane's masks) fit: units of c_factor planes;
//   mode 4: a window's rows of the plane fit: units of (band of h_factor output rows, plane), the
//           bands outermost (CANN 8.1's gather form of mode 2: one mask move per tap and band).
// Per plane of a unit, every step a TIK instruction whose operands are run-time Scalars:
//   MTE2: the plane's (band's) input rows;
//   V:    the window's max along W (per input row a vmax of taps 0 and 1, one more per further tap,
//         the window's columns sw positions apart), then along H into the output rows (per output
//         row the same over the row's taps); MTE3: y;
//   V:    per tap and per 256 output positions, the tap's inputs gathered into one buffer (a UB → UB
//         move of one 32 B block per position, one move per output row's run) and compared with y
//         (vcmpv_eq, one uint16 of bits per position);
//   V:    the taps' bits made exclusive (tap 0 copied and inverted, then per tap vand / vor / vnot);
//   MTE3: the masks (mode 1: the unit's masks, once per plane of the unit, as the kernel's move sits
//         inside its plane loop; mode 4: one move per tap).
// TIK cannot prove two instructions on one buffer apart when their offsets are Scalars, so every
// vector-pipe instruction waits for the one before it (a PIPE_V barrier), and the scalar unit
// works out each instruction's operands before issuing it (tik_scalar_work.h).
//
// MaxPoolGradWithArgmaxV1 as CANN 8.1 runs it:
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

struct ArgmaxPoolTensors {
    std::uint64_t x = 0, y = 0, mask = 0;
};

// The kernel for geometry `g` (fp16), its blocks over the planes. Throws LoweringError naming the
// op when a window's rows do not fit a UB part (CANN's mode 3 cuts W: not modelled) or the window's
// stride is past TIK's block-stride form (sw > 31).
LoweredKernel lowerMaxPoolWithArgmaxTik(const OpInstance& op, const ChipConfig& chip, const ArgmaxPoolGeometry& g,
                                        const ArgmaxPoolTensors& t, std::uint64_t workBytes);

struct ArgmaxGradTensors {
    std::uint64_t dy = 0, mask = 0, dx = 0;
};

// The kernel for geometry `g` (fp16), its blocks over the planes. Throws LoweringError naming the
// op when one output row's chunk does not fit its UB parts (CANN's tiling would cut W: not modelled).
LoweredKernel lowerMaxPoolGradWithArgmaxTik(const OpInstance& op, const ChipConfig& chip, const ArgmaxPoolGeometry& g,
                                            const ArgmaxGradTensors& t, std::uint64_t workBytes);

}  // namespace ascendsim
