// Conv2DBackpropFilter lowering (docs/op-catalog.md): x [N,C,H,W], dy [N,Co,Ho,Wo] → dw
// [Co,C,kh,kw] (fp32) with filter_size = dw shape. Output tiles are (co-tile, column-tile of
// C·kh·kw); when they are fewer than the cores, the (image, position) reduction is split over
// blocks as well, which then accumulate with FixPipe atomic adds after a zero-fill kernel. On the
// split cube a block runs its share (whole output rows) image by image, storing each tile once per
// image through one L0C buffer (FilterGradProblem::tilesPerImage, docs/fidelity.md §131g, §136);
// its fp32 rows take CANN's block split (k shares of flattened positions) and L0 block instead when
// the launch's block dim is the cube cache tiling's (FilterGradProblem::blockSplit, §151, §154).
#include <algorithm>
#include <memory>
#include <string>

#include "models/kernels/cube/conv/conv2d_backprop_filter_operands.h"

namespace ascendsim {

namespace {
// Reduction splits of the filter gradient. CANN's tiling binds the batch to the cores first: each
// block reduces its images into a partial dw and adds it to the output atomically, so every block
// writes the whole dw it covers (the real profiles show it: AlexNet 910B2 fixpipe 0.31-0.56 and
// the 910A's mte3 0.86 on filter gradients of 2.4 MB dw). Fewer images than blocks leave cores
// that a finer split of the reduction fills: then the fewest splits whose busiest block runs the
// least work, ceil(tiles·s / blocks) tiles of 1/s of the reduction (2 tiles on 24 cores: 12).
std::uint32_t reductionSplits(std::uint64_t images, std::uint64_t outputTiles, std::uint64_t blocks,
                              std::uint64_t reductionChunks) {
    const std::uint64_t maxSplits = std::max<std::uint64_t>(1, std::min(reductionChunks, blocks));
    std::uint64_t best = 1;
    double bestWork = static_cast<double>(ceilDiv(outputTiles, blocks));
    for (std::uint64_t s = 2; s <= maxSplits; ++s) {
        const double work = static_cast<double>(ceilDiv(outputTiles * s, blocks)) / static_cast<double>(s);
        if (work < bestWork * (1.0 - 1e-9)) {
            best = s;
            bestWork = work;
        }
    }
    return static_cast<std::uint32_t>(std::max(best, std::min(images, maxSplits)));
}

// Channels an x slab moves per channel it needs (FilterGradProblem::slabChannelBlock). TBE v100's dw
// schedule (conv2d_backprop_filter_schedule.py, _bl1_attach) computes fmap_l1 at the dw_cc axis of
// each L0C tile when the reduction is split in L1, so every output column tile loads its own NC1HWC0
// slab, whole C0 blocks; c1e639ee level1 rank0 Conv2DBackpropFilter97 (C1 = 1) is MTE2-bound on it
// (0.965). CANN's 220x dw kernel instead loads an n-block's C1 rows once for stepN n-blocks (ops-nn
// conv3d_backprop_filter_v2 arch32 tiling: CalculateBl1Cin1CopyLen, stepN), so a C1 = 1 stem reads
// x about once per k chunk: e5a31957 Conv2DBackpropFilter10's MTE2 is 121 µs, which the per-channel
// slab gives under the timeline L2 state (118 µs) and C0 blocks per column tile overshoot (227 µs,
// docs/fidelity.md §105).
std::uint64_t slabChannelBlock(const ChipConfig& chip, DataType dtype) {
    return chip.organisation == CoreOrganisation::Coupled ? x5hdChannelBlock(dtype) : 1;
}

std::vector<LoweredKernel> lowerConv2DBackpropFilter(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() < 2 || op.outputs.empty()) throwLoweringError(op, "needs inputs x, dy and output dw");
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& dy = op.inputs[1];
    const TensorInfo& dw = op.outputs[0];
    requireNchw(op, x, "x");
    requireNchw(op, dy, "dy");
    requireNchw(op, dw, "dw");
    if (x.dtype != dy.dtype) throwLoweringError(op, "x and dy dtypes differ");
    if (op.intsAttr("filter_size", dw.shape) != dw.shape) throwLoweringError(op, "filter_size does not match dw");
    const ConvAttrs a = parseConvAttrs(op);
    if (a.groups != 1) throwLoweringError(op, "groups > 1 is not modelled for the filter gradient");
    if (dw.shape[0] != dy.shape[1] || dw.shape[1] != x.shape[1] || x.shape[0] != dy.shape[0])
        throwLoweringError(op, "channels of x, dy and dw do not match");
    const auto kh = static_cast<std::uint32_t>(dw.shape[2]), kw = static_cast<std::uint32_t>(dw.shape[3]);
    if (convOutputExtent(x.shape[2], a.padTop, a.padBottom, a.dilationH, kh, a.strideH) != dy.shape[2] ||
        convOutputExtent(x.shape[3], a.padLeft, a.padRight, a.dilationW, kw, a.strideW) != dy.shape[3])
        throwLoweringError(op, "dy spatial shape does not match the forward convolution of x");

