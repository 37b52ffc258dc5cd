#include "models/kernels/cube/conv/conv2d_backprop_filter_operands.h"

#include <algorithm>

namespace ascendsim {

namespace {
constexpr std::uint64_t kLocalAlignBytes = 512;
constexpr std::uint64_t kL1RowAlignBytes = 32;
// Shallowest L0 step row (positions × element bytes): 32 fp32 / 64 fp16 positions. The L1 chunk
// holds kChunkSteps of these per dy row (512 B: 128 fp32 positions) whatever the step's depth.
constexpr std::uint64_t kStepBytesPerRow = 128;
constexpr std::uint32_t kBaseM = 128, kBaseN = 128;
constexpr std::uint32_t kChunkSteps = 4;
constexpr std::uint32_t kFractalRows = 16;

// Positions of one L0 step. On the split (220x) cube CANN's filter-gradient tiling deepens baseK
// until the step's dy and img2col blocks fill an L0A / L0B ping-pong half (ops-nn
// conv3d_backprop_filter_v2 arch22 basic-block tiling, InitBaseMNK: 128 × 128 blocks with baseK
// 128 · 2 / dtype bytes, raised when baseM or baseN shrink so baseM·baseK stays one 32 KiB half), as
// the forward conv's tiling does (conv2d_operands.cpp): 64 fp32 or 128 fp16 positions for 128 × 128
// tiles, fewer, larger loads and mmads per chunk (docs/fidelity.md §86). The coupled 910A's TBE dw
// schedule keeps the shallowest step: its fp16 rows go 1.04 → 1.10× with the deeper one (§86).
std::uint64_t stepPositions(const ChipConfig& chip, const FilterGradProblem& p, const FilterGradTiling& tiling) {
    const std::uint64_t eb = bytesOf(p.inputType);
    const std::uint64_t shallowest = kStepBytesPerRow / eb;
    if (chip.organisation == CoreOrganisation::Coupled) return shallowest;
    return std::max(shallowest, l0HalfStepDepth(chip, std::max(tiling.baseM, tiling.baseN), eb));
}

// Reduction columns of one output tile. On the split (220x) cube CANN's dw tiling takes 128 × 128
// base blocks and deepens the step instead (stepPositions). The coupled 910A's TBE dw schedule keeps
// the shallow step and widens the column tile until its img2col block fills an L0B ping-pong half
// (64 fp16 positions × 256 columns = 32 KiB) with two L0C tiles still fitting: c1e639ee level1 rank0
// Conv2DBackpropFilter97 (the 11 × 11 / 4 stem, C1 = 1, 121 × 16 columns) is MTE2-bound on the
// chip (0.965 of 362 µs, MAC 0.279, MTE1 0.479): the C0 block of x it reads once per column tile
// (NC1HWC0, FilterGradProblem::slabChannelBlock) costs 2.4× that MTE2 time with 128-column tiles
// and 1.2× with 256, whose pipe mix is the row's (docs/fidelity.md §105).
std::uint64_t columnTile(const ChipConfig& chip, const FilterGradProblem& p, const FilterGradTiling& tiling) {
    if (chip.organisation != CoreOrganisation::Coupled) return kBaseN;
    const std::uint64_t fillsL0bHalf = l0HalfStepDepth(chip, tiling.baseK, bytesOf(p.inputType));
    const std::uint64_t twoL0cTiles = chip.bufferCapacity(MemSpace::L0C) / 2 / (std::uint64_t{tiling.baseM} * 4) /
                                      kFractalRows * kFractalRows;
    return std::max<std::uint64_t>(kBaseN, std::min(fillsL0bHalf, twoL0cTiles));
}
// Elements of the x band CANN's 220x dw tiling reserves in L1 for one k chunk of `positions` output
// positions and a column tile of `columns` (asc-devkit conv3d_bp_filter_tiling.cpp, CalBL1Bound):
// the input rows the chunk's output rows read (a chunk that is not whole output rows counts two
// more), Wi wide, for the C1 rows the columns touch (a tile narrower than kh·kw, or ending inside
// a C1 row, counts one more), 16 elements a pixel.
std::uint64_t chipXBandElements(const FilterGradProblem& p, std::uint64_t positions, std::uint64_t columns) {
    const ConvWindow& w = p.window;
    std::uint64_t outRows = 0;
    if (positions % w.outW == 0 || w.outW % positions == 0)
        outRows = ceilDiv(positions, w.outW);
    else
        outRows = positions > w.outW ? positions / w.outW + 2 : 2;
    const std::uint64_t inRows = (outRows - 1) * w.strideH + (std::uint64_t{w.kernelH} - 1) * w.dilationH + 1;
    const std::uint64_t taps = w.taps();
    const std::uint64_t fractalColumns = ceilDiv(columns, std::uint64_t{kFractalRows});
    std::uint64_t c1Rows = ceilDiv(fractalColumns, taps);
    if (taps > fractalColumns && taps % fractalColumns != 0)
        ++c1Rows;
    else if (2 * fractalColumns % taps != 0)
        ++c1Rows;
    return inRows * w.inW * c1Rows * kFractalRows;
}

// L0C buffers of the dw's output tiles. The split cube's dw kernel (asc-devkit conv3d_bp_filter_func.h
// Compute / InitTque) accumulates a tile in l0cPing_ and takes l0cPong_ only when the tiling's
// cl0Pbuffer is 2; the 220x dw tiling copies cl0Pbuffer from the TBE tiling's db_l0c (ops-nn
// conv3d_backprop_filter_v2 arch22 conv3d_backprop_filter_v2_base_tiling.cpp, InitCalTilingValue;
// the fp32 AlexNet rows take theirs from the closed legacy library, §110b), and CANN's hand-set
// dw tilings there keep one (TILINGDATA_MAP_B3 / x1_* entries: cl0Pbuffer 1). With one, a tile's
// first mmad waits for the previous tile's store: on the AlexNet 910B2 dw rows the blocks' mean
// cycles come to the chip's per-core cycles (aic_total_cycles / block dim: 104 k / 153 k / 134 k /
// 182 k real, 114 k / 165 k / 126 k / 182 k model) and MAC to 0.60-0.81 (real 0.66-0.83), where
// two buffers hide the stores and run MAC-bound at 0.85-0.96 (docs/fidelity.md §136). The coupled
// 910A's TBE v100 schedule keeps two when they fit.
std::uint32_t filterGradL0cSlots(const ChipConfig& chip, std::uint64_t l0cSlotBytes) {
    if (chip.organisation != CoreOrganisation::Coupled) return 1;
    return 2 * l0cSlotBytes <= chip.bufferCapacity(MemSpace::L0C) ? 2 : 1;
}
}  // namespace

bool filterGradXBandSingleBuffered(const ChipConfig& chip, const FilterGradProblem& p, const FilterGradTiling& tiling,
                                   const CubeBufferPlan& plan) {
    if (chip.organisation == CoreOrganisation::Coupled) return false;
    const std::uint64_t band = chipXBandElements(p, tiling.chunkPositions, tiling.baseN) * bytesOf(p.inputType);
    return 2 * (plan.l1BOffset + band) > chip.bufferCapacity(MemSpace::L1);
}

std::uint64_t FilterGradTiling::chunksPerImage() const { return ceilDiv(outPositions, chunkPositions); }

FilterGradOperands::FilterGradOperands(FilterGradProblem problem, FilterGradTiling tiling)
    : problem_(std::move(problem)), tiling_(tiling),
      coTiles_(ceilDiv(problem_.outChannels, tiling_.baseM)), colTiles_(ceilDiv(problem_.columns(), tiling_.baseN)) {
    if (problem_.blockSplit.batchDim != 0) {
        splitByBlocks();
        return;
    }
    if (problem_.tilesPerImage) {
        splitByOutputRows();
        return;
    }
    const std::uint64_t total = reductionChunks();
    for (std::uint64_t split = 0; split < problem_.splits; ++split) {
        splitFirstSegment_.push_back(segments_.size());
        const std::uint64_t first = total * split / problem_.splits, end = total * (split + 1) / problem_.splits;
        if (first < end) segments_.push_back({first, end - first});
    }
    splitFirstSegment_.push_back(segments_.size());
}

// The split cube shares its reduction out by whole output rows, as CANN's dw tiling splits ho over
// cores (ops-nn conv3d_backprop_filter_v2 arch22 tiling: kDim, singleCoreHo): split s takes rows
// [s·R / splits, (s + 1)·R / splits) of the batch's R = N·Ho rows, so the splits differ by one row
// at most. A split's rows are cut at image boundaries into segments, each chunked from its own
// first position. (Cutting the flattened 128-position chunks instead left 13 × 13 splits of 169,
// 210 and 297 positions: the AlexNet 910B2 dw blocks ran 0.79 of the busiest one's time where the
// chip's cores run 0.93-0.97 of the kernel, aic_total_cycles / (block dim · cycles), §136.)
void FilterGradOperands::splitByOutputRows() {
    const ConvWindow& w = problem_.window;
    const std::uint64_t rows = problem_.batch * w.outH, perImage = tiling_.outPositions;
    for (std::uint64_t split = 0; split < problem_.splits; ++split) {
        splitFirstSegment_.push_back(segments_.size());
        std::uint64_t position = rows * split / problem_.splits * w.outW;
        const std::uint64_t end = rows * (split + 1) / problem_.splits * w.outW;
        while (position < end) {
            const std::uint64_t last = std::min(end, (position / perImage + 1) * perImage);
            segments_.push_back({0, ceilDiv(last - position, std::uint64_t{tiling_.chunkPositions}), position, last - position});
            position = last;
        }
    }
    splitFirstSegment_.push_back(segments_.size());
}

// CANN's block split (FilterGradProblem::blockSplit, conv2d_backprop_filter_block_split.h): block b
// takes the flattened output positions [k·P, (k + 1)·P) of each image, k = b % kDim, P the cache
// tiling's single-core k (the TBE binary schedule's hw split), input channels (b / kDim) % nDim,
// output channels (b / (kDim · nDim)) % mDim, images b / (kDim · nDim · mDim). A block is one segment:
// its tiles the share's column tiles with the co tiles innermost, each accumulating all the block's
// images (their positions) before its one store. Blocks whose share is empty run nothing.
void FilterGradOperands::splitByBlocks() {
    const FilterGradBlockSplit& s = problem_.blockSplit;
    const ConvWindow& w = problem_.window;
    const std::uint64_t taps = w.taps();
    for (std::uint32_t b = 0; b < s.blocks(); ++b) {
        splitFirstSegment_.push_back(segments_.size());
        const std::uint64_t kIdx = b % s.kDim, nIdx = b / s.kDim % s.nDim;
        const std::uint64_t mIdx = b / (s.kDim * s.nDim) % s.mDim, batchIdx = b / (s.kDim * s.nDim * s.mDim);
        const std::uint64_t co0 = mIdx * s.coutPerBlock, ch0 = nIdx * s.cinPerBlock, pos0 = kIdx * s.positionsPerBlock;
        const std::uint64_t image0 = batchIdx * s.imagesPerBlock;
        if (co0 >= problem_.outChannels || ch0 >= problem_.inChannels || pos0 >= w.outPositions() ||
            image0 >= problem_.batch)
            continue;
        Segment seg{0, 0};
        seg.co0 = co0;
        seg.coCount = std::min(s.coutPerBlock, problem_.outChannels - co0);
        seg.col0 = ch0 * taps;
        seg.colCount = std::min(s.cinPerBlock, problem_.inChannels - ch0) * taps;
        seg.coTiles = ceilDiv(seg.coCount, std::uint64_t{tiling_.baseM});
        seg.colTiles = ceilDiv(seg.colCount, std::uint64_t{tiling_.baseN});
        seg.positions = std::min(s.positionsPerBlock, w.outPositions() - pos0);
        seg.images = std::min(problem_.batch, image0 + s.imagesPerBlock) - image0;
        seg.chunks = seg.images * ceilDiv(seg.positions, std::uint64_t{tiling_.chunkPositions});
        seg.firstPosition = image0 * w.outPositions() + pos0;
        seg.firstTile = blockSplitTiles_;
        blockSplitTiles_ += seg.coTiles * seg.colTiles;
        segments_.push_back(seg);
    }
    splitFirstSegment_.push_back(segments_.size());
}

std::uint64_t FilterGradOperands::segmentOfTile(std::uint64_t tile) const {
    const auto next = std::upper_bound(segments_.begin(), segments_.end(), tile,
                                       [](std::uint64_t t, const Segment& seg) { return t < seg.firstTile; });
    return static_cast<std::uint64_t>(next - segments_.begin()) - 1;
}

std::uint64_t FilterGradOperands::firstTileOfSegment(std::uint64_t segment) const {
    return segment < segments_.size() ? segments_[segment].firstTile : blockSplitTiles_;
}

std::uint64_t FilterGradOperands::tileCount() const {
    if (problem_.blockSplit.batchDim != 0) return blockSplitTiles_;
    return coTiles_ * colTiles_ * segments_.size();
}

void FilterGradOperands::blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                                    std::uint64_t& count) const {
    if (problem_.blockSplit.batchDim != 0 && blockDim == problem_.blockSplit.blocks()) {
        first = firstTileOfSegment(splitFirstSegment_[block]);
        count = firstTileOfSegment(splitFirstSegment_[block + 1]) - first;
        return;
    }
    if (blockDim != problem_.splits || problem_.blockSplit.batchDim != 0) {
        CubeOperands::blockTiles(blockDim, block, first, count);
        return;
    }
    first = splitFirstSegment_[block] * coTiles_ * colTiles_;
    count = splitFirstSegment_[block + 1] * coTiles_ * colTiles_ - first;
}

