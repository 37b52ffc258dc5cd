#include "models/kernels/cube/conv/conv2d_operands.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ascendsim {

namespace {
constexpr std::uint64_t kLocalAlignBytes = 512;  // L0A/L0B alignment (hardware.md §2.3), used for every region
constexpr std::uint64_t kL1RowAlignBytes = 32;   // L1 alignment (hardware.md §2.3)
// Deepest L0 step row (baseK × element bytes): 128 fp16 elements, 4 fractals. The conv tiling fills
// the L0A/L0B ping-pong halves with the step (a 128 × 128 fp16 tile is one 32 KiB half) instead of
// MatMul's 64-element default, so a 3×3 chunk of 48 channels (k = 432) is 4 steps, not 9.
constexpr std::uint64_t kMaxStepBytesPerRow = 256;
constexpr std::uint32_t kBaseM = 128, kBaseN = 128;
constexpr std::uint64_t kMaxChunkSteps = 4;      // L1 depth in L0 steps
constexpr std::uint32_t kFractalRows = 16;
}  // namespace

ConvOperands::ConvOperands(ConvProblem problem, ConvTiling tiling)
    : problem_(std::move(problem)), tiling_(tiling),
      coTiles_(ceilDiv(problem_.outChannels, tiling_.baseM)),
      posTiles_(ceilDiv(problem_.window.outPositions(), tiling_.baseN)) {}

std::uint64_t ConvOperands::tileCount() const { return problem_.batch * problem_.groups * coTiles_ * posTiles_; }

ConvOperands::TileCoord ConvOperands::coord(std::uint64_t tile) const {
    TileCoord c;
    const std::uint64_t posTile = tile % posTiles_;
    tile /= posTiles_;
    std::uint64_t coTile = 0;
    if (tiling_.coTileOuter) {
        c.image = tile % problem_.batch;
        tile /= problem_.batch;
        coTile = tile % coTiles_;
        c.group = tile / coTiles_;
    } else {
        coTile = tile % coTiles_;
        tile /= coTiles_;
        c.group = tile % problem_.groups;
        c.image = tile / problem_.groups;
    }
    c.co0 = coTile * tiling_.baseM;
    c.pos0 = posTile * tiling_.baseN;
    c.co = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseM, problem_.outChannels - c.co0));
    c.positions = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseN, problem_.window.outPositions() - c.pos0));
    return c;
}

std::uint32_t ConvOperands::chunkCount(std::uint64_t) const {
    return static_cast<std::uint32_t>(ceilDiv(problem_.reductionChannels(), tiling_.chunkChannels));
}