    FilterGradProblem p;
    ConvWindow& win = p.window;
    win.inH = static_cast<std::uint64_t>(x.shape[2]);
    win.inW = static_cast<std::uint64_t>(x.shape[3]);
    win.outH = static_cast<std::uint64_t>(dy.shape[2]);
    win.outW = static_cast<std::uint64_t>(dy.shape[3]);
    win.kernelH = kh;
    win.kernelW = kw;
    win.strideH = a.strideH;
    win.strideW = a.strideW;
    win.padTop = a.padTop;
    win.padLeft = a.padLeft;
    win.dilationH = a.dilationH;
    win.dilationW = a.dilationW;
    p.batch = static_cast<std::uint64_t>(x.shape[0]);
    p.inChannels = static_cast<std::uint64_t>(x.shape[1]);
    p.outChannels = static_cast<std::uint64_t>(dy.shape[1]);
    p.inputType = x.dtype;
    convTypes(op, x.dtype, p.mmadType, p.accType);
    p.outputType = dw.dtype;
    p.xAddr = x.deviceAddr;
    p.dyAddr = dy.deviceAddr;
    p.dwAddr = dw.deviceAddr;
    p.slabChannelBlock = slabChannelBlock(chip, x.dtype);

    const bool splitCube = chip.organisation != CoreOrganisation::Coupled;
    const std::uint64_t targetBlocks = op.blockDim ? *op.blockDim : std::max<std::uint32_t>(1, chip.aiCoreCount);
    if (splitCube && x.dtype == DataType::Fp32) {
        // The fp32 rows' tiling is the cube cache tiling's cycle-model search (docs/fidelity.md §151):
        // taken when its block split is the launch's block dim (on the AlexNet 910B2 rows it is: 24).
        const FilterGradBlockSplit split =
            cannFilterGradBlockSplit(win, p.batch, p.inChannels, p.outChannels, bytesOf(x.dtype),
                                     p.mmadType == DataType::Hf32, chip.aiCoreCount, chip.bufferCapacity(MemSpace::L1));
        if (split.batchDim != 0 && split.blocks() == targetBlocks) p.blockSplit = split;
        // Its BL1 holds whole C1 of x (CubeUtil::CalcBL1N counts C1 rows): a band moves every C0 vector of the
        // NC1HWC0 rows it covers, e.g. the stem's 3 channels as its one C1 of 8 (docs/fidelity.md §161).
        if (p.blockSplit.batchDim != 0) p.slabChannelBlock = x5hdChannelBlock(x.dtype);
    }

    FilterGradTiling tiling;
    CubeBufferPlan plan;
    planFilterGrad(op, chip, p, tiling, plan);
    const bool cannBlockSplit = p.blockSplit.batchDim != 0;
    if (cannBlockSplit) {
        // Every block adds its share's partial dw atomically into a zeroed output. A tile accumulates
        // the block's images before its store, as the cache tiling's cycle model counts it (fixpipe
        // once per L0C tile, the batch inside): the chip's FixPipe busy on the four 13 × 13 / 27 × 27
        // rows is 31-43 KB/µs of that one store a tile, where a store per image would need 270-1400
        // (docs/fidelity.md §151).
        p.splits = p.blockSplit.blocks();
        p.tilesPerImage = false;
        p.coTilesInnermost = true;
        p.storesSplitC0Channels = convStoresSplitC0Channels(chip, p.outputType);
    } else {
        const std::uint64_t outputTiles = ceilDiv(p.outChannels, tiling.baseM) * ceilDiv(p.columns(), tiling.baseN);
        // The split cube shares whole output rows out (FilterGradOperands::splitByOutputRows): no more
        // splits than rows, so that no block goes without any.
        const std::uint64_t reductionChunks = p.batch * tiling.chunksPerImage();
        const std::uint64_t reductionUnits = splitCube ? std::min(reductionChunks, p.batch * win.outH) : reductionChunks;
        p.splits = reductionSplits(p.batch, outputTiles, targetBlocks, reductionUnits);
        p.tilesPerImage = splitCube && p.splits > 1;
        p.coTilesInnermost = splitCube;
    }
    if (p.coTilesInnermost)
        planResidentX(op, chip, p, tiling, plan);
    else
        planResidentDy(op, chip, p, tiling, plan);
    plan.storesWithoutUnitFlag = convGradientStoresWithoutUnitFlag(chip);
    if (!plan.residentA && !plan.residentBRuns && filterGradXBandSingleBuffered(chip, p, tiling, plan)) plan.l1Slots = 1;

    auto operands = std::make_shared<const FilterGradOperands>(p, tiling);
    std::vector<LoweredKernel> kernels;
    if (p.splits > 1 || cannBlockSplit) kernels.push_back(makeGmZeroFillKernel(chip, dw.deviceAddr, dw.bytes()));
    kernels.push_back(makeCubeKernel(op, chip, operands, plan, CubeStepSizes{tiling.baseK}));
    return kernels;
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("Conv2DBackpropFilter", lowerConv2DBackpropFilter);

}  // namespace ascendsim
