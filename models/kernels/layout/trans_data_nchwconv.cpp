// TransData NCHW ↔ NC1HWC0 of 16-bit data by vnchwconv (VectorOp::NchwConv), as CANN's kernels do
// it: a channel block of C0 = 16 channel rows is loaded as 16 rows of H·W elements, and every 16
// columns of it become 16 rows of C0 by one 16 × 16 transpose repeat (512 B per repeat, where a
// Gather moves 256 B in 24 cycles). The way back transposes each 16 H·W positions of C0 into 16
// channel rows. Evidence: the 910A sample's fp16 conversions keep the vector unit 0.05–0.2 busy
// (msinsight c1e639ee level1 rank0, e.g. [32,256,13,13] vec_time 0.43 µs per core for 169 repeats
// of 512 B), which per-repeat Gather cost (vec 0.9–1.0 simulated) cannot give.
//
// Work units: a channel block whose rows fit a tile is one unit, and several of them are packed
// into one tile (contiguous in GM on both sides when C is a multiple of C0); a longer H·W is cut
// into column chunks, one unit each. The planar side's UB row pitch is an odd number of 32 B
// blocks, so the 16 rows one repeat reads fall in 16 different bank groups (hardware.md §2.6).
// A C that is not a multiple of C0 (an image stem's C = 3) loads the real channels of the last
// block and fills the rest with zeros before the transpose, one block per tile.
#include "models/kernels/layout/trans_data_nchwconv.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kC0 = kNchwConvBlocks;  // 16 channels of 16 bits = one 32 B block

struct NchwConvLayout {
    bool toBlocked = true;
    DataType dtype = DataType::Fp16;
    std::uint64_t x = 0, y = 0, eb = 2;
    std::uint64_t channels = 0, c1 = 0, hw = 0, blocks = 0;  // blocks = N·C1
    std::uint64_t maxCols = 0;       // H·W columns of one unit (a multiple of 16)
    std::uint64_t chunks = 1;        // column chunks per channel block
    std::uint64_t packed = 1;        // channel blocks per tile when chunks == 1
    std::uint64_t rowPitchBlocks = 0;  // planar rows in UB, in 32 B blocks (odd)
    std::uint64_t inBuf = 0, outBuf = 0, stride = 0;

    std::uint64_t units() const { return chunks == 1 ? ceilDiv(blocks, packed) : blocks * chunks; }
    std::uint64_t rowPitch() const { return rowPitchBlocks * kUbBlockBytes / eb; }
    std::uint64_t planarBlockBytes() const { return kC0 * rowPitchBlocks * kUbBlockBytes; }
    std::uint64_t blockedBlockBytes() const { return maxCols * kUbBlockBytes; }
};

class NchwConvTiles final : public TileSource {
  public:
    NchwConvTiles(std::shared_ptr<const NchwConvLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const NchwConvLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        std::uint64_t b0 = unit / l.chunks, count = 1, j0 = unit % l.chunks * l.maxCols;
        if (l.chunks == 1) b0 = unit * l.packed, count = std::min(l.packed, l.blocks - b0), j0 = 0;
        const std::uint64_t cols = std::min(l.maxCols, l.hw - j0);
        const std::uint64_t in = l.inBuf + half * l.stride, out = l.outBuf + half * l.stride;
        const std::uint64_t planar = l.toBlocked ? in : out, blocked = l.toBlocked ? out : in;
        const std::uint64_t rowBytes = l.rowPitch() * l.eb, cellBytes = kC0 * l.eb;
        if (l.toBlocked)
            loadPlanar(b0, count, j0, cols, in, code);
        else
            code.load.push_back(Instruction::move(strided(MemSpace::GM, MemSpace::UB, l.x + (b0 * l.hw + j0) * cellBytes, in, count,
                                        cols * cellBytes, (l.hw - cols) * cellBytes, (l.maxCols - cols) * cellBytes)));
        const std::uint64_t repeats = ceilDiv(cols, kC0);
        for (std::uint64_t b = 0; b < count; ++b) {
            for (std::uint64_t r0 = 0; r0 < repeats; r0 += kMaxVectorRepeats) {
                VectorInstr v{.op = VectorOp::NchwConv, .dtype = l.dtype, .srcType = l.dtype};
                v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, repeats - r0));
                const std::uint64_t planarAt = planar + b * l.planarBlockBytes() + r0 * kUbBlockBytes;
                const std::uint64_t blockedAt = blocked + (b * l.maxCols + r0 * kC0) * kUbBlockBytes;
                const auto pitch = static_cast<std::uint8_t>(l.rowPitchBlocks);
                const auto cell = static_cast<std::uint16_t>(kC0);
                if (l.toBlocked)  // source: 16 channel rows; destination: 16 consecutive C0 cells
                    v.src0 = planarAt, v.src0BlockStride = pitch, v.src0RepeatStride = 1, v.dst = blockedAt,
                    v.dstBlockStride = 1, v.dstRepeatStride = cell;
                else
                    v.src0 = blockedAt, v.src0BlockStride = 1, v.src0RepeatStride = cell, v.dst = planarAt,
                    v.dstBlockStride = pitch, v.dstRepeatStride = 1;
                code.compute.push_back(Instruction::vector(v));
            }
        }
        if (l.toBlocked)
            code.store.push_back(Instruction::move(strided(MemSpace::UB, MemSpace::GM, out, l.y + (b0 * l.hw + j0) * cellBytes,
                                                           count, cols * cellBytes, (l.maxCols - cols) * cellBytes,
                                                           (l.hw - cols) * cellBytes)));
        else
            code.store.push_back(Instruction::move(strided(MemSpace::UB, MemSpace::GM, out, l.y + (b0 * kC0 * l.hw + j0) * l.eb,
                                                           kC0 * count, cols * l.eb, rowBytes - cols * l.eb, (l.hw - cols) * l.eb)));
    }

  private:
    DataMove strided(MemSpace from, MemSpace to, std::uint64_t src, std::uint64_t dst, std::uint64_t bursts,
                     std::uint64_t burstBytes, std::uint64_t srcGap, std::uint64_t dstGap) const {
        DataMove m{.src = from, .dst = to, .srcType = l_->dtype, .dstType = l_->dtype};
        m.srcAddr = src, m.dstAddr = dst;
        m.burstCount = static_cast<std::uint32_t>(bursts);
        m.burstBytes = static_cast<std::uint32_t>(burstBytes);
        m.srcGapBytes = static_cast<std::uint32_t>(srcGap);
        m.dstGapBytes = static_cast<std::uint32_t>(dstGap);
        return m;
    }

    // NCHW rows into UB rows of rowPitch: whole blocks at once when C is a multiple of C0 (their
    // rows are contiguous in GM), else the block's real channels and zeros for the rest.
    void loadPlanar(std::uint64_t b0, std::uint64_t count, std::uint64_t j0, std::uint64_t cols, std::uint64_t in,
                    TileCode& code) const {
        const NchwConvLayout& l = *l_;
        const std::uint64_t image = b0 / l.c1, first = b0 % l.c1 * kC0;
        const std::uint64_t rows = l.channels % kC0 == 0 ? kC0 * count : std::min(kC0, l.channels - first);
        const std::uint64_t rowBytes = l.rowPitch() * l.eb;
        code.load.push_back(Instruction::move(strided(MemSpace::GM, MemSpace::UB,
                                                      l.x + ((image * l.channels + first) * l.hw + j0) * l.eb, in, rows,
                                                      cols * l.eb, (l.hw - cols) * l.eb, rowBytes - cols * l.eb)));
        if (rows < kC0)  // the padded channels are zero rows
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = in + rows * rowBytes},
                            (kC0 - rows) * l.rowPitch());
    }

    std::shared_ptr<const NchwConvLayout> l_;
    UnitRange units_;
};

}  // namespace

