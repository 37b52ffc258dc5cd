#include "models/kernels/layout/transpose_row_blocks.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// A tile's C extent makes the loads' bursts at least this long: the transfer curves were
// measured with 1 KiB bursts (models/timing/transfer_timing.cpp).
constexpr std::uint64_t kMinBurstBytes = 1024;

struct RowBlockLayout {
    RowBlockSwap swap;
    DataType dtype = DataType::Fp16;
    std::uint64_t blockA = 1, blockC = 1;  // tile extent in A rows and C rows
    std::uint64_t buffer = 0, halfBytes = 0, zeros = 0;
    std::uint64_t aIn() const { return swap.aIn != 0 ? swap.aIn : swap.a; }
    std::uint64_t cIn() const { return swap.cIn != 0 ? swap.cIn : swap.c; }
    std::uint64_t aOut() const { return swap.aOut != 0 ? swap.aOut : swap.a; }

    std::uint64_t tilesA() const { return ceilDiv(swap.a, blockA); }
    std::uint64_t tilesC() const { return ceilDiv(swap.c, blockC); }
    std::uint64_t units() const { return swap.batch * tilesA() * tilesC(); }
};

class RowBlockTiles final : public TileSource {
  public:
    RowBlockTiles(std::shared_ptr<const RowBlockLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    bool movesOnly() const override { return true; }

    void setup(TileCode& code) override {
        const RowBlockLayout& l = *l_;
        if (l.aOut() > l.swap.a)
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = l.zeros},
                            l.blockC * (l.aOut() - l.swap.a) * l.swap.rowBytes / bytesOf(l.dtype), 0.0f);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const RowBlockLayout& l = *l_;
        const RowBlockSwap& s = l.swap;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t b = unit / (l.tilesA() * l.tilesC());
        const std::uint64_t a0 = unit / l.tilesC() % l.tilesA() * l.blockA, c0 = unit % l.tilesC() * l.blockC;
        const std::uint64_t rowsA = std::min(l.blockA, s.a - a0), rowsC = std::min(l.blockC, s.c - c0);
        const std::uint64_t ub = l.buffer + half * l.halfBytes;
        DataMove load{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        load.srcAddr = s.x + ((b * l.aIn() + a0) * l.cIn() + c0) * s.rowBytes;
        load.dstAddr = ub;
        load.burstCount = static_cast<std::uint32_t>(rowsA);
        load.burstBytes = static_cast<std::uint32_t>(rowsC * s.rowBytes);
        load.srcGapBytes = static_cast<std::uint32_t>((l.cIn() - rowsC) * s.rowBytes);
        code.load.push_back(Instruction::move(load));
        for (std::uint64_t c = 0; c < rowsC; ++c) {  // column c of the tile: rowsA rows, rowsC apart in UB
            DataMove store{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
            store.srcAddr = ub + c * s.rowBytes;
            store.dstAddr = s.y + ((b * s.c + c0 + c) * l.aOut() + a0) * s.rowBytes;
            store.burstCount = static_cast<std::uint32_t>(rowsA);
            store.burstBytes = static_cast<std::uint32_t>(s.rowBytes);
            store.srcGapBytes = static_cast<std::uint32_t>((rowsC - 1) * s.rowBytes);
            code.store.push_back(Instruction::move(store));
        }
        if (a0 + rowsA == s.a && l.aOut() > s.a) {  // the padding rows after each column: one move
            const std::uint64_t padBytes = (l.aOut() - s.a) * s.rowBytes;
            DataMove pad{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
            pad.srcAddr = l.zeros;
            pad.dstAddr = s.y + ((b * s.c + c0) * l.aOut() + s.a) * s.rowBytes;
            pad.burstCount = static_cast<std::uint32_t>(rowsC);
            pad.burstBytes = static_cast<std::uint32_t>(padBytes);
            pad.dstGapBytes = static_cast<std::uint32_t>(l.aOut() * s.rowBytes - padBytes);
            code.store.push_back(Instruction::move(pad));
        }
    }

  private:
    std::shared_ptr<const RowBlockLayout> l_;
    UnitRange units_;
};

}  // namespace

std::optional<LoweredKernel> lowerRowBlockSwap(const OpInstance& op, const ChipConfig& chip,
                                               const RowBlockSwap& swap, std::uint64_t workspaceBytes) {
    if (swap.rowBytes == 0 || swap.rowBytes % kUbBlockBytes != 0 || swap.rowBytes >= chip.l2.lineBytes)
        return std::nullopt;
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    auto l = std::make_shared<RowBlockLayout>();
    l->swap = swap;
    l->dtype = op.inputs[0].dtype;
    // The padding rows of a tile's columns, zeroed once; half the rest of the UB per ping-pong
    // half (one buffer: MTE3 stores what MTE2 loaded).
    l->blockC = std::min(swap.c, ceilDiv(kMinBurstBytes, swap.rowBytes));
    const std::uint64_t zeroBytes = alignUp(l->blockC * (l->aOut() - swap.a) * swap.rowBytes, kUbBlockBytes);
    if (zeroBytes != 0) l->zeros = ub.allocate(zeroBytes, "zero rows");
    const std::uint64_t half = (placement.ubBytes - zeroBytes - kUbBlockBytes) / 2 / kUbBlockBytes * kUbBlockBytes;
    // As many A rows as half the UB holds, spread evenly over the tiles (no short last tile).
    const std::uint64_t mostA = std::min(swap.a, std::max<std::uint64_t>(1, half / (l->blockC * swap.rowBytes)));
    l->blockA = ceilDiv(swap.a, ceilDiv(swap.a, mostA));
    l->halfBytes = alignUp(l->blockA * l->blockC * swap.rowBytes, kUbBlockBytes);
    l->buffer = ub.allocate(2 * l->halfBytes, "row-block tile");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, 2 * op.inputs[0].bytes(), l->units());
    kernel.workspaceBytes = workspaceBytes;
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const RowBlockLayout> shared = l;
    kernel.program = [shared, blockDim](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        std::shared_ptr<const RowBlockLayout> layout = shared;
        if (shared->swap.xInWorkspace || shared->swap.yInWorkspace) {
            auto placed = std::make_shared<RowBlockLayout>(*shared);
            if (placed->swap.xInWorkspace) placed->swap.x += request.workspaceAddr;
            if (placed->swap.yInWorkspace) placed->swap.y += request.workspaceAddr;
            layout = std::move(placed);
        }
        return std::make_unique<DoubleBufferedStream>(
            std::make_unique<RowBlockTiles>(layout, blockShare(layout->units(), blockDim, request.blockIdx)));
    };
    return kernel;
}

}  // namespace ascendsim
