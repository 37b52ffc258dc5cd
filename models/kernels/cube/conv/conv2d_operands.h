#pragma once
// Data paths of a forward-style convolution on the cube, per image and group:
//   Y^T[co × pos] = W[co × (c,kh,kw)] · im2col(X)[pos × (c,kh,kw)]^T
// Weights are the left operand (MTE2 GM→L1 rows, MTE1 L1→L0A), the input is loaded as an NCHW
// row slab GM→L1 and expanded by Img2ColLoad straight into L0B (n×k, transposeB), so L0C holds
// output channels × positions and FixPipe writes NCHW rows with plain bursts. Tiles are
// (image, group, co-tile, position-tile), positions fastest; the reduction is chunked by whole
// input channels (c × kh × kw columns per chunk). When a co-tile's weights fit in L1 beside the
// slab slots they stay resident (CubeBufferPlan::residentA) and tiles are ordered (group, co-tile,
// image, position-tile) instead, so a block's consecutive tiles share them, as CANN's conv tiling
// splits cores by output channels and keeps a fully loaded weight operand in L1. Chunks narrower
// than one C0 block of the NC1HWC0 input share that block's slab, loaded once for them, while the
// weight chunks stream through slots of their own (CubeBufferPlan::bChunkSpan; docs/fidelity.md §131).
#include <algorithm>
#include <cstdint>

#include "models/kernels/cube/conv/conv2d_geometry.h"