FilterGradOperands::TileCoord FilterGradOperands::coord(std::uint64_t tile) const {
    TileCoord c;
    std::uint64_t colTile = 0, coTile = 0;
    if (problem_.blockSplit.batchDim != 0) {
        c.segment = segmentOfTile(tile);
        const Segment& seg = segments_[c.segment];
        const std::uint64_t local = tile - seg.firstTile;
        coTile = local % seg.coTiles;
        colTile = local / seg.coTiles;
        c.co0 = seg.co0 + coTile * tiling_.baseM;
        c.k0 = seg.col0 + colTile * tiling_.baseN;
        c.co = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseM, seg.co0 + seg.coCount - c.co0));
        c.cols = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseN, seg.col0 + seg.colCount - c.k0));
        c.firstChunk = 0;
        c.chunks = seg.chunks;
        setSlabChannels(c);
        return c;
    }
    if (problem_.coTilesInnermost) {
        coTile = tile % coTiles_;
        tile /= coTiles_;
        colTile = tile % colTiles_;
        c.segment = tile / colTiles_;
    } else {
        colTile = tile % colTiles_;
        tile /= colTiles_;
        coTile = tile % coTiles_;
        c.segment = tile / coTiles_;
    }
    c.co0 = coTile * tiling_.baseM;
    c.k0 = colTile * tiling_.baseN;
    c.co = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseM, problem_.outChannels - c.co0));
    c.cols = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.baseN, problem_.columns() - c.k0));
    c.firstChunk = segments_[c.segment].firstChunk;
    c.chunks = segments_[c.segment].chunks;
    setSlabChannels(c);
    return c;
}

