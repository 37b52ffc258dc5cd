// The channel-slab plan of the NCHW batch-norm application kernels (batch_norm_apply.h): for
// planes small enough that one channel's N planes leave most of a tile empty (ResNet's 7×7 and
// 14×14 layers), a tile holds slabImages images × slabChannels channels × H·W (each image's slab
// is contiguous in GM), and each per-channel coefficient is expanded once per block into a
// coefficient tile of the slab's shape by a Gather, so the apply is one vector op per step over
// the whole slab instead of a broadcast and a fixed set of instructions per channel.
#include <algorithm>

#include "models/kernels/normalization/batch_norm_apply.h"
#include "models/kernels/normalization/channel_vector_ops.h"

namespace ascendsim {

namespace {

// Bank slots of the expanded coefficients, so that every apply step reads its two streamed
// operands from opposite bank-group halves and writes a third bank (see BnSlabTiles::tile).
constexpr std::array<std::uint32_t, 2> kAffineCoefSlots = {1, 3};               // a, b
constexpr std::array<std::uint32_t, 4> kReduceGradCoefSlots = {1, 3, 0, 2};     // mean, q, p, r

class BnSlabTiles final : public TileSource {
public:
    BnSlabTiles(std::shared_ptr<const BnApplyLayout> layout, UnitRange units)
        : l_(std::move(layout)), units_(units), groups_(groupsTouched(units, l_->imageBatches())) {}
    std::uint64_t tileCount() const override { return units_.size(); }

    // Coefficients of the block's channels, then each expanded: a Gather through a table whose
    // entry m is the byte offset of channel floor(m / H·W) writes a group's [channels × H·W]
    // coefficient tile, copied (doubling) over the slab's images.
    void setup(TileCode& code) override {
        const BnApplyLayout& l = *l_;
        if (groups_.count == 0) return;
        const std::uint64_t firstChannel = groups_.first * l.slabChannels;
        emitBnCoefficients(l, firstChannel,
                           std::min(l.c, firstChannel + groups_.count * l.slabChannels) - firstChannel, code);
        std::vector<Instruction>& v = code.compute;
        const std::uint64_t groupElements = l.slabChannels * l.planeElements;
        // The table lives in the fp32 tile t, its scratch in tile a and in coefficient tiles until
        // the Gathers (slots 2, 0, 1 and 3): all are vector-only buffers and V runs setup before
        // any tile.
        emitChannelOffsetTable(v, l.t, l.coefTile(0, 0), l.coefTile(1, 0), l.a, groupElements, l.planeElements);
        for (std::uint64_t k = 0; k < l.coefCount(); ++k) {
            for (std::uint64_t group = 0; group < groups_.count; ++group) {
                const std::uint64_t tile = l.coefTile(k, group);
                emitVectorRange(v, VectorOp::Gather, DataType::Fp32,
                                {.dst = tile, .src0 = l.coef(k) + group * l.slabChannels * 4, .src1 = l.t},
                                groupElements);
                for (std::uint64_t filled = 1; filled < l.slabImages; filled *= 2)
                    emitVectorRange(v, VectorOp::Copy, DataType::Fp32,
                                    {.dst = tile + filled * groupElements * 4, .src0 = tile},
                                    std::min(filled, l.slabImages - filled) * groupElements);
            }
        }
    }