namespace ascendsim {

// How the weight rows of a chunk reach L1: Conv2D (and the input gradient of kernels larger than
// 1×1, after its weight TransData) reads w[co][c][kh][kw] rows directly; the 1×1 input gradient
// reads w[c_in][c_out] as contiguous [c][co] runs that the cube reads as Aᵀ.
enum class ConvWeightLayout : std::uint8_t { OutputMajor, InputMajorTransposed };

struct ConvProblem {
    ConvWindow window;
    std::uint64_t batch = 1, groups = 1;
    std::uint64_t inChannels = 0;   // per group, of the slab tensor
    // Channels the cube reduces over, per group: inChannels, or (forward Conv2D of a C that is not a
    // multiple of C0) C padded to C1·C0 as the NC1HWC0 input and FRACTAL_Z weights hold it. The
    // padded channels' im2col columns are zeros; the cube and MTE1 still work on them.
    std::uint64_t paddedChannels = 0;
    std::uint64_t outChannels = 0;  // per group
    DataType inputType = DataType::Fp16, mmadType = DataType::Fp16, accType = DataType::Fp32;
    DataType outputType = DataType::Fp16;
    std::uint64_t xAddr = 0, wAddr = 0, yAddr = 0;
    ConvWeightLayout weightLayout = ConvWeightLayout::OutputMajor;
    // The forward conv's tiling (not the input gradient's): a whole output plane may be one position
    // tile when the weights stream through L1 (planConv).
    bool wholePlaneTiles = false;
    // The 910A forward conv's per-image schedule (TBE v100 conv tiling, docs/fidelity.md §63): when a
    // group's weights do not fit L1 beside the input slabs, they are not staged in L1 but moved
    // GM→L0A for every L0 step, a whole output plane is the position tile, and an image's co-tiles
    // share each img2col step in L0B (CubeBufferPlan::aFromGm).
    bool weightsFromGmWhenTheyExceedL1 = false;
    // The 220x input gradient's schedule (CANN's conv3d_backprop_input_v2, docs/fidelity.md §77):
    // position tiles of up to this many positions (its 256-position base block with one L0C
    // buffer; 0 = the default 128), and, for fp32, weights that reach L0 by a transposing Load3Dv2
    // gathering one C0 vector per L1 line (DataMove::gathersC0Vectors).
    std::uint32_t basePositions = 0;
    bool weightLoadsGatherC0Vectors = false;
    // Scalar cycles of each further instruction a step's weight load is issued as (0: one move is
    // one instruction). CANN's 220x fp32 input gradient (ops-nn conv3d_backprop_input_v2 arch22,
    // `LoadToB2Pro`) issues one transposing Load3Dv2 per C0 of the step's K (kRepeat = k / C0),
    // each with its own offset arithmetic; the model moves the step's weights as one move and
    // charges the other k / C0 − 1 issues as scalar work (docs/fidelity.md §122).
    std::uint32_t weightLoadIssueCyclesPerC0 = 0;
    // Input bands deeper than the weight chunks (docs/fidelity.md §135): one L1 load of the
    // position tile's input rows serves up to this many channel chunks (kEveryChunk: the whole
    // reduction) while the weight chunks stream through L1 slots of their own, as far as two such
    // bands and two weight chunks fit L1 (0: only the C0 band of §131). TBE's split-cube forward
    // holds the band of every channel a tile (its AL1 fmap, K whole; BL1 sized apart); CANN's fp32
    // input gradient loads dy (its A1) stepKa deep, a multiple of the weights' stepKb.
    static constexpr std::uint32_t kEveryChunk = ~std::uint32_t{0};
    std::uint32_t inputBandMaxChunks = 0;
    // L0 steps of a weight (pipeline) chunk; 0 = kMaxChunkSteps.
    std::uint32_t weightChunkSteps = 0;
    // The L0 step's depth in reduction elements when the op sets its own (CANN's fp32 input gradient,
    // conv2d_backprop_input_tiling.h); 0: the planner's (l0HalfStepDepth).
    std::uint32_t stepDepth = 0;
    // L0 steps whole C0 blocks deep (8 fp32 elements, the 16 × 8 fp32 fractal) rather than whole
    // 16-element fractals; the same for 16-bit types.
    bool stepsInC0Blocks = false;
    // Output-channel tiles as wide as L0C holds beside the position tile (docs/fidelity.md §142):
    // Co in the fewest equal whole-fractal tiles whose fp32 accumulator fits L0C (one buffer when
    // two do not fit), rather than the MatMul-like 128. TBE's conv tiling sizes its L0C tile
    // toward the square of L0C's fractals (fp32: 128 KiB of 1 KiB fractals, ~11 × 11) and takes a
    // core's whole Co into it when Co is about that wide (ops conv2d_fast_tiling.cc GetL1Tiling).
    bool coTilesFillL0c = false;
    // With one C1 block of input channels (a C = 3 stem), L0 steps one kernel row of C0 blocks deep
    // (kernelW · C0 elements: CANN's L0 K step is a factor of the C1 · kh · kw C0 blocks, conv2d_fast_
    // tiling.cc GetL0ATilingRange, here of the taps alone: 1, 11 or 121 for 11 × 11, and the kernel
    // row's 11 is the one an L0 half holds) and position tiles of as many whole fractals as an L0
    // half holds at that depth, when the default tile does not (docs/fidelity.md §142).
    bool kernelRowStepsForOneC1Block = false;
    // Weight chunks of the fewest whole C0 blocks of channels whose K is a whole number of L0 steps
    // (docs/fidelity.md §156): the K stream steps through the FRACTAL_Z weights' C0 blocks (K order
    // C1 · kh · kw · C0) across channel boundaries without a partial step at a chunk's end, as the
    // chip's ~7 instructions a step over ⌈K / step⌉ steps a tile say (§149a). Not for a one-C1 stem
    // (its kernel-row steps, kernelRowStepsForOneC1Block). Falls back to weightChunkSteps when two
    // such chunks do not fit L1.
    bool weightChunksOfWholeSteps = false;
    // Every block of the launch reads the same weight lines at once, in the same order (each block
    // runs whole images, every co tile of them): the weight chunks' GM reads carry
    // DataMove::linesReadByEveryBlock (shared_line_requests.h).
    bool weightLinesReadByEveryBlock = false;
    // The output's FixPipe stores split each fractal row into C0 vectors (convStoresSplitC0Channels).
    bool storesSplitC0Channels = false;
    // C0 of the output when it lies in GM as NC1HWC0 (kConvOutputC0Attr; 0 = NCHW): the stores keep
    // NCHW addresses and carry the 5HD layout for timing (DataMove::gm5hd).
    std::uint32_t outputC0 = 0;
    std::uint64_t reductionChannels() const { return paddedChannels != 0 ? paddedChannels : inChannels; }
    // The cube's K: reductionChannels · kh · kw.
    std::uint64_t reduction() const { return reductionChannels() * window.taps(); }
    // Elements of one weight row in GM (w[co][c][kh][kw]): the real channels only.
    std::uint64_t weightRowElements() const { return inChannels * window.taps(); }
    // Real (unpadded) channels of the chunk of `channels` channels starting at `first`.
    std::uint64_t realChannels(std::uint64_t first, std::uint64_t channels) const {
        return first >= inChannels ? 0 : std::min(channels, inChannels - first);
    }
};

struct ConvTiling {
    std::uint32_t baseM = 128;   // output channels per tile
    std::uint32_t baseN = 128;   // output positions per tile
    std::uint32_t baseK = 64;
    std::uint32_t chunkChannels = 16;
    std::uint64_t weightRowStrideBytes = 0;  // L1 row pitch of a weight chunk (32 B aligned)
    bool coTileOuter = false;  // tile order (group, co-tile, image, position-tile): resident weights
};

class ConvOperands final : public CubeOperands {
public:
    ConvOperands(ConvProblem problem, ConvTiling tiling);