// The x channels a tile's columns touch, rounded out to slabChannelBlock.
void FilterGradOperands::setSlabChannels(TileCoord& c) const {
    const std::uint64_t taps = problem_.window.taps(), c0 = problem_.slabChannelBlock;
    c.channel0 = c.k0 / taps / c0 * c0;
    c.channels = std::min(problem_.inChannels, roundUp((c.k0 + c.cols - 1) / taps + 1, c0)) - c.channel0;
}

std::uint64_t FilterGradOperands::aRowsOf(std::uint64_t tile) const {
    if (problem_.blockSplit.batchDim != 0) {
        const Segment& seg = segments_[segmentOfTile(tile)];
        return seg.firstTile + (tile - seg.firstTile) % seg.coTiles;
    }
    if (!problem_.coTilesInnermost) return tile / colTiles_;
    return tile / (coTiles_ * colTiles_) * coTiles_ + tile % coTiles_;
}

std::uint64_t FilterGradOperands::bColumnsOf(std::uint64_t tile) const {
    if (problem_.blockSplit.batchDim != 0) {
        const Segment& seg = segments_[segmentOfTile(tile)];
        return tile - (tile - seg.firstTile) % seg.coTiles;
    }
    return problem_.coTilesInnermost ? tile / coTiles_ : tile;
}

