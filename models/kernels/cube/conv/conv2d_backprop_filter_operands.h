#pragma once
// Data paths of the filter gradient on the cube:
//   dw[co × (c,kh,kw)] = Σ_images Σ_positions dy[co × pos] · im2col(x)[pos × (c,kh,kw)]
// dy rows are the left operand (GM→L1→L0A), x is an NCHW row slab expanded by Img2ColLoad into
// L0B as [positions × reduction columns] (k×n). The reduction over (image, position) is chunked by
// positions within an image; with `splits` > 1 the chunks are shared out over blocks that
// accumulate into a zeroed fp32 dw with FixPipe atomic adds.
#include <cstdint>
#include <vector>

#include "models/kernels/cube/conv/conv2d_backprop_filter_block_split.h"
#include "models/kernels/cube/conv/conv2d_geometry.h"

namespace ascendsim {

struct FilterGradProblem {
    ConvWindow window;               // the forward convolution
    std::uint64_t batch = 1, inChannels = 0, outChannels = 0;
    DataType inputType = DataType::Fp16, mmadType = DataType::Fp16, accType = DataType::Fp32;
    DataType outputType = DataType::Fp32;
    std::uint64_t xAddr = 0, dyAddr = 0, dwAddr = 0;
    std::uint32_t splits = 1;        // reduction split over blocks (atomic accumulation if > 1)
    // Channels an x slab's range is rounded out to: the C0 block (x5hdChannelBlock) on the coupled 910A,
    // whose TBE dw schedule loads the NC1HWC0 fmap into L1 inside every output tile's loop, and on the
    // split cube's block split, whose BL1 holds whole C1 (§161); 1 on the split cube's other rows,
    // whose dw kernel keeps an n-block's C1 rows in L1 for the following n-blocks (planFilterGrad,
    // docs/fidelity.md §105).
    std::uint64_t slabChannelBlock = 1;
    // The split cube's loop order (CANN's Conv3dDw::Process, ops-nn conv3d_backprop_filter_v2 arch22):
    // a block runs its share of the reduction image by image, each image's positions through every
    // output tile it covers, and adds each tile's partial dw to the output atomically per image
    // (IterateAll(y, 1) inside the batch loop). True: the splits are runs of whole output rows
    // (CANN's ho split, FilterGradOperands::splitByOutputRows) and a split's tiles are (image
    // segment, co-tile, column tile), a segment being the split's rows of one image; false:
    // (co-tile, column tile) over the split's whole chunk range. Only with splits > 1 (atomic stores).
    bool tilesPerImage = false;
    // The split cube's tile order (CANN's ORDER_N, which the 220x dw tiling always sets: ops-nn
    // conv3d_backprop_filter_v2 arch22 InitCalTilingValue iterateOrder = 1; asc-devkit
    // conv3d_bp_filter_func.h Iterate): the co tiles of a column tile run innermost, x's band of
    // the column tile stays in L1 over them and dy is loaded again for every column tile. True:
    // tiles (segment, column tile, co tile), planResidentX; false (the coupled 910A's TBE v100
    // schedule): (segment, co tile, column tile), planResidentDy.
    bool coTilesInnermost = false;
    // CANN's block split of the split cube's fp32 dw (cannFilterGradBlockSplit), when its batchDim is
    // not 0: block b runs its output channels × input channels share of dw in baseM × baseN tiles
    // (column tiles outer, co tiles inner), each tile accumulating all the block's images and output
    // rows in baseK-position steps before its one atomic store; `splits` is then the block count.
    // Off (the whole-output-row shares above): the coupled chips, the 16-bit rows, and launches
    // whose block dim is not the search's.
    FilterGradBlockSplit blockSplit;
    // The tiles' FixPipe stores split each fractal row into C0 vectors (convStoresSplitC0Channels),
    // as asc-devkit's dw kernel stores (conv3d_bp_filter_sub_func.h LoadL0c2Gm isChannelSplit): with
    // the block split, whose one store a tile is what the chip's FixPipe busy shows (§151a, §154, §161).
    bool storesSplitC0Channels = false;
    std::uint64_t columns() const { return inChannels * window.taps(); }
};

struct FilterGradTiling {
    std::uint32_t baseM = 128, baseN = 128, baseK = 64;  // co, reduction columns, positions per step
    std::uint32_t chunkPositions = 256;
    std::uint64_t dyRowStrideBytes = 0;
    std::uint64_t chunksPerImage() const;
    std::uint64_t outPositions = 0;
};

class FilterGradOperands final : public CubeOperands {
public:
    FilterGradOperands(FilterGradProblem problem, FilterGradTiling tiling);