    // Coefficient tiles on kAffineCoefSlots / kReduceGradCoefSlots (emitBnApply: the other
    // slots). Slabs and their coefficient tiles share offsets, so every step keeps its operands'
    // slots throughout.
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const BnApplyLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t group = unit / l.imageBatches(), firstImage = unit % l.imageBatches() * l.slabImages;
        const std::uint64_t channels = std::min(l.slabChannels, l.c - group * l.slabChannels);
        BnTileRows rows;
        rows.gmElement = (firstImage * l.c + group * l.slabChannels) * l.planeElements;
        rows.rows = std::min(l.slabImages, l.n - firstImage);
        rows.rowElements = channels * l.planeElements;
        rows.ubPitchElements = l.slabChannels * l.planeElements;
        // Steps run over whole repeats (the slab buffers are sized for it): a masked tail would
        // cost one more instruction per step for a few elements that are never stored.
        rows.count = alignUp((rows.rows - 1) * rows.ubPitchElements + rows.rowElements, elementsPerRepeat(DataType::Fp32));
        const std::uint64_t x = emitBnLoad(l, rows, l.x, l.xStage, l.a, half, code);
        emitBnApply(l, rows, x, half, [&](VectorOp op, std::uint64_t dst, std::uint64_t src, std::uint64_t k) {
            emitVectorRange(code.compute, op, DataType::Fp32,
                            {.dst = dst, .src0 = src, .src1 = l.coefTile(k, group - groups_.first)}, rows.count);
        }, code);
    }

private:
    std::shared_ptr<const BnApplyLayout> l_;
    UnitRange units_;
    GroupSpan groups_;
};

// UB for slabs of l.slabImages × l.slabChannels and `groups` channel groups' coefficient tiles.
bool layOutSlabs(BnApplyLayout& l, const ChipConfig& chip, std::uint64_t ubBytes, std::uint64_t groups) {
    BankSlotAllocator ub(chip);
    const bool reduceGrad = l.kind == BnApplyKind::ReduceGrad;
    const std::uint64_t elements = alignUp(l.slabElements(), elementsPerRepeat(DataType::Fp32));
    const std::uint64_t f32Bytes = elements * 4;
    const bool cast = l.inType != DataType::Fp32;
    l.channelsPerBlock = groups * l.slabChannels;
    l.halfGroupBytes = ub.halfGroupBytes();
    l.stageStride = ub.slotStride(alignUp(elements * bytesOf(l.inType), kUbBlockBytes));
    l.xStage = ub.allocate(2 * l.stageStride, castStageSlot(0, cast));  // x slabs
    if (reduceGrad) l.dyStage = ub.allocate(2 * l.stageStride, castStageSlot(1, cast));  // dy slabs
    l.outStride = ub.slotStride(alignUp(elements * bytesOf(l.outType), kUbBlockBytes));
    l.outStage = ub.allocate(2 * l.outStride, reduceGrad ? 5 : 4);  // output slabs
    l.a = ub.allocate(f32Bytes, 0);  // fp32 slab
    l.b = reduceGrad ? ub.allocate(f32Bytes, 1) : 0;  // fp32 slab
    l.t = ub.allocate(f32Bytes, 2);  // fp32 slab
    l.w = reduceGrad ? ub.allocate(f32Bytes, 3) : 0;  // fp32 slab
    l.paramStage = ub.allocate(l.params.size() * l.stride(), 4);  // channel parameters as loaded
    l.paramBuffer = ub.allocate((l.params.size() + 1) * l.stride(), 0);  // channel parameters
    l.coefBuffer = ub.allocate(l.coefCount() * l.stride(), 2);  // channel coefficients
    l.coefTileStride = ub.slotStride(f32Bytes);
    for (std::uint64_t k = 0; k < l.coefCount(); ++k)  // expanded coefficients
        l.coefTileBases[k] = ub.allocate(groups * l.coefTileStride,
                                         reduceGrad ? kReduceGradCoefSlots[k] : kAffineCoefSlots[k]);
    return ub.fits(ubBytes);
}

// Channel groups the busiest block touches: blocks' shares need not start on a group.
std::uint64_t groupsPerBlock(std::uint64_t units, std::uint32_t blockDim, std::uint64_t unitsPerGroup) {
    std::uint64_t most = 0;
    for (std::uint32_t block = 0; block < blockDim; ++block)
        most = std::max(most, groupsTouched(blockShare(units, blockDim, block), unitsPerGroup).count);
    return most;
}

}  // namespace