std::uint32_t FilterGradOperands::chunkCount(std::uint64_t tile) const {
    return static_cast<std::uint32_t>(coord(tile).chunks);
}

void FilterGradOperands::chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const {
    // chunkStart encodes (image, first position) as a linear position over the batch.
    const Segment& segment = segments_[coord(tile).segment];
    if (problem_.blockSplit.batchDim != 0) {  // the block's images one after another, each its rows
        const std::uint64_t perImage = ceilDiv(segment.positions, std::uint64_t{tiling_.chunkPositions});
        const std::uint64_t offset = c % perImage * tiling_.chunkPositions;
        start = segment.firstPosition + c / perImage * tiling_.outPositions + offset;
        length = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.chunkPositions, segment.positions - offset));
        return;
    }
    if (problem_.tilesPerImage) {
        const std::uint64_t offset = std::uint64_t{c} * tiling_.chunkPositions;
        start = segment.firstPosition + offset;
        length = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.chunkPositions, segment.positions - offset));
        return;
    }
    const std::uint64_t global = segment.firstChunk + c;
    const std::uint64_t perImage = tiling_.chunksPerImage();
    const std::uint64_t image = global / perImage, pos0 = (global % perImage) * tiling_.chunkPositions;
    start = image * tiling_.outPositions + pos0;
    length = static_cast<std::uint32_t>(std::min<std::uint64_t>(tiling_.chunkPositions, tiling_.outPositions - pos0));
}