    std::uint64_t tileCount() const override;
    std::uint32_t tileM(std::uint64_t tile) const override { return coord(tile).co; }
    std::uint32_t tileN(std::uint64_t tile) const override { return coord(tile).cols; }
    std::uint32_t chunkCount(std::uint64_t tile) const override;
    void chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const override;
    void loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                  std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const override;
    DataMove storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const override;
    // Tiles of one segment and co tile read the same dy rows.
    std::uint64_t aRowsOf(std::uint64_t tile) const override;
    // Tiles of one segment and column tile read the same x band.
    std::uint64_t bColumnsOf(std::uint64_t tile) const override;
    // Block b of as many blocks as splits runs split b's tiles (their number varies with the images
    // a split touches when tilesPerImage); otherwise equal shares.
    void blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                    std::uint64_t& count) const override;

    std::uint64_t reductionChunks() const { return problem_.batch * tiling_.chunksPerImage(); }

private:
    // A run of the reduction one tile accumulates: a split's whole chunk range, or its output rows
    // of one image (FilterGradProblem::tilesPerImage).
    struct Segment {
        std::uint64_t firstChunk, chunks;
        // With tilesPerImage the segment is a run of output positions (firstChunk unused):
        // image · Ho·Wo + first position, and how many.
        std::uint64_t firstPosition = 0, positions = 0;
        // With a block split: the block's output channels and reduction columns, its co and column
        // tiles, and the segment's first tile (tiles column-tile-major, co tiles innermost).
        std::uint64_t co0 = 0, coCount = 0, col0 = 0, colCount = 0, firstTile = 0;
        std::uint64_t coTiles = 0, colTiles = 0, images = 0;
    };
    struct TileCoord {
        std::uint64_t segment, co0, k0;
        std::uint32_t co, cols;
        std::uint64_t firstChunk, chunks;
        std::uint64_t channel0, channels;  // x channels the column range touches
    };
    TileCoord coord(std::uint64_t tile) const;
    void setSlabChannels(TileCoord& c) const;
    // With a block split: the step's dy rows L1 -> L0A as the chip's Load3D (positions x co).
    Img2ColLoad dyLoad3d(const CubeStep& step, std::uint64_t l1Addr, std::uint64_t l0aAddr,
                         std::uint32_t outChannels) const;
    void splitByOutputRows();  // the segments with tilesPerImage
    void splitByBlocks();      // the segments with a block split
    std::uint64_t segmentOfTile(std::uint64_t tile) const;
    std::uint64_t firstTileOfSegment(std::uint64_t segment) const;

    FilterGradProblem problem_;
    FilterGradTiling tiling_;
    std::uint64_t coTiles_, colTiles_;
    std::vector<Segment> segments_;                  // every split's segments, split by split
    std::vector<std::uint64_t> splitFirstSegment_;  // split s: segments [s], [s + 1])
    std::uint64_t blockSplitTiles_ = 0;              // every block's tiles, with a block split
};

void planFilterGrad(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& problem,
                    FilterGradTiling& tiling, CubeBufferPlan& plan);

// Resident dy (the coupled 910A's TBE v100 schedule, a full load of the left operand): when a block's tiles of one segment and
// co-tile are several column tiles and every dy chunk of the largest segment fits L1 beside two x
// slab slots, the block loads those dy rows once for all its column tiles instead of once per
// tile. `problem.splits` and `problem.tilesPerImage` must be final. Leaves the plan as it is
// otherwise.
void planResidentDy(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& problem,
                    const FilterGradTiling& tiling, CubeBufferPlan& plan);

// Resident x (CANN's ORDER_N, FilterGradProblem::coTilesInnermost): when a block's tiles of one
// segment and column tile are several co tiles and the x band of every chunk of the largest segment
// fits L1 beside two dy chunk slots, the block loads that band once for its co tiles
// (CubeBufferPlan::residentBRuns; two regions, the next column tile's band loading while this one's
// last co tile computes, when they fit); dy is loaded per tile. Leaves the plan as it is otherwise.
void planResidentX(const OpInstance& op, const ChipConfig& chip, const FilterGradProblem& problem,
                   const FilterGradTiling& tiling, CubeBufferPlan& plan);

// True when the split cube's dw kernel keeps one L1 buffer of x: CANN's 220x dw tiling turns the x
// band's double buffer off when two bands beside two dy chunks overflow L1 (asc-devkit
// conv3d_bp_filter_tiling.cpp: UpdateStepMNK's dbL1B, CalBL1Bound's band; docs/fidelity.md §131).
// The AlexNet 910B2 stem's filter gradient (11 × 11 / 4 over 224 × 224) is the one such row: its
// pipes add up (real MTE2 0.370 + MTE1 0.628 of the time) where the other dw rows overlap them.
// The coupled 910A runs TBE v100's dw schedule: false.
bool filterGradXBandSingleBuffered(const ChipConfig& chip, const FilterGradProblem& problem,
                                   const FilterGradTiling& tiling, const CubeBufferPlan& plan);

// A vector kernel that zeroes [addr, addr+bytes) of GM before atomic accumulation (CANN's
// AtomicAddrClean task): Duplicate 0 into UB, then UB→GM bursts over each block's share.
LoweredKernel makeGmZeroFillKernel(const ChipConfig& chip, std::uint64_t addr, std::uint64_t bytes);

}  // namespace ascendsim