void ConvOperands::chunk(std::uint64_t, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const {
    const std::uint64_t c0 = std::uint64_t{c} * tiling_.chunkChannels;
    const std::uint64_t channels = std::min<std::uint64_t>(tiling_.chunkChannels, problem_.reductionChannels() - c0);
    start = c0 * problem_.window.taps();
    length = static_cast<std::uint32_t>(channels * problem_.window.taps());
}

std::uint64_t ConvOperands::aRowsOf(std::uint64_t tile) const {
    const TileCoord t = coord(tile);
    return t.group * coTiles_ + t.co0 / tiling_.baseM;
}

std::uint64_t ConvOperands::bColumnsOf(std::uint64_t tile) const {
    const TileCoord t = coord(tile);
    return ((t.image * problem_.groups + t.group) * posTiles_) + t.pos0 / tiling_.baseN;
}

void ConvOperands::loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.inputType), taps = problem_.window.taps();
    const std::uint64_t c0 = step.chunkStart / taps, channels = step.chunkLength / taps;
    const std::uint64_t rowStride = tiling_.weightRowStrideBytes;
    const std::uint64_t coBase = t.group * problem_.outChannels + t.co0;  // weight rows of this tile
    if (problem_.weightLayout == ConvWeightLayout::OutputMajor) {
        // w[co][c][kh][kw]: a chunk is a column block of the [Co × C·kh·kw] matrix; the columns of
        // padded channels are not in GM (their im2col columns are zeros, so they add nothing).
        const std::uint64_t k = problem_.weightRowElements();
        const std::uint64_t real = problem_.realChannels(c0, channels) * taps;
        if (real == 0) return;
        b.copy2d(MemSpace::GM, problem_.wAddr + (coBase * k + step.chunkStart) * eb, MemSpace::L1, l1Addr, t.co,
                 static_cast<std::uint32_t>(real * eb), k * eb, rowStride, kConvOperandLoad);
        b.lastDataMove().linesReadByEveryBlock = problem_.weightLinesReadByEveryBlock;
    } else {
        // w[cSlab][cOut] of a 1×1 transposed convolution: each slab channel's output columns are one
        // contiguous run, so the chunk is one move of `channels` runs into L1 as [c][co] = Aᵀ rows.
        if (taps != 1) throw std::logic_error("transposed weight reads are for 1x1 kernels");
        const std::uint64_t outTotal = problem_.outChannels * problem_.groups;
        b.copy2d(MemSpace::GM, problem_.wAddr + (c0 * outTotal + coBase) * eb, MemSpace::L1, l1Addr,
                 static_cast<std::uint32_t>(channels), static_cast<std::uint32_t>(t.co * eb), outTotal * eb,
                 transposedRunPitch(t.co), kConvOperandLoad);
    }
}

void ConvOperands::loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const ConvWindow& w = problem_.window;
    const std::uint64_t eb = bytesOf(problem_.inputType), taps = w.taps();
    // The slab of the B chunk: the pipeline chunk itself, or the C0 block a span of chunks shares
    // (CubeBufferPlan::bChunkSpan, planConvPositions).
    const std::uint64_t c0 = step.b.start / taps;
    const std::uint64_t channels = problem_.realChannels(c0, step.b.length / taps);
    if (channels == 0) return;  // a chunk of padded channels only: nothing in GM
    // Input slab: channels [c0, c0+channels) of this image and group, the rows the positions read.
    const SlabRows rows = slabRowsFor(w, t.pos0, t.positions);
    const std::uint64_t slabChannel = (t.image * problem_.groups + t.group) * problem_.inChannels + c0;
    b.copy2d(MemSpace::GM, problem_.xAddr + ((slabChannel * w.inH) + rows.first) * w.inW * eb, MemSpace::L1,
             l1Addr, static_cast<std::uint32_t>(channels),
             static_cast<std::uint32_t>(rows.count * w.inW * eb), w.inH * w.inW * eb, rows.count * w.inW * eb);
}

void ConvOperands::loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                            std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.inputType);
    mmad.transposeA = false;
    if (problem_.weightLayout == ConvWeightLayout::InputMajorTransposed) {
        // L1 holds [c][co] = Aᵀ rows: one move of the step's rows, and the cube reads L0A transposed.
        b.copy2d(MemSpace::L1, l1.a + step.offset * transposedRunPitch(t.co), MemSpace::L0A, l0aAddr,
                 step.length, t.co * static_cast<std::uint32_t>(eb), transposedRunPitch(t.co), t.co * eb);
        gatherC0VectorsIfTransposing(b);
        mmad.transposeA = true;
    } else {
        // Columns of padded channels are zeros in FRACTAL_Z weights; the GM tensor here has none,
        // so MTE1 writes the step's zeros (an img2col whose every column is padding) and then
        // the real columns over them.
        const std::uint64_t taps = problem_.window.taps();
        const std::uint64_t realK = problem_.realChannels(step.chunkStart / taps, step.chunkLength / taps) * taps;
        const std::uint64_t realCols = realK > step.offset ? std::min<std::uint64_t>(step.length, realK - step.offset) : 0;
        if (realCols < step.length) b.img2col(zeroColumns(l1.b, l0aAddr, t.co, step.length));
        if (realCols > 0) {
            b.copy2d(MemSpace::L1, l1.a + step.offset * eb, MemSpace::L0A, l0aAddr, t.co,
                     static_cast<std::uint32_t>(realCols * eb), tiling_.weightRowStrideBytes, step.length * eb);
            gatherC0VectorsIfTransposing(b);
        }
    }
    issueWeightLoadPerC0(step, b);
    loadStepB(tile, step, l1, l0bAddr, mmad, b);
}