void FilterGradOperands::loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.inputType), positions = tiling_.outPositions;
    const std::uint64_t image = step.chunkStart / positions, pos0 = step.chunkStart % positions;
    b.copy2d(MemSpace::GM, problem_.dyAddr + ((image * problem_.outChannels + t.co0) * positions + pos0) * eb,
             MemSpace::L1, l1Addr, t.co, static_cast<std::uint32_t>(step.chunkLength * eb), positions * eb,
             tiling_.dyRowStrideBytes, kConvOperandLoad);
}

void FilterGradOperands::loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const ConvWindow& w = problem_.window;
    const std::uint64_t eb = bytesOf(problem_.inputType), positions = tiling_.outPositions;
    const std::uint64_t image = step.chunkStart / positions, pos0 = step.chunkStart % positions;
    const SlabRows rows = slabRowsFor(w, pos0, step.chunkLength);
    b.copy2d(MemSpace::GM, problem_.xAddr + ((image * problem_.inChannels + t.channel0) * w.inH + rows.first) * w.inW * eb,
             MemSpace::L1, l1Addr, static_cast<std::uint32_t>(t.channels),
             static_cast<std::uint32_t>(rows.count * w.inW * eb), w.inH * w.inW * eb, rows.count * w.inW * eb);
}

