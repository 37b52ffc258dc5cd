// Conv2D lowering (docs/op-catalog.md): x [N,C,H,W], w [Co,C/groups,kh,kw], optional bias [Co] →
// y [N,Co,Ho,Wo], all NCHW, through the img2col cube pipeline of conv2d_operands.h; a bias adds a
// second (vector) kernel, conv2d_bias.h.
#include <algorithm>
#include <memory>
#include <string>

#include "models/kernels/cube/conv/conv2d_bias.h"
#include "models/kernels/cube/conv/conv2d_operands.h"

namespace ascendsim {

namespace {
// Whether the chip's forward convolution loads each L1 chunk only once the cube has used the one
// before (one L1 buffer: TBE's conv tiling "manual_pingpong_buffer" AL1/BL1_pbuffer = 1), so GM→L1
// does not overlap the cube. The 910A's (TBE v100 conv_schedule) forward rows say so: c1e639ee
// level1 rank0 Conv2D18/20/22 (3×3 over 13×13, C 192-384) busy MAC 0.40-0.46 + MTE2 0.44-0.50 +
// MTE1 0.07-0.08 of their time = 0.95-0.98, Conv2D15 (5×5 over 27×27) 0.89: the pipes take turns;
// with two L1 buffers the model overlapped MTE2 under the cube and ran them 0.47-0.53× (0.80×)
// of real. Its input gradients overlap them (Conv2DBackpropInput74/79: MAC 0.70 + MTE2 0.44-0.54
// > 1) and keep two. The 910B2's fp32 forward convs (e5a31957: MAC 0.79-0.85 with MTE2 0.75-0.82)
// overlap too.
bool forwardConvSingleBuffersL1(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

// Whether the chip's forward convolution runs TBE v100's per-image schedule when the weights do not
// fit L1 (docs/fidelity.md §63): the weights then stream GM→L0 step by step (the tiling leaves the
// weight L1 buffer empty) and the img2col of a whole output plane serves every co-tile it can hold in
// L0C. c1e639ee level1 rank0 Conv2D18/20/22 (13×13 planes, weights 1.2-1.8 MB against a 1 MB L1):
// MTE1 busy only 0.07-0.08 of the kernel (one img2col of each image) and MTE2 0.44-0.50 (all the
// weights on every core); Conv2D12/15, whose weights (0.25 / 0.61 MB) fit, keep them in L1 (MTE1
// 0.84 / 0.28: their weights go L1→L0A).
bool forwardConvWeightsFromGm(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

// Whether the forward convolution's FixPipe stores wait for the cube on a plain event rather than
// in flight behind the mmads (CubeBufferPlan::storesWithoutUnitFlag): the 910B2's fp32 forward is
// TBE's conv kernel, not the Ascend C Matmul whose mmad unit flag §34 counts, and its rows' FixPipe
// busy is the store alone — e5a31957 text/level2 rank0 Conv2D1 (the stem, 1.55 MB of fp32 output
// a core) 0.085 of its time, 33 B a cycle, where counting the wait gave 0.45; the 13 × 13 rows
// 0.07-0.14, 27 B a cycle (docs/fidelity.md §122). A counter only: times do not change. The
// coupled cores store through UB.
bool forwardConvStoresWithoutUnitFlag(const ChipConfig& chip) { return convGradientStoresWithoutUnitFlag(chip); }

// L0 steps of a weight chunk in TBE's split-cube fp32 forward (ConvProblem::weightChunkSteps): the
// weights stream through L1 in chunks of two L0 steps while the position tile's input band of every
// channel stays. Fitted on e5a31957 text/level2 rank0 (at), the five Conv2D rows' MTE2 / scalar /
// MAC (1, 2, 3, 4 steps measured: 2 is the only depth that lowers all three AIC pipe errors;
// docs/fidelity.md §135); held-out check on the DB export (ad). TBE's BL1 depth is in its closed
// legacy tiling.
constexpr std::uint32_t kSplitCubeFp32WeightChunkSteps = 2;

// Whether the forward runs TBE's conv schedule of the split cores as §135 and §142 model it: the
// input band of all channels held a position tile, streamed weight chunks, steps of whole C0 blocks,
// co tiles as wide as L0C holds, and a one-C1 stem stepped a kernel row of C0 blocks deep. Only fp32
// rows (the AlexNet 910B2's) are measured; 16-bit forwards (ResNet-50 on the 910B1) and the coupled
// cores (TBE v100's schedule, §63) keep the default plan.
bool forwardConvHoldsTheInputBand(const ChipConfig& chip, DataType input) {
    return chip.organisation != CoreOrganisation::Coupled && input == DataType::Fp32;
}

// Whether every block of the launch reads the same weight lines at once, in the same order: more
// than one block, each running whole images (every co tile and position tile of each), as the
// forward's tile order (image, group, co tile, position tile) deals them out in equal ranges (not
// the resident weights' co-tile-outer order).
bool everyBlockReadsTheWeightsAtOnce(const OpInstance& op, const ChipConfig& chip, const ConvProblem& p,
                                     const ConvTiling& tiling) {
    const std::uint64_t perImage = p.groups * ceilDiv(p.outChannels, tiling.baseM) *
                                   ceilDiv(p.window.outPositions(), tiling.baseN);
    const std::uint64_t tiles = p.batch * perImage;
    const std::uint32_t blocks = chooseBlockDim(op, chip, tiles);
    return !tiling.coTileOuter && blocks > 1 && tiles % blocks == 0 && (tiles / blocks) % perImage == 0;
}

std::vector<LoweredKernel> lowerConv2D(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() < 2 || op.outputs.empty()) throwLoweringError(op, "needs inputs x, w and output y");
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& w = op.inputs[1];
    const TensorInfo& y = op.outputs[0];
    requireNchw(op, x, "x");
    requireNchw(op, w, "w");
    requireNchw(op, y, "y");
    if (x.dtype != w.dtype) throwLoweringError(op, "x and w dtypes differ");
    const ConvAttrs a = parseConvAttrs(op);
    const std::int64_t channels = x.shape[1], outChannels = w.shape[0];
    if (channels % a.groups != 0 || outChannels % a.groups != 0 || w.shape[1] != channels / a.groups)
        throwLoweringError(op, "channels of x/w do not match groups=" + std::to_string(a.groups));

    ConvProblem p;
    ConvWindow& win = p.window;
    win.inH = static_cast<std::uint64_t>(x.shape[2]);
    win.inW = static_cast<std::uint64_t>(x.shape[3]);
    win.kernelH = static_cast<std::uint32_t>(w.shape[2]);
    win.kernelW = static_cast<std::uint32_t>(w.shape[3]);
    win.strideH = a.strideH;
    win.strideW = a.strideW;
    win.padTop = a.padTop;
    win.padLeft = a.padLeft;
    win.dilationH = a.dilationH;
    win.dilationW = a.dilationW;
    const std::int64_t outH = convOutputExtent(x.shape[2], a.padTop, a.padBottom, a.dilationH, win.kernelH, a.strideH);
    const std::int64_t outW = convOutputExtent(x.shape[3], a.padLeft, a.padRight, a.dilationW, win.kernelW, a.strideW);
    if (outH <= 0 || outW <= 0 || y.shape != std::vector<std::int64_t>{x.shape[0], outChannels, outH, outW})
        throwLoweringError(op, "output shape does not match the convolution (expected [" + std::to_string(x.shape[0]) +
                                   "," + std::to_string(outChannels) + "," + std::to_string(outH) + "," +
                                   std::to_string(outW) + "])");
    win.outH = static_cast<std::uint64_t>(outH);
    win.outW = static_cast<std::uint64_t>(outW);
    p.batch = static_cast<std::uint64_t>(x.shape[0]);
    p.groups = a.groups;
    p.inChannels = static_cast<std::uint64_t>(channels / a.groups);
    p.outChannels = static_cast<std::uint64_t>(outChannels / a.groups);
    // NC1HWC0 / FRACTAL_Z hold C padded to C1·C0 (C0 = 32 B of elements: 16 fp16, 8 fp32; hardware.md
    // §2.3), and the cube reduces over the padded K = C1·C0·kh·kw: a C=3 stem costs C0/3 times the MACs.
    if (a.groups == 1) p.paddedChannels = roundUp(p.inChannels, x5hdChannelBlock(x.dtype));
    p.inputType = x.dtype;
    convTypes(op, x.dtype, p.mmadType, p.accType);
    p.outputType = y.dtype;
    p.storesSplitC0Channels = convStoresSplitC0Channels(chip, p.outputType);
    p.outputC0 = static_cast<std::uint32_t>(std::max<std::int64_t>(0, op.intAttr(kConvOutputC0Attr, 0)));
    p.xAddr = x.deviceAddr;
    p.wAddr = w.deviceAddr;
    p.yAddr = y.deviceAddr;
    p.weightLayout = ConvWeightLayout::OutputMajor;
    p.wholePlaneTiles = true;
    p.weightsFromGmWhenTheyExceedL1 = forwardConvWeightsFromGm(chip);
    if (forwardConvHoldsTheInputBand(chip, x.dtype)) {
        p.inputBandMaxChunks = ConvProblem::kEveryChunk;
        p.weightChunkSteps = kSplitCubeFp32WeightChunkSteps;
        p.stepsInC0Blocks = true;
        p.coTilesFillL0c = true;
        p.kernelRowStepsForOneC1Block = true;
        p.weightChunksOfWholeSteps = true;
    }

    ConvTiling tiling;
    CubeBufferPlan plan;
    planConv(op, chip, p, tiling, plan);
    if (forwardConvSingleBuffersL1(chip)) plan.l1Slots = 1;
    if (forwardConvHoldsTheInputBand(chip, x.dtype)) p.weightLinesReadByEveryBlock = everyBlockReadsTheWeightsAtOnce(op, chip, p, tiling);
    plan.storesWithoutUnitFlag = forwardConvStoresWithoutUnitFlag(chip);
    auto operands = std::make_shared<const ConvOperands>(p, tiling);
    std::vector<LoweredKernel> kernels{makeCubeKernel(op, chip, operands, plan, CubeStepSizes{tiling.baseK})};
    if (op.inputs.size() > 2) {
        const TensorInfo& bias = op.inputs[2];
        if (bias.elementCount() != outChannels || bias.dtype != y.dtype)
            throwLoweringError(op, "bias must be [Co] with the dtype of y");
        ConvBiasProblem b;
        b.planes = static_cast<std::uint64_t>(x.shape[0] * outChannels);
        b.channels = static_cast<std::uint64_t>(outChannels);
        b.planeElements = win.outPositions();
        b.dtype = y.dtype;
        b.yAddr = y.deviceAddr;
        b.biasAddr = bias.deviceAddr;
        kernels.push_back(makeConvBiasKernel(op, chip, b));
    }
    return kernels;
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("Conv2D", lowerConv2D);

}  // namespace ascendsim