void ConvOperands::loadStepB(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0bAddr,
                             Mmad& mmad, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const SlabRows rows = slabRowsFor(problem_.window, t.pos0, t.positions);
    // Img2col of the chunk's real channels: columns past them (padded channels) are zeros. The slab
    // in L1 holds the B chunk's channels (step.b), of which this chunk's start intoSlab columns in.
    const std::uint64_t taps = problem_.window.taps();
    const std::uint64_t real = problem_.realChannels(step.chunkStart / taps, step.chunkLength / taps);
    const std::uint64_t slabReal = problem_.realChannels(step.b.start / taps, step.b.length / taps);
    const std::uint64_t slabChannels = std::max<std::uint64_t>(1, slabReal);
    // A chunk of padded channels only starts its columns past the slab's channels.
    const std::uint64_t intoSlab = real == 0 ? slabChannels * taps : step.chunkStart - step.b.start;
    const auto firstK = static_cast<std::uint32_t>(step.offset + intoSlab);
    b.img2col(img2colFor(problem_.window, rows, static_cast<std::uint32_t>(slabChannels),
                         problem_.inputType, l1.b, MemSpace::L0B, l0bAddr, t.pos0, t.positions,
                         firstK, step.length));
    mmad.dtype = problem_.mmadType;
    mmad.transposeB = true;
}

void ConvOperands::loadStepAFromGm(std::uint64_t tile, const CubeStep& step, std::uint64_t l0aAddr, Mmad& mmad,
                                   ProgramBuilder& b) const {
    // w[co][c][kh][kw] rows of the tile's output channels, the step's columns, straight into L0A
    // (the planner takes this path only for output-major weights without padded channels).
    if (problem_.weightLayout != ConvWeightLayout::OutputMajor || problem_.reductionChannels() != problem_.inChannels)
        throw std::logic_error("weights move GM->L0A only as unpadded output-major rows");
    const TileCoord t = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.inputType), k = problem_.weightRowElements();
    const std::uint64_t coBase = t.group * problem_.outChannels + t.co0;
    b.copy2d(MemSpace::GM, problem_.wAddr + (coBase * k + step.chunkStart + step.offset) * eb, MemSpace::L0A, l0aAddr,
             t.co, static_cast<std::uint32_t>(step.length * eb), k * eb, step.length * eb, kConvOperandLoad);
    mmad.transposeA = false;
}

void ConvOperands::issueWeightLoadPerC0(const CubeStep& step, ProgramBuilder& b) const {
    if (problem_.weightLoadIssueCyclesPerC0 == 0) return;
    const std::uint64_t c0Blocks = ceilDiv(step.length, x5hdChannelBlock(problem_.inputType));
    if (c0Blocks > 1) b.scalar(static_cast<std::uint32_t>((c0Blocks - 1) * problem_.weightLoadIssueCyclesPerC0));
}

void ConvOperands::gatherC0VectorsIfTransposing(ProgramBuilder& b) const {
    if (problem_.weightLoadsGatherC0Vectors) b.lastDataMove().gathersC0Vectors = true;
}

Img2ColLoad ConvOperands::zeroColumns(std::uint64_t l1Addr, std::uint64_t l0aAddr, std::uint32_t rows,
                                      std::uint32_t columns) const {
    Img2ColLoad l;  // one 1×1 channel: columns from firstK = 1 on are past it, i.e. zeros
    l.srcAddr = l1Addr;
    l.dstAddr = l0aAddr;
    l.dst = MemSpace::L0A;
    l.dtype = problem_.inputType;
    l.channels = l.inH = l.inW = l.outW = 1;
    l.m = rows;
    l.firstK = 1;
    l.k = columns;
    return l;
}