void FilterGradOperands::loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                                  std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const {
    const TileCoord t = coord(tile);
    const std::uint64_t eb = bytesOf(problem_.inputType);
    const std::uint64_t pos0 = step.chunkStart % tiling_.outPositions;
    if (problem_.blockSplit.batchDim != 0) {
        b.img2col(dyLoad3d(step, l1.a, l0aAddr, t.co));
        mmad.transposeA = true;
    } else {
        b.copy2d(MemSpace::L1, l1.a + step.offset * eb, MemSpace::L0A, l0aAddr, t.co,
                 static_cast<std::uint32_t>(step.length * eb), tiling_.dyRowStrideBytes, step.length * eb);
        mmad.transposeA = false;
    }
    const SlabRows rows = slabRowsFor(problem_.window, pos0, step.chunkLength);
    Img2ColLoad x = img2colFor(problem_.window, rows, static_cast<std::uint32_t>(t.channels), problem_.inputType,
                               l1.b, MemSpace::L0B, l0bAddr, pos0 + step.offset, step.length,
                               static_cast<std::uint32_t>(t.k0 - t.channel0 * problem_.window.taps()), t.cols);
    x.chipDst = MemSpace::L0B;  // the chip's product is the model's: x's img2col is the cube's B (§115)
    b.img2col(x);
    mmad.dtype = problem_.mmadType;
    mmad.transposeB = false;
}

// The fp32 dy's step into L0A as CANN's 220x dw kernel moves it: a Load3D (asc-devkit
// conv3d_bp_filter_sub_func.h LoadL12L0a through load3dA_; ops-nn cycle_calculator.cc GetMte1ACycle,
// "fp32 use load3d", charging kMte1Load3dCost as for B), not a 2-D copy: fp32 has no transposing
// load2d. Its image is the chunk's co rows of positions (a 1 x 1 window over one row of
// dyRowStrideBytes), its product the step's positions x co, i.e. A transposed (docs/fidelity.md §161).
Img2ColLoad FilterGradOperands::dyLoad3d(const CubeStep& step, std::uint64_t l1Addr, std::uint64_t l0aAddr,
                                         std::uint32_t outChannels) const {
    Img2ColLoad l;
    l.srcAddr = l1Addr;
    l.dstAddr = l0aAddr;
    l.dst = MemSpace::L0A;
    l.chipDst = MemSpace::L0A;
    l.channelGroup = 1;  // channel-major: a co row after another
    l.dtype = problem_.inputType;
    l.channels = static_cast<std::uint16_t>(outChannels);
    l.inH = 1;
    l.inW = static_cast<std::uint16_t>(tiling_.dyRowStrideBytes / bytesOf(problem_.inputType));
    l.outW = l.inW;
    l.firstOutPos = static_cast<std::uint32_t>(step.offset);
    l.m = step.length;
    l.firstK = 0;
    l.k = outChannels;
    return l;
}

DataMove FilterGradOperands::storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const {
    const TileCoord t = coord(tile);
    const std::uint64_t outBytes = bytesOf(problem_.outputType);
    DataMove m;
    m.src = MemSpace::L0C;
    m.dst = MemSpace::GM;
    m.srcAddr = l0cAddr;
    m.dstAddr = problem_.dwAddr + (t.co0 * problem_.columns() + t.k0) * outBytes;
    m.burstCount = t.co;
    m.burstBytes = t.cols * static_cast<std::uint32_t>(bytesOf(problem_.accType));
    m.dstGapBytes = static_cast<std::uint32_t>((problem_.columns() - t.cols) * outBytes);
    m.srcType = problem_.accType;
    m.dstType = problem_.outputType;
    m.conversion = LayoutConversion::Nz2Nd;
    m.atomicAdd = problem_.splits > 1;
    m.fixpipeChannelSplit = problem_.storesSplitC0Channels;
    return m;
}

