#pragma once
// The NCHW batch-norm application kernels (BNInfer, BNTrainingUpdate, BNTrainingReduceGrad) as a
// CANN kernel author writes them, in one of two tile plans chosen per shape by what fits in UB
// and what issues fewer instructions (planes that are not whole 32 B blocks always take slabs when
// they fit: CANN's DSL moves runs of the fused [N, C, H·W] shape, docs/fidelity.md §87):
// - channel tiles (batch_norm.cpp): a tile holds one channel's planes (or a chunk of one plane),
//   so its coefficients are one value broadcast over the tile; a fixed cost per channel;
// - channel slabs (batch_norm_channel_slabs.cpp): for small planes a tile holds a slab of
//   several channels × H·W of one or more images, and each coefficient is expanded once per block
//   into a tile of the slab's shape, so the apply is one op per step over the whole slab.
// Both compute every coefficient of the block's channels at once in setup
// (emitBnCoefficients).
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "models/isa/instruction.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

enum class BnApplyKind : std::uint8_t { Infer, TrainingUpdate, ReduceGrad };

// Per-channel coefficients, by index into the coefficient buffer.
// Infer/TrainingUpdate: y = x·a + b.  ReduceGrad: dx = (x − mean)·q + dy·p + r.
inline constexpr std::uint64_t kCoefA = 0, kCoefB = 1;
inline constexpr std::uint64_t kCoefMean = 0, kCoefQ = 1, kCoefP = 2, kCoefR = 3;

struct BnApplyLayout {
    BnApplyKind kind = BnApplyKind::Infer;
    std::uint64_t n = 0, c = 0, planeElements = 0;
    float epsilon = 1e-5f, inverseCount = 1.0f;
    DataType inType = DataType::Fp16, outType = DataType::Fp16;
    std::uint64_t x = 0, dy = 0, out = 0;  // GM
    std::vector<std::uint64_t> params;     // GM, per-channel inputs in op order
    std::vector<DataType> paramTypes;      // their dtypes (computed in fp32)
    std::uint64_t channelsPerBlock = 0, halfGroupBytes = 256;

    // Channel tiles: planesPerTile planes (pitch elements apart) or one chunk of a plane.
    std::uint64_t pitch = 0, planesPerTile = 1, chunkElements = 0, chunksPerPlane = 1;
    // Channel slabs: a tile is slabImages images × slabChannels channels × H·W, packed.
    std::uint64_t slabChannels = 0, slabImages = 0;

    // UB
    std::uint64_t xStage = 0, dyStage = 0, stageStride = 0, outStage = 0, outStride = 0;
    std::uint64_t a = 0, b = 0, t = 0, w = 0;  // fp32 tiles on bank slots 0, 1, 2, 3
    std::uint64_t paramStage = 0, paramBuffer = 0, coefBuffer = 0;
    std::uint64_t tables = 0, broadcast = 0;            // channel tiles: broadcast gather
    // Channel slabs: coefficient k of the block's channel group j, expanded to a slab's shape.
    std::array<std::uint64_t, 4> coefTileBases{};
    std::uint64_t coefTileStride = 0;

    std::uint64_t coefCount() const { return kind == BnApplyKind::ReduceGrad ? 4 : 2; }
    std::uint64_t stride() const { return channelsPerBlock * 4; }
    std::uint64_t param(std::size_t k) const { return paramBuffer + k * stride(); }
    std::uint64_t coef(std::uint64_t k) const { return coefBuffer + k * stride(); }
    // Channel tiles
    std::uint64_t tilesPerChannel() const { return ceilDiv(n, planesPerTile) * chunksPerPlane; }
    // Channel slabs: units are (channel group, image batch), group-major.
    std::uint64_t slabElements() const { return slabImages * slabChannels * planeElements; }
    std::uint64_t channelGroups() const { return ceilDiv(c, slabChannels); }
    std::uint64_t imageBatches() const { return ceilDiv(n, slabImages); }
    std::uint64_t coefTile(std::uint64_t k, std::uint64_t group) const {
        return coefTileBases[k] + group * coefTileStride;
    }
};

// Loads channels [first, first + count) of the per-channel inputs, casts them to fp32 and computes
// the coefficients (coefCount() of them, at l.coef(k)) for all of them at once.
void emitBnCoefficients(const BnApplyLayout& l, std::uint64_t first, std::uint64_t count, TileCode& code);

// The units of `units` in groups of `unitsPerGroup` (channels of channel tiles, channel groups of
// slabs): the first group they touch and how many.
struct GroupSpan {
    std::uint64_t first = 0, count = 0;
};
GroupSpan groupsTouched(UnitRange units, std::uint64_t unitsPerGroup);

// The rows a tile moves between GM and UB (rows of x, dy and the output are H·W·C elements apart
// in GM, ubPitchElements in UB) and the elements each of its vector steps covers.
struct BnTileRows {
    std::uint64_t gmElement = 0;  // of the first row
    std::uint64_t rows = 1, rowElements = 0, ubPitchElements = 0;
    std::uint64_t count = 0;
};
// dst = op(src, coefficient k) over the tile.
using BnCoefficientStep = std::function<void(VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t k)>;

// Loads a tile of `gm` (x or dy) into half `half` of `stage` and casts it to fp32 at `f32` unless
// it is fp32 already; returns where its fp32 values are.
std::uint64_t emitBnLoad(const BnApplyLayout& l, const BnTileRows& rows, std::uint64_t gm, std::uint64_t stage,
                         std::uint64_t f32, std::uint32_t half, TileCode& code);
// The rest of a tile after x is loaded at `x`: dy's load (ReduceGrad), the apply steps (bank
// slots: x in fp32 on 0 (a), dy on 1 (b), temporaries on 2 (t) and 3 (w), output staging on 4
// or 5), the cast to the output dtype and the store.
void emitBnApply(const BnApplyLayout& l, const BnTileRows& rows, std::uint64_t x, std::uint32_t half,
                 const BnCoefficientStep& coefStep, TileCode& code);

// The channel-slab plan for `l` (its shape, dtypes and addresses set): chooses slabChannels,
// slabImages and the block count so that UB holds the tiles and the block's coefficient tiles
// with the fewest instructions per block; fills l's UB layout. False if no slab fits.
struct SlabPlan {
    std::uint64_t units = 0;
    std::uint32_t blockDim = 1;
    std::uint64_t instructionsPerBlock = 0;  // an estimate, to compare with the channel-tile plan
};
bool planChannelSlabs(BnApplyLayout& l, const OpInstance& op, const ChipConfig& chip, std::uint64_t workBytes,
                      SlabPlan& plan);
ProgramFactory channelSlabProgram(std::shared_ptr<const BnApplyLayout> l, const SlabPlan& plan);

// Instructions block 0 of a plan issues (the busiest: blockShare gives the first blocks the extra
// units), from its setup and its first tile's code: how a plan is compared with another.
std::uint64_t estimatedBlockInstructions(TileSource& block0);

}  // namespace ascendsim