std::uint64_t estimatedBlockInstructions(TileSource& block0) {
    TileCode code;
    block0.setup(code);
    std::uint64_t total = code.load.size() + code.compute.size();
    if (block0.tileCount() == 0) return total;
    code.clear();
    block0.tile(0, 0, code);
    // Per tile besides its code: one scalar step and eight flags (vector_tiling_stream.h).
    constexpr std::uint64_t kScalarAndFlagInstructions = 9;
    const std::uint64_t perTile = code.load.size() + code.compute.size() + code.store.size() + kScalarAndFlagInstructions;
    return total + perTile * block0.tileCount();
}

bool planChannelSlabs(BnApplyLayout& l, const OpInstance& op, const ChipConfig& chip, std::uint64_t workBytes,
                      SlabPlan& plan) {
    const VectorPlacement placement = vectorPlacement(chip);
    // Slabs of g channels pack whole 32 B blocks in every dtype (g·H·W·bytes) and a group's
    // coefficients start on a block, as a Gather's base must (g·4 bytes).
    const std::uint64_t narrowest = std::min(bytesOf(l.inType), bytesOf(l.outType));
    std::uint64_t align = elementsPerBlock(DataType::Fp32);
    while (align * l.planeElements * narrowest % kUbBlockBytes != 0) align *= 2;
    std::vector<std::uint64_t> candidates = {alignUp(ceilDiv(l.c, placement.coreCount), align)};
    for (std::uint64_t g = align; g < alignUp(l.c, align); g *= 2) candidates.push_back(g);
    BnApplyLayout best;
    bool found = false;
    auto consider = [&](BnApplyLayout& trial, std::uint64_t usefulBlocks) {
        const std::uint64_t units = trial.channelGroups() * trial.imageBatches();
        const std::uint32_t blockDim = chooseVectorBlockDim(op, placement, workBytes, usefulBlocks);
        const std::uint64_t groups = groupsPerBlock(units, blockDim, trial.imageBatches());
        if (!layOutSlabs(trial, chip, placement.ubBytes, std::max<std::uint64_t>(groups, 1))) return false;
        BnSlabTiles block0(std::make_shared<const BnApplyLayout>(trial), blockShare(units, blockDim, 0));
        const std::uint64_t instructions = estimatedBlockInstructions(block0);
        if (!found || instructions < plan.instructionsPerBlock) {
            plan = {units, blockDim, instructions};
            best = trial;
            found = true;
        }
        return true;
    };
    for (const std::uint64_t g : candidates) {
        BnApplyLayout trial = l;
        trial.slabChannels = std::min(g, alignUp(l.c, align));
        // For each way of splitting the work over blocks, the most images per tile that fit with
        // the busiest block's coefficient tiles: blocks as many as units, or blocks that each take
        // whole channel groups (m blocks per group), so that no block expands two groups.
        for (std::uint64_t blocksPerGroup = 0; blocksPerGroup <= placement.coreCount; ++blocksPerGroup) {
            for (std::uint64_t images = l.n; images > 0; --images) {
                trial.slabImages = images;
                const std::uint64_t groups = trial.channelGroups(), batches = trial.imageBatches();
                if (blocksPerGroup > 0 && (batches % blocksPerGroup != 0 || groups * blocksPerGroup > placement.coreCount))
                    continue;
                if (consider(trial, blocksPerGroup == 0 ? groups * batches : groups * blocksPerGroup)) break;
            }
            if (trial.channelGroups() * blocksPerGroup > placement.coreCount) break;
        }
    }
    if (found) l = best;
    return found;
}

ProgramFactory channelSlabProgram(std::shared_ptr<const BnApplyLayout> l, const SlabPlan& plan) {
    return doubleBufferedBlockShares<BnSlabTiles, BnApplyLayout>(std::move(l), plan.units, plan.blockDim);
}

}  // namespace ascendsim