void planFilterGrad(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& p, FilterGradTiling& tiling,
                    CubeBufferPlan& plan) {
    const std::uint64_t eb = bytesOf(p.inputType), taps = p.window.taps();
    tiling.outPositions = p.window.outPositions();
    tiling.baseM = static_cast<std::uint32_t>(std::min<std::uint64_t>(kBaseM, roundUp(p.outChannels, kFractalRows)));
    tiling.baseK = static_cast<std::uint32_t>(std::min<std::uint64_t>(kStepBytesPerRow / eb, roundUp(tiling.outPositions, kFractalRows)));
    tiling.baseN = static_cast<std::uint32_t>(std::min<std::uint64_t>(columnTile(chip, p, tiling), roundUp(p.columns(), kFractalRows)));
    const FilterGradBlockSplit& split = p.blockSplit;
    if (split.batchDim != 0) {  // CANN's L0 block (GetMN0) on the block's share
        tiling.baseM = static_cast<std::uint32_t>(std::min<std::uint64_t>(split.baseM, roundUp(split.coutPerBlock, kFractalRows)));
        tiling.baseN = static_cast<std::uint32_t>(
            std::min<std::uint64_t>(split.baseN, roundUp(split.cinPerBlock * taps, kFractalRows)));
    }
    const std::uint64_t touched = ceilDiv(tiling.baseN, taps) + 1;
    const std::uint64_t slabChannels =
        std::min(p.inChannels, p.slabChannelBlock > 1 ? (ceilDiv(touched, p.slabChannelBlock) + 1) * p.slabChannelBlock : touched);
    auto slotBytes = [&](std::uint64_t positions) {
        return roundUp(tiling.baseM * roundUp(positions * eb, kL1RowAlignBytes), kLocalAlignBytes) +
               roundUp(slabChannels * maxSlabRows(p.window, positions) * p.window.inW * eb, kLocalAlignBytes);
    };
    std::uint64_t positions = std::min<std::uint64_t>(std::uint64_t{kChunkSteps} * tiling.baseK, roundUp(tiling.outPositions, tiling.baseK));
    std::uint64_t slotLimit = chip.bufferCapacity(MemSpace::L1) / 2;
    // CANN's L1 block (FilterGradBlockSplit::l1Positions / l1Buffers): the stem's whole 256-position
    // share in one buffer, where two half-deep chunks loaded the overlapping input rows twice and ran
    // the loads beside the steps the chip runs after them (its step is MTE1 + MTE2, §161).
    const bool cannL1 = split.batchDim != 0 && split.l1Positions != 0;
    if (cannL1) {
        positions = split.l1Positions;
        slotLimit = chip.bufferCapacity(MemSpace::L1) / split.l1Buffers;
    }
    while (positions > tiling.baseK && slotBytes(positions) > slotLimit)
        positions -= tiling.baseK;
    if (slotBytes(positions) > slotLimit)
        throwLoweringError(op, "the x slab of one reduction step does not fit its L1 slot");
    tiling.chunkPositions = static_cast<std::uint32_t>(positions);
    tiling.baseK = static_cast<std::uint32_t>(std::min(positions, std::max<std::uint64_t>(tiling.baseK, stepPositions(chip, p, tiling))));
    if (split.batchDim != 0) tiling.baseK = static_cast<std::uint32_t>(std::min<std::uint64_t>(positions, split.baseK));
    tiling.dyRowStrideBytes = roundUp(positions * eb, kL1RowAlignBytes);

    plan.l1BOffset = roundUp(tiling.baseM * tiling.dyRowStrideBytes, kLocalAlignBytes);
    plan.l1SlotBytes = slotBytes(positions);
    plan.l1BiasAddr = 2 * plan.l1SlotBytes;
    plan.l0aSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseK * eb, kLocalAlignBytes);
    plan.l0bSlotBytes = roundUp(std::uint64_t{tiling.baseK} * tiling.baseN * eb, kLocalAlignBytes);
    plan.l0cSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseN * 4, kLocalAlignBytes);
    plan.l0cSlots = filterGradL0cSlots(chip, plan.l0cSlotBytes);
    if (cannL1 && split.l1Buffers == 1) {
        plan.l1Slots = 1;
        plan.l1BiasAddr = plan.l1SlotBytes;
    }
    planCoupledOutput(chip, plan, tiling.baseM, tiling.baseN, p.outputType, false, p.outputType);
    checkPlanFits(op, chip, plan, 0, 0);
}

