#pragma once
// Convolution geometry shared by Conv2D and its gradients: NCHW tensors, the im2col mapping of an
// output-position range onto a row slab of the input, and attribute parsing.
#include <cstdint>

#include "models/kernels/tiling/cube_tiling.h"

namespace ascendsim {

// A forward-style convolution y[n][co][oh][ow] = Σ w · x over (c, kh, kw), seen from the input
// side: x is read through Img2ColLoad with these parameters (stride/pad/dilation on a possibly
// zero-stuffed input for transposed convolutions).
struct ConvWindow {
    std::uint64_t inH = 0, inW = 0, outH = 0, outW = 0;
    std::uint32_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
    std::uint32_t padTop = 0, padLeft = 0, dilationH = 1, dilationW = 1;
    std::uint32_t inputDilationH = 1, inputDilationW = 1;
    bool rotateKernel = false;

    std::uint64_t taps() const { return std::uint64_t{kernelH} * kernelW; }
    std::uint64_t outPositions() const { return outH * outW; }
};

// Layout conversion of a convolution operand's GM→L1 load. CANN's convolution kernels read x and
// dy in NC1HWC0 and the weights in FRACTAL_Z (the graph inserts TransData kernels before them;
// the replayed samples record exactly these formats), which already hold C0-wide fractal rows: the
// load is a plain copy of C0 blocks, not an ND2NZ conversion. The model keeps NCHW addresses (same
// bytes, same functional result); only the move's cost follows the real layout.
constexpr LayoutConversion kConvOperandLoad = LayoutConversion::None;

// Channels of one C0 block of an NC1HWC0 tensor: 32 B of elements (16 fp16, 8 fp32; hardware.md §2.3).
// CANN's convolution kernels read x as NC1HWC0 (kConvOperandLoad), where a channel lies inside its
// C0 block and a DMA moves whole blocks: a slab of some channels moves their C0 blocks.
std::uint64_t x5hdChannelBlock(DataType dtype);

// Input rows [first, first+count) that output positions [firstPos, firstPos+positions) read.
struct SlabRows {
    std::uint64_t first = 0, count = 1;
};
SlabRows slabRowsFor(const ConvWindow& window, std::uint64_t firstPos, std::uint64_t positions);
// Upper bound of SlabRows::count over every range of `positions` positions.
std::uint64_t maxSlabRows(const ConvWindow& window, std::uint64_t positions);

// The Img2ColLoad that writes im2col rows [firstPos, firstPos+positions) × reduction columns
// [firstK, firstK+k) of a slab holding `channels` channels × `rows` at L1 `slabAddr`.
Img2ColLoad img2colFor(const ConvWindow& window, const SlabRows& rows, std::uint32_t channels,
                       DataType dtype, std::uint64_t slabAddr, MemSpace dst, std::uint64_t dstAddr,
                       std::uint64_t firstPos, std::uint32_t positions, std::uint32_t firstK, std::uint32_t k);

// Attributes strides/pads/dilations (op-catalog defaults), validated; throws LoweringError.
struct ConvAttrs {
    std::uint32_t strideH = 1, strideW = 1, padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
    std::uint32_t dilationH = 1, dilationW = 1, groups = 1;
};
ConvAttrs parseConvAttrs(const OpInstance& op);
// The op attribute the replay's conv rules set on a recorded Conv2D / Conv2DBackpropInput: the
// output (y, dx) is stored NC1HWC0 in GM, its recorded format, with this C0 (0 or absent: NCHW).
// The lowering keeps its logical NCHW addresses (the functional data) and charges the stores the
// 5HD runs the chip's FixPipe writes (ConvProblem::outputC0, DataMove::gm5hd; docs/fidelity.md §133f).
inline constexpr const char* kConvOutputC0Attr = "output_c0";
// Four dims of an NCHW tensor, or LoweringError.
void requireNchw(const OpInstance& op, const TensorInfo& t, const char* role);
// Output extent of a forward convolution along one axis (op-catalog shape rule).
std::int64_t convOutputExtent(std::int64_t in, std::uint32_t padBefore, std::uint32_t padAfter,
                              std::uint32_t dilation, std::uint32_t kernel, std::uint32_t stride);

// K depth (elements, a multiple of `granule`: the 16-row fractal by default) of an L0 step whose
// `rows` × depth block of `elementBytes` elements fills one ping-pong half of the smaller of L0A /
// L0B: CANN's convolution tilings deepen baseK so (docs/fidelity.md §86). 0 when not one granule fits.
std::uint64_t l0HalfStepDepth(const ChipConfig& chip, std::uint64_t rows, std::uint64_t elementBytes,
                              std::uint64_t granule = 16);

// True when the convolution gradients' FixPipe stores wait for the cube on a plain event rather
// than as unit-flag stores in flight (CubeBufferPlan::storesWithoutUnitFlag): CANN's arch22
// filter- and input-gradient kernels on the split cores (ops-nn conv_bp_sub_func.h sets the mmad's
// unitFlag to 0, docs/fidelity.md §86e, §115). The coupled cores store through UB.
bool convGradientStoresWithoutUnitFlag(const ChipConfig& chip);

// True when the convolution's FixPipe stores write `output` with the channel split
// (DataMove::fixpipeChannelSplit): CANN's 220x convolution kernels set it for fp32 output, whose
// C0 (8) is half the L0C fractal row's 16 channels (ops-nn conv3d_backprop_input_v2 `CopyData2Gm`,
// asc-devkit conv3d_bp_filter_sub_func.h `LoadL0c2Gm`; docs/fidelity.md §126). The forward and the
// input gradient use it; the filter gradient's kernel splits too, but the model's dw blocks each store
// the whole dw (a batch split only, where CANN also splits the output, §110b), so at the split's rate
// its rows' FixPipe would be 0.85-0.90 of their time against the real 0.10-0.56 (§126): left out
// until that split is modelled. The coupled cores have no FixPipe: their L0C goes out through UB.
bool convStoresSplitC0Channels(const ChipConfig& chip, DataType output);

// Element type of L0C and the mmad for a conv input dtype; throws LoweringError if unsupported.
void convTypes(const OpInstance& op, DataType input, DataType& mmadType, DataType& accType);

}  // namespace ascendsim