std::vector<LoweredKernel> lowerNchwConvTransData(const OpInstance& op, const ChipConfig& chip, std::int64_t channels,
                                                  std::int64_t planeElements, bool toBlocked) {
    const TensorInfo& x = op.inputs[0];
    if (bytesOf(x.dtype) != 2) throwLoweringError(op, "vnchwconv moves 16-bit elements only");
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    auto l = std::make_shared<NchwConvLayout>();
    l->toBlocked = toBlocked, l->dtype = x.dtype, l->eb = 2;
    l->x = x.deviceAddr, l->y = op.outputs[0].deviceAddr;
    l->channels = u(channels), l->c1 = ceilDiv(u(channels), kC0), l->hw = u(planeElements);
    const std::uint64_t planar = toBlocked ? x.elementCount() : op.outputs[0].elementCount();
    l->blocks = planar / (l->channels * l->hw) * l->c1;
    if (!toBlocked && l->channels % kC0 != 0)
        throwLoweringError(op, "C = " + std::to_string(channels) + " back from C1·C0 padding (not modelled)");
    const std::uint64_t blockedElements = l->blocks * kC0 * l->hw;
    if ((toBlocked ? op.outputs[0].elementCount() : x.elementCount()) != static_cast<std::int64_t>(blockedElements))
        throwLoweringError(op, "the NC1HWC0 tensor must hold N·C1·H·W·C0 = " + std::to_string(blockedElements) + " elements");

    const VectorPlacement placement = vectorPlacement(chip);
    // Two halves of an input and an output buffer; a planar block of maxCols columns takes
    // 16 rows of (maxCols/16 + 1) blocks at most, and a block stride is an 8-bit field.
    const std::uint64_t half = (placement.ubBytes - kUbBlockBytes) / 4;
    const std::uint64_t fit = half / (kC0 * kUbBlockBytes);  // planar row blocks one block may use
    const std::uint64_t pitchCap = std::min(fit, kMaxRepeatStrideBlocks);
    if (pitchCap < 2) throwLoweringError(op, "UB is too small for a 16-row vnchwconv tile");
    const std::uint64_t maxCols = (pitchCap - 1) * kC0;
    const std::uint64_t colsPadded = alignUp(l->hw, kC0);
    l->maxCols = std::min(maxCols, colsPadded);
    l->chunks = ceilDiv(l->hw, l->maxCols);
    l->rowPitchBlocks = l->maxCols / kC0 | 1;  // odd: 16 rows in 16 bank groups
    if (l->chunks == 1 && l->channels % kC0 == 0) {
        const std::uint64_t perBlock = std::max(l->planarBlockBytes(), l->blockedBlockBytes());
        l->packed = std::max<std::uint64_t>(1, std::min(half / perBlock, ceilDiv(l->blocks, placement.coreCount)));
    }
    UbAllocator ub(placement.ubBytes, op.name);
    l->stride = alignUp(l->packed * std::max(l->planarBlockBytes(), l->blockedBlockBytes()), kUbBlockBytes);
    l->inBuf = ub.allocate(2 * l->stride, "input tile");
    l->outBuf = ub.allocate(2 * l->stride, "output tile");

    return {tiledVectorKernel<NchwConvTiles>(op, placement, l, 2 * x.bytes(), l->units())};
}

}  // namespace ascendsim
