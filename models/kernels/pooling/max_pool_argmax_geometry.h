#pragma once
// Geometry shared by MaxPoolWithArgmaxV1 and MaxPoolGradWithArgmaxV1 (docs/op-catalog.md, "Ops of
// the CNN training samples"). Both work on NC1HWC0 data with C0 = 16 whatever the dtype (the
// samples: fp16 [32,4,55,55,16] on the 910A, fp32 [32,4,55,55,16] "NC1HWC0:1" on the 910B2), so
// one position of one (n, c1) plane is 16 lanes: 32 B (fp16) or 64 B (fp32) in UB. The argmax is
// CANN's bit mask: per plane, per window tap, ⌈Ho·Wo/16⌉+1 rows of 16 uint16, one uint16 per output
// position holding one bit per C0 lane (vcmpv's output), i.e. argmax
// [N, C1, kh·kw, ⌈Ho·Wo/16⌉+1, 16] uint16.
#include <cstdint>
#include <vector>

#include "models/kernels/kernel_registry.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

inline constexpr std::uint64_t kArgmaxPoolC0 = 16;

struct ArgmaxPoolGeometry {
    DataType dtype = DataType::Fp16;
    std::uint64_t planes = 0, h = 0, w = 0, outH = 0, outW = 0, kh = 1, kw = 1, sh = 1, sw = 1;
    std::uint64_t positionBytes() const { return kArgmaxPoolC0 * bytesOf(dtype); }
    std::uint64_t taps() const { return kh * kw; }
    // uint16 entries of one tap's mask in one plane: ⌈Ho·Wo/16⌉+1 rows of 16.
    std::uint64_t maskTapEntries() const { return (ceilDiv(outH * outW, 16) + 1) * 16; }
    std::vector<std::int64_t> maskShape() const;
};

// x [N, C, H, W] (C a multiple of 16) with ksize, strides and pads (all 0: padding is not modelled);
// the output size follows MaxPoolV3's rule. Throws LoweringError naming the op.
ArgmaxPoolGeometry argmaxPoolGeometry(const OpInstance& op, const TensorInfo& x);

// One vector op over `positions` consecutive output positions of a row, each 16 lanes: dst at
// `dstStride` positions apart, src0/src1 at `src0Stride`/`src1Stride` positions (a window tap of
// consecutive outputs is `sw` positions apart in the input row). A 64 B fp32 position is two
// 32 B blocks, issued as two instructions (lanes 0-7, 8-15), each block-strided.
struct PositionOperands {
    std::uint64_t dst = 0, src0 = 0, src1 = 0;
    std::uint64_t dstStride = 1, src0Stride = 1, src1Stride = 1;
};
// How a kernel lays positions on the vector unit's repeats:
//   BlockStrided:  one 32 B block of 8 positions per repeat (the block stride steps over the
//                  window's stride), as CANN's TIK kernels issue them;
//   OnePerRepeat:  one position per repeat, its 16 lanes masked on and the repeat stride stepping
//                  from position to position, as the DSL's PoolingGradWithArg schedule issues the
//                  grad's col2img adds (max_pool_grad_with_argmax.cpp);
//   OneBlockPerRepeat: as OnePerRepeat, but one 32 B block of a position per repeat (its lanes
//                  masked on) and a position's blocks in instructions of their own, as the DSL's
//                  fp32 img2col emits a half of C0 at a time (max_pool_with_argmax.cpp).
enum class PositionPacking : std::uint8_t { BlockStrided, OnePerRepeat, OneBlockPerRepeat };
// The packing of the MaxPoolWithArgmaxV1 pair's kernels for x's dtype, which also picks the kernel:
// CANN's dispatch (tbe/impl/dynamic/max_pool_with_argmaxv1.py, CANN 8.1) compiles fp32 (and NCHW)
// inputs with the DSL's reduce_window (the PoolingWithArg pattern) and fp16 NC1HWC0 with the TIK kernel.
inline PositionPacking argmaxPoolPacking(DataType dtype) {
    return dtype == DataType::Fp32 ? PositionPacking::OnePerRepeat : PositionPacking::BlockStrided;
}
void emitPositions(std::vector<Instruction>& code, VectorOp op, DataType dtype, const PositionOperands& o,
                   std::uint64_t positions, PositionPacking packing = PositionPacking::BlockStrided);

}  // namespace ascendsim