std::uint64_t ConvOperands::transposedRunPitch(std::uint32_t co) const {
    return roundUp(std::uint64_t{co} * bytesOf(problem_.inputType), kL1RowAlignBytes);
}

DataMove ConvOperands::storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const {
    const TileCoord t = coord(tile);
    const std::uint64_t outBytes = bytesOf(problem_.outputType), plane = problem_.window.outPositions();
    const std::uint64_t channel = (t.image * problem_.groups + t.group) * problem_.outChannels + t.co0;
    DataMove m;
    m.src = MemSpace::L0C;
    m.dst = MemSpace::GM;
    m.srcAddr = l0cAddr;
    m.dstAddr = problem_.yAddr + (channel * plane + t.pos0) * outBytes;
    m.burstCount = t.co;
    m.burstBytes = t.positions * static_cast<std::uint32_t>(bytesOf(problem_.accType));
    m.dstGapBytes = static_cast<std::uint32_t>((plane - t.positions) * outBytes);
    m.srcType = problem_.accType;
    m.dstType = problem_.outputType;
    m.conversion = LayoutConversion::Nz2Nd;
    m.fixpipeChannelSplit = problem_.storesSplitC0Channels;
    if (problem_.outputC0 != 0) {  // the chip's runs: the tile's positions of each C1 block
        m.gm5hd.tensorAddr = problem_.yAddr;
        m.gm5hd.positions = plane;
        m.gm5hd.channels = static_cast<std::uint32_t>(problem_.groups * problem_.outChannels);
        m.gm5hd.elementBytes = static_cast<std::uint32_t>(outBytes);
        m.gm5hd.c0 = problem_.outputC0;
    }
    return m;
}