    std::uint64_t tileCount() const override;
    std::uint32_t tileM(std::uint64_t tile) const override { return coord(tile).co; }
    std::uint32_t tileN(std::uint64_t tile) const override { return coord(tile).positions; }
    std::uint32_t chunkCount(std::uint64_t tile) const override;
    void chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const override;
    void loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override;
    void loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                  std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const override;
    std::uint64_t aRowsOf(std::uint64_t tile) const override;
    std::uint64_t bColumnsOf(std::uint64_t tile) const override;
    void loadStepB(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0bAddr, Mmad& mmad,
                   ProgramBuilder& b) const override;
    void loadStepAFromGm(std::uint64_t tile, const CubeStep& step, std::uint64_t l0aAddr, Mmad& mmad,
                         ProgramBuilder& b) const override;
    DataMove storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const override;

private:
    struct TileCoord {
        std::uint64_t image, group, co0, pos0;
        std::uint32_t co, positions;
    };
    TileCoord coord(std::uint64_t tile) const;
    // An Img2ColLoad that writes rows × columns zeros to L0A (the padded channels' weights).
    Img2ColLoad zeroColumns(std::uint64_t l1Addr, std::uint64_t l0aAddr, std::uint32_t rows, std::uint32_t columns) const;
    // Marks the weight move just appended as a transposing Load3Dv2 when the problem's are.
    void gatherC0VectorsIfTransposing(ProgramBuilder& b) const;
    // The scalar work of issuing a step's weight load as one instruction per C0 of its K
    // (ConvProblem::weightLoadIssueCyclesPerC0): the issues beyond the move's own.
    void issueWeightLoadPerC0(const CubeStep& step, ProgramBuilder& b) const;
    // L1 pitch of one slab channel's run of `co` output columns in a 1×1 input-gradient chunk.
    std::uint64_t transposedRunPitch(std::uint32_t co) const;

    ConvProblem problem_;
    ConvTiling tiling_;
    std::uint64_t coTiles_, posTiles_;
};

// Tiling and buffers for `problem`: base blocks like MatMul, the channel chunk sized so two L1
// slots of (weight chunk + input slab) fit; the weights resident when all chunks of a co-tile fit
// beside two slab slots and a block runs several tiles sharing them; with wholePlaneTiles and
// streamed weights, one position tile per output plane when it fits L0C. Throws LoweringError if
// no chunk fits.
void planConv(const OpInstance& op, const ChipConfig& chip, const ConvProblem& problem, ConvTiling& tiling,
              CubeBufferPlan& plan);

}  // namespace ascendsim
