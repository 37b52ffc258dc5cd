#include "models/kernels/layout/transpose/transpose_row_blocks.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// A tile's C extent makes the loads' bursts at least this long: the transfer curves were
// measured with 1 KiB bursts (models/timing/transfer_timing.cpp).
constexpr std::uint64_t kMinBurstBytes = 1024;
// The rearranging form (RowBlockSwap::rearrangeInUb): one vadds repeat covers 8 blocks (mask 128 fp16,
// 64 fp32: 256 B), one block of each of 8 consecutive rows of the tile's column.
constexpr std::uint32_t kRearrangeBlocksPerRepeat = 8;
// Largest block stride a vector instruction takes (VectorInstr's 8-bit dstBlockStride).
constexpr std::uint64_t kMaxVectorBlockStride = 255;


struct RowBlockLayout {
    RowBlockSwap swap;
    DataType dtype = DataType::Fp16;
    std::uint64_t blockA = 1, blockC = 1;  // tile extent in A rows and C rows
    std::uint64_t buffer = 0, halfBytes = 0, zeros = 0;
    // Rearranging form (RowBlockSwap::rearrangeInUb): the tile's columns after the vector copy, each blockA rows
    // and one spare row apart, in one buffer beside the loaded tile's (TBE's ub_trans).
    bool rearranges = false;
    std::uint64_t trans = 0;
    std::uint64_t columnPitchBytes() const { return (blockA + 1) * swap.rowBytes; }
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
    bool movesOnly() const override { return !l_->rearranges; }
    // TBE's schedule keeps one ub_ori and one ub_trans: a tile's load waits for the previous
    // tile's vadds to have read ub_ori, its vadds for the previous store to have read ub_trans.
    std::uint32_t buffers() const override { return l_->rearranges ? 1 : 2; }

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
        if (l.rearranges) {
            rearrange(rowsA, rowsC, ub, code);
            DataMove store{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
            store.srcAddr = l.trans;
            store.dstAddr = s.y + ((b * s.c + c0) * l.aOut() + a0) * s.rowBytes;
            store.burstCount = static_cast<std::uint32_t>(rowsC);
            store.burstBytes = static_cast<std::uint32_t>(rowsA * s.rowBytes);
            store.srcGapBytes = static_cast<std::uint32_t>(l.columnPitchBytes() - rowsA * s.rowBytes);
            store.dstGapBytes = static_cast<std::uint32_t>((l.aOut() - rowsA) * s.rowBytes);
            code.store.push_back(Instruction::move(store));
        }
        for (std::uint64_t c = 0; c < (l.rearranges ? 0 : rowsC); ++c) {  // column c of the tile: rowsA rows, rowsC apart in UB
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
    // vadds x + 0 from the loaded tile (rowsA rows of rowsC pieces) into the column buffer: an
    // instruction per 8 columns and block of a piece, a repeat per row; each repeat reads 8
    // consecutive blocks of one row and writes them one column pitch apart.
    void rearrange(std::uint64_t rowsA, std::uint64_t rowsC, std::uint64_t ub, TileCode& code) const {
        const RowBlockLayout& l = *l_;
        const std::uint64_t blocksPerPiece = l.swap.rowBytes / kUbBlockBytes;
        const std::uint64_t elementsPerBlock = kUbBlockBytes / bytesOf(l.dtype);
        for (std::uint64_t c = 0; c < rowsC; c += kRearrangeBlocksPerRepeat) {
            const std::uint64_t columns = std::min<std::uint64_t>(kRearrangeBlocksPerRepeat, rowsC - c);
            for (std::uint64_t k = 0; k < blocksPerPiece; ++k) {
                VectorInstr v;
                v.op = VectorOp::Adds;
                v.dtype = l.dtype;
                v.srcType = l.dtype;
                v.src0 = ub + c * l.swap.rowBytes + k * kUbBlockBytes;
                v.dst = l.trans + c * l.columnPitchBytes() + k * kUbBlockBytes;
                v.repeats = static_cast<std::uint16_t>(rowsA);
                v.mask = static_cast<std::uint16_t>(columns * elementsPerBlock);
                v.src0BlockStride = static_cast<std::uint8_t>(blocksPerPiece);
                v.dstBlockStride = static_cast<std::uint8_t>(l.columnPitchBytes() / kUbBlockBytes);
                v.src0RepeatStride = static_cast<std::uint16_t>(rowsC * blocksPerPiece);
                v.dstRepeatStride = static_cast<std::uint16_t>(blocksPerPiece);
                code.compute.push_back(Instruction::vector(v));
            }
        }
    }

    std::shared_ptr<const RowBlockLayout> l_;
    UnitRange units_;
};

}  // namespace

// Whether the chip's CANN kernel rearranges a tile in UB on the vector pipe and stores it with one
// move. The 910A runs TBE's nd_2_nz / nz_2_nd (TIK: a tile of 16-row blocks is loaded into ub_ori,
// vadds x + 0 copies each row's 8 column blocks a repeat into ub_trans, one cube per column with
// a spare block between cubes, and one data_move writes every column's run), and its sample shows
// the vector pipe at work: c1e639ee level1 rank0 ND -> FRACTAL_NZ fp16 [4096,9216] vec 0.128 of
// 139.2 us, [4096,4096] 0.198 of 42.3 us, [1000,4096] 0.221 of 13.0 us: 119-141 B per cycle on
// 30, 32 and 24 blocks, one 256 B repeat a cycle less its start-ups. The 910B2's bf16 conversions
// (ef63bc64 rank 2: [4096,151936] vec 0.034, [4096,1024] 0.038) store each column from the loaded
// tile with a UB source stride instead (DataCopy), the form below without the vector step.
bool fractalNzKernelRearrangesInUb(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

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
    // As many A rows as half the UB holds, spread evenly over the tiles (no short last tile). The
    // rearranging form's halves are the loaded tile and its columns (one spare row each); a column
    // pitch is one vector block stride.
    l->rearranges = swap.rearrangeInUb;
    const std::uint64_t columnBytes = l->blockC * swap.rowBytes;  // one A row of the tile
    const std::uint64_t rowsFitting =
        l->rearranges ? (2 * half - columnBytes) / (2 * columnBytes) : half / columnBytes;
    std::uint64_t mostA = std::min(swap.a, std::max<std::uint64_t>(1, rowsFitting));
    if (l->rearranges) mostA = std::min(mostA, kMaxVectorBlockStride / (swap.rowBytes / kUbBlockBytes) - 1);
    l->blockA = ceilDiv(swap.a, ceilDiv(swap.a, mostA));
    l->halfBytes = alignUp(l->blockA * l->blockC * swap.rowBytes, kUbBlockBytes);
    l->buffer = ub.allocate(l->rearranges ? l->halfBytes : 2 * l->halfBytes, "row-block tile");
    if (l->rearranges) l->trans = ub.allocate(alignUp(l->blockC * l->columnPitchBytes(), kUbBlockBytes), "row-block columns");

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