namespace {
// Chunks of `channels` that share one C0 block of the NC1HWC0 input (x5hdChannelBlock), or 1. The
// chip's slab of an image band is whole C0 blocks, 32 B a pixel: a chunk narrower than C0 does not
// load a narrower slab. TBE's forward conv holds the band of all C1 (here the one C0 block) in L1
// for the position tile and steps the weights' K through it (its AL1 fmap and BL1 weight buffers,
// sized apart): the AlexNet 910B2 stem (C = 3 in one C0 block of 8, 11 × 11 taps, K chunks of 2
// channels) reads each band once a tile, and its 248 KiB of FRACTAL_Z weights do not fit L1 beside
// two 165 KiB bands, so they stream per tile (docs/fidelity.md §131). Chunks of one C0 block or more
// (every other AlexNet / 910A / Qwen3 convolution) are their own band.
std::uint64_t c0BandSpan(const ConvProblem& p, std::uint64_t channels) {
    const std::uint64_t block = std::min(x5hdChannelBlock(p.inputType), p.reductionChannels());
    if (p.weightLayout != ConvWeightLayout::OutputMajor || channels == 0 || channels >= block || block % channels != 0)
        return 1;
    return block / channels;
}

// The L0 step depth of ConvProblem::kernelRowStepsForOneC1Block: one kernel row of the C0 block
// (kernelW · C0 elements, 88 for the fp32 11 × 11 stem), or 0 when the rule does not apply (off,
// or more than one C1 block of input channels).
std::uint64_t kernelRowStepElements(const ConvProblem& p) {
    const std::uint64_t c0 = x5hdChannelBlock(p.inputType);
    if (!p.kernelRowStepsForOneC1Block || p.reductionChannels() > c0) return 0;
    return std::uint64_t{p.window.kernelW} * c0;
}

// Positions of a tile before the whole-plane and kernel-row rules: kBaseN, or (ConvProblem::
// coTilesFillL0c) the side of L0C's square of fp32 fractals, toward which TBE's conv tiling sizes its
// L0C tile (§142: 128 KiB of 1 KiB fractals, 11 × 11: 176 positions), the co tile then as wide as
// L0C holds beside it (coTileChannels).
std::uint64_t positionTileSide(const ChipConfig& chip, const ConvProblem& p) {
    if (!p.coTilesFillL0c) return kBaseN;
    const std::uint64_t fractalBytes = std::uint64_t{kFractalRows} * kFractalRows * 4;
    std::uint64_t side = 1;
    while ((side + 1) * (side + 1) * fractalBytes <= chip.bufferCapacity(MemSpace::L0C)) ++side;
    return std::max<std::uint64_t>(kBaseN, side * kFractalRows);
}

// Channels of a weight chunk of ConvProblem::weightChunksOfWholeSteps: the fewest whole C0 blocks
// whose K (channels · taps) is a whole number of `stepDepth` steps, at most the reduction's; 0
// when the rule is off or the kernel-row steps apply.
std::uint64_t wholeStepChunkChannels(const ConvProblem& p, std::uint64_t stepDepth) {
    if (!p.weightChunksOfWholeSteps || kernelRowStepElements(p) != 0 || stepDepth == 0) return 0;
    const std::uint64_t c0 = x5hdChannelBlock(p.inputType), taps = p.window.taps();
    std::uint64_t channels = c0;
    while (channels * taps % stepDepth != 0 && channels < p.reductionChannels()) channels += c0;
    return std::min(channels, p.reductionChannels());
}

// Position tile of the kernel-row steps: whole fractals of positions as many as one L0 half holds
// at a kernel row's depth (the stem's 32 KiB / (88 · 4 B) = 93 → 80), at most `positions`.
std::uint64_t kernelRowStepPositions(const ChipConfig& chip, const ConvProblem& p, std::uint64_t positions) {
    const std::uint64_t depth = kernelRowStepElements(p);
    if (depth == 0) return positions;
    const std::uint64_t fit = l0HalfStepDepth(chip, depth, bytesOf(p.inputType), kFractalRows);
    return std::max<std::uint64_t>(kFractalRows, std::min(positions, fit));
}

// Output channels of a tile: the MatMul-like kBaseM, or (ConvProblem::coTilesFillL0c) the widest
// of Co's equal whole-fractal splits whose fp32 accumulator beside `positions` fits L0C and whose
// L0 step can be at least `granule` deep (else kBaseM's).
std::uint64_t coTileChannels(const ChipConfig& chip, const ConvProblem& p, std::uint64_t positions,
                             std::uint64_t granule) {
    const std::uint64_t co = roundUp(p.outChannels, kFractalRows), narrow = std::min<std::uint64_t>(kBaseM, co);
    if (!p.coTilesFillL0c) return narrow;
    const std::uint64_t rowBytes = roundUp(positions, kFractalRows) * bytesOf(p.accType);
    for (std::uint64_t parts = 1; parts <= co / kFractalRows; ++parts) {
        const std::uint64_t width = roundUp(ceilDiv(co, parts), kFractalRows);
        if (width <= narrow) break;
        if (width * rowBytes <= chip.bufferCapacity(MemSpace::L0C) &&
            l0HalfStepDepth(chip, std::max(width, positions), bytesOf(p.inputType), granule) >= granule)
            return width;
    }
    return narrow;
}

// The plan of planConv for position tiles of `positionsPerTile`; false (with `failure` set) when
// no channel chunk of the slab fits half of L1 or the buffers do not fit.
bool planConvPositions(const OpInstance& op, const ChipConfig& chip, const ConvProblem& p,
                       std::uint64_t positionsPerTile, bool weightsFromGm, ConvTiling& tiling, CubeBufferPlan& plan,
                       std::string& failure) {
    const std::uint64_t eb = bytesOf(p.inputType), taps = p.window.taps();
    tiling = ConvTiling{};
    plan = CubeBufferPlan{};
    // Steps are whole fractals deep, or (ConvProblem::stepsInC0Blocks) whole C0 blocks: the same 16
    // elements for fp16 / bf16, 8 for fp32, whose fractal is 16 × 8.
    const std::uint64_t granule = p.stepsInC0Blocks ? x5hdChannelBlock(p.inputType) : kFractalRows;
    tiling.baseM = static_cast<std::uint32_t>(coTileChannels(chip, p, positionsPerTile, granule));
    tiling.baseN = static_cast<std::uint32_t>(positionsPerTile);
    const std::uint64_t stepElements = std::max<std::uint64_t>(
        granule, std::min(kMaxStepBytesPerRow / eb / granule * granule,
                          l0HalfStepDepth(chip, std::max(tiling.baseM, tiling.baseN), eb, granule)));
    tiling.baseK = static_cast<std::uint32_t>(p.stepDepth != 0 ? std::min<std::uint64_t>(p.stepDepth, p.reduction())
                                                                : std::min<std::uint64_t>(stepElements, roundUp(p.reduction(), granule)));
    // A kernel row of C0 blocks a step (ConvProblem::kernelRowStepsForOneC1Block), when both L0
    // operands of the tile hold it: planConv sized the position tile for it.
    const std::uint64_t kernelRow = kernelRowStepElements(p);
    if (kernelRow != 0 && l0HalfStepDepth(chip, std::max(tiling.baseM, tiling.baseN), eb, granule) >= kernelRow)
        tiling.baseK = static_cast<std::uint32_t>(std::min<std::uint64_t>(kernelRow, p.reduction()));

    const std::uint64_t slabRows = maxSlabRows(p.window, tiling.baseN);
    const std::uint64_t slotBudget = chip.bufferCapacity(MemSpace::L1) / 2;
    // The weight chunk: baseM rows of `channels`·taps, or (1×1 input gradient) `channels` runs of
    // baseM, each row or run 32 B aligned.
    auto weightBytes = [&](std::uint64_t channels) {
        const std::uint64_t rows = tiling.baseM * roundUp(channels * taps * eb, kL1RowAlignBytes);
        const std::uint64_t runs = channels * roundUp(tiling.baseM * eb, kL1RowAlignBytes);
        const bool transposedRuns = p.weightLayout == ConvWeightLayout::InputMajorTransposed;
        return roundUp(transposedRuns ? std::max(rows, runs) : rows, kLocalAlignBytes);
    };
    auto slabBytes = [&](std::uint64_t channels) {
        return roundUp(channels * slabRows * p.window.inW * eb, kLocalAlignBytes);
    };
    auto slotBytes = [&](std::uint64_t channels) {
        return (weightsFromGm ? 0 : weightBytes(channels)) + slabBytes(channels);
    };
    // Deepest chunk of whole channels within the weight chunk's L0 steps (ConvProblem::
    // weightChunkSteps, else kMaxChunkSteps) that fits; multiples of 16 channels keep the reduction
    // fractal-aligned.
    auto shallower = [](std::uint64_t channels) { return channels > kFractalRows ? channels - kFractalRows : channels - 1; };
    const std::uint64_t chunkSteps = p.weightChunkSteps != 0 ? p.weightChunkSteps : kMaxChunkSteps;
    std::uint64_t channels = std::min<std::uint64_t>(p.reductionChannels(), std::max<std::uint64_t>(1, chunkSteps * tiling.baseK / taps));
    if (channels > kFractalRows) channels = channels / kFractalRows * kFractalRows;
    while (channels > 0 && slotBytes(channels) > slotBudget) channels = shallower(channels);
    const std::uint64_t wholeSteps = wholeStepChunkChannels(p, tiling.baseK);
    if (wholeSteps != 0 && slotBytes(wholeSteps) <= slotBudget) channels = wholeSteps;
    if (channels == 0) {
        failure = "one input channel slab of " + std::to_string(slabRows) + " rows x " + std::to_string(p.window.inW) +
                  " does not fit half of L1";
        return false;
    }

    // Resident weights: every chunk of a co-tile's weights after two slab-only slots, worth it only
    // when several tiles (images × position tiles) share a co-tile and blocks run several tiles.
    // Shallower chunks, down to one L0 step, shrink the slab slots until the weights fit.
    auto residentBytes = [&](std::uint64_t chunk) { return ceilDiv(p.reductionChannels(), chunk) * weightBytes(chunk); };
    const std::uint64_t tilesPerCoTile = p.batch * ceilDiv(p.window.outPositions(), tiling.baseN);
    const std::uint64_t tiles = tilesPerCoTile * p.groups * ceilDiv(p.outChannels, tiling.baseM);
    std::uint64_t residentChannels = 0;
    if (!weightsFromGm && tilesPerCoTile > 1 && blocksRunSeveralTiles(op, chip, tiles)) {
        const std::uint64_t oneStep = std::min<std::uint64_t>(channels, std::max<std::uint64_t>(1, tiling.baseK / taps));
        // The slabs beside resident weights are the chip's: whole C0 blocks of the NC1HWC0 input.
        for (std::uint64_t c = channels; c >= oneStep && residentChannels == 0; c = shallower(c))
            if (2 * slabBytes(c * c0BandSpan(p, c)) + residentBytes(c) <= chip.bufferCapacity(MemSpace::L1))
                residentChannels = c;
    }
    if (residentChannels != 0) channels = residentChannels;
    tiling.chunkChannels = static_cast<std::uint32_t>(channels);
    tiling.weightRowStrideBytes = roundUp(channels * taps * eb, kL1RowAlignBytes);
    std::uint64_t band = c0BandSpan(p, channels);
    if (p.inputBandMaxChunks != 0 && p.weightLayout == ConvWeightLayout::OutputMajor && residentChannels == 0 &&
        !weightsFromGm) {
        // The deepest band of ConvProblem::inputBandMaxChunks chunks or fewer of which two fit L1
        // beside two weight chunks.
        const std::uint64_t deepest = std::min<std::uint64_t>(ceilDiv(p.reductionChannels(), channels), p.inputBandMaxChunks);
        for (std::uint64_t span = deepest; span > band; --span)
            if (2 * (weightBytes(channels) + slabBytes(span * channels)) <= chip.bufferCapacity(MemSpace::L1)) {
                band = span;
                break;
            }
    }
    if (residentChannels != 0) {
        tiling.coTileOuter = true;
        plan.placeResidentA(slabBytes(channels), weightBytes(channels), residentBytes(channels));
    } else if (!weightsFromGm && band > 1 &&
               2 * (weightBytes(channels) + slabBytes(band * channels)) <= chip.bufferCapacity(MemSpace::L1)) {
        // The band (one C0 block's, or ConvProblem::inputBandMaxChunks chunks'): two
        // B slots of its slab, each loaded once for the `band` chunks that read it, and the weight
        // chunks in two slots of their own.
        plan.bChunkSpan = static_cast<std::uint32_t>(band);
        plan.l1BOffset = 0;
        plan.l1SlotBytes = slabBytes(band * channels);
        plan.l1ASlotAddr = 2 * plan.l1SlotBytes;
        plan.l1ASlotBytes = weightBytes(channels);
        plan.l1BiasAddr = plan.l1ASlotAddr + 2 * plan.l1ASlotBytes;
    } else {
        plan.l1BOffset = weightsFromGm ? 0 : weightBytes(channels);
        plan.l1SlotBytes = slotBytes(channels);
        plan.l1BiasAddr = 2 * plan.l1SlotBytes;
    }
    plan.l0aSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseK * eb, kLocalAlignBytes);
    plan.l0bSlotBytes = roundUp(std::uint64_t{tiling.baseN} * tiling.baseK * eb, kLocalAlignBytes);
    plan.l0cSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseN * 4, kLocalAlignBytes);
    plan.l0cSlots = 2 * plan.l0cSlotBytes <= chip.bufferCapacity(MemSpace::L0C) ? 2 : 1;
    if (weightsFromGm) {
        // A block's consecutive tiles are an image's co-tiles (tile order image, co-tile), and up to
        // as many as L0C has regions share each L0B step of the img2col.
        plan.aFromGm = true;
        plan.tilesSharingB = static_cast<std::uint32_t>(std::min<std::uint64_t>(plan.l0cSlots, ceilDiv(p.outChannels, tiling.baseM)));
        plan.l0cSlots = plan.tilesSharingB;
    }
    planCoupledOutput(chip, plan, tiling.baseM, tiling.baseN, p.outputType, false, p.outputType);
    if (!planFits(chip, plan, 0, 0)) {
        failure = "the buffers of " + std::to_string(tiling.baseM) + " x " + std::to_string(tiling.baseN) +
                  " tiles do not fit";
        return false;
    }
    return true;
}
// True when all of a group's weights (every output channel, the whole reduction, 32 B-aligned
// rows) do not fit in the L1 that `plan`'s slab slots leave.
bool weightsExceedL1(const ChipConfig& chip, const ConvProblem& p, const CubeBufferPlan& plan) {
    const std::uint64_t rowBytes = roundUp(p.weightRowElements() * bytesOf(p.inputType), kL1RowAlignBytes);
    const std::uint64_t slabSlots = std::uint64_t{plan.l1Slots} * (plan.l1SlotBytes - plan.l1BOffset);
    return p.outChannels * rowBytes + slabSlots > chip.bufferCapacity(MemSpace::L1);
}
}  // namespace