namespace {
// Chunks of the largest segment (a split, or its part of an image): what a resident operand's
// region holds for one run of tiles.
std::uint64_t filterGradSegmentChunks(const FilterGradProblem& p, const FilterGradTiling& tiling) {
    if (p.blockSplit.batchDim != 0)
        return p.blockSplit.imagesPerBlock * ceilDiv(p.blockSplit.positionsPerBlock, std::uint64_t{tiling.chunkPositions});
    const std::uint64_t splitChunks = ceilDiv(p.batch * tiling.chunksPerImage(), p.splits);
    return p.tilesPerImage ? std::min(splitChunks, tiling.chunksPerImage()) : splitChunks;
}
}  // namespace

void planResidentDy(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& p,
                    const FilterGradTiling& tiling, CubeBufferPlan& plan) {
    const std::uint64_t colTiles = ceilDiv(p.columns(), tiling.baseN);
    const std::uint64_t coTiles = ceilDiv(p.outChannels, tiling.baseM);
    const std::uint64_t tiles = coTiles * colTiles * p.splits;
    if (colTiles < 2 || !blocksRunSeveralTiles(op, chip, tiles)) return;
    // The resident region holds one dy row set (segment, co-tile) at a time, reloaded when a block's
    // tiles move to the next.
    const std::uint64_t dyChunkBytes = plan.l1BOffset;
    const std::uint64_t slabSlotBytes = plan.l1SlotBytes - plan.l1BOffset;
    const std::uint64_t residentBytes = filterGradSegmentChunks(p, tiling) * dyChunkBytes;
    if (2 * slabSlotBytes + residentBytes > chip.bufferCapacity(MemSpace::L1)) return;
    plan.placeResidentA(slabSlotBytes, dyChunkBytes, residentBytes);
    checkPlanFits(op, chip, plan, 0, 0);
}

void planResidentX(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& p,
                   const FilterGradTiling& tiling, CubeBufferPlan& plan) {
    const bool blockSplit = p.blockSplit.batchDim != 0;
    const std::uint64_t colTiles = ceilDiv(blockSplit ? p.blockSplit.cinPerBlock * p.window.taps() : p.columns(), tiling.baseN);
    const std::uint64_t coTiles = ceilDiv(blockSplit ? p.blockSplit.coutPerBlock : p.outChannels, tiling.baseM);
    const std::uint64_t segments = blockSplit ? std::uint64_t{p.blockSplit.blocks()} * p.blockSplit.imagesPerBlock : p.splits;
    if (coTiles < 2 || !blocksRunSeveralTiles(op, chip, coTiles * colTiles * segments)) return;
    const std::uint64_t dyChunkBytes = plan.l1BOffset;
    const std::uint64_t slabBytes = plan.l1SlotBytes - plan.l1BOffset;
    const std::uint64_t residentBytes = filterGradSegmentChunks(p, tiling) * slabBytes;
    // Two regions when they fit: the next column tile's band loads while the last co tile of this
    // one computes (CANN's BL1 ping-pong, bl1Pbuffer 2, holding a column tile's K over the two
    // buffers). One region stalls every column tile on its band: on the AlexNet 910B2 dw rows
    // 1.07 / 1.07 / 0.93 / 1.03x of the chip with two, 1.10 / 1.10 / 0.94 / 1.10x with one, where
    // the chip hides its MTE2 (0.42-0.58 of the time) under MAC 0.66-0.83 (docs/fidelity.md §136g).
    const std::uint64_t l1 = chip.bufferCapacity(MemSpace::L1);
    for (std::uint32_t regions = 2; regions >= 1; --regions) {
        if (2 * dyChunkBytes + regions * residentBytes > l1) continue;
        plan.placeResidentBRuns(dyChunkBytes, slabBytes, residentBytes, regions);
        checkPlanFits(op, chip, plan, 0, 0);
        return;
    }
}

}  // namespace ascendsim