void planConv(const OpInstance& op, const ChipConfig& chip, const ConvProblem& p, ConvTiling& tiling,
              CubeBufferPlan& plan) {
    const std::uint64_t plane = roundUp(p.window.outPositions(), kFractalRows);
    std::string failure;
    // The input gradient's wider base block (ConvProblem::basePositions), when its buffers fit.
    if (p.basePositions > kBaseN && plane > kBaseN &&
        planConvPositions(op, chip, p, std::min<std::uint64_t>(p.basePositions, plane), false, tiling, plan, failure))
        return;
    const std::uint64_t positions = kernelRowStepPositions(chip, p, std::min<std::uint64_t>(positionTileSide(chip, p), plane));
    if (!planConvPositions(op, chip, p, positions, false, tiling, plan, failure)) {
        checkPlanFits(op, chip, plan, 0, 0);  // names the buffer that overflows, if one does
        throwLoweringError(op, failure);
    }
    // The 910A's per-image schedule (ConvProblem::weightsFromGmWhenTheyExceedL1): weights that do
    // not fit L1 beside the slab slots move GM→L0A step by step, whole planes as position tiles.
    if (p.weightsFromGmWhenTheyExceedL1 && weightsExceedL1(chip, p, plan)) {
        ConvTiling direct;
        CubeBufferPlan directPlan;
        if (planConvPositions(op, chip, p, plane, true, direct, directPlan, failure)) {
            tiling = direct;
            plan = directPlan;
            return;
        }
    }
    // The forward conv's tiling takes a whole output plane as one position tile when its weights
    // stream through L1 (not resident): each image then reads every weight chunk once instead of
    // once per position tile, for one L0C slot in place of two. With resident weights the GM bytes
    // are the same either way and the double-buffered L0C is kept.
    if (!p.wholePlaneTiles || plan.residentA || plane <= tiling.baseN || positions < std::min<std::uint64_t>(kBaseN, plane))
        return;
    ConvTiling whole;
    CubeBufferPlan wholePlan;
    if (planConvPositions(op, chip, p, plane, false, whole, wholePlan, failure) && !wholePlan.residentA) {
        tiling = whole;
        plan = wholePlan;
    }
}

}  // namespace ascendsim
