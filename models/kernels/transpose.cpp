// Transpose (docs/op-catalog.md). After merging input dims that stay adjacent and in order, two
// forms are modelled (others are a LoweringError):
// - the last dim stays last: output rows are input rows in another order, moved by strided MTE2
//   bursts (one DataMove per run of rows along the innermost output row dim) and a UB copy;
// - batched 2-D transpose [B, M, N] → [B, N, M]: 64×64 tiles are loaded with strided bursts,
//   transposed in UB by a Gather through an offset table built once per block, and stored with
//   strided bursts.
#include <algorithm>
#include <memory>

#include "models/kernels/transpose.h"

#include "models/kernels/elementwise_broadcast.h"
#include "models/kernels/transpose_offsets.h"
#include "models/kernels/vector_tiling.h"
#include "models/kernels/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kTransposeTile = 64;  // rows and columns of one 2-D tile

struct TransposeLayout {
    bool rowsOnly = false;
    DataType dtype = DataType::Fp16;
    std::uint64_t x = 0, y = 0, eb = 2;
    // rows form: output rows over outDims (all but the last), each `length` elements.
    std::vector<std::int64_t> outDims, inRowStrides;  // stride (in rows of the input) per out dim
    std::uint64_t length = 0, rows = 0, rowsPerTile = 0, pitch = 0;
    // 2-D form
    std::uint64_t batch = 0, m = 0, n = 0, tilePitch = 0;  // tilePitch: UB row pitch of both tiles
    std::uint64_t inBuf = 0, inStride = 0, outBuf = 0, outStride = 0, table = 0, ramp = 0, quotient = 0;

    std::uint64_t tilesM() const { return ceilDiv(m, kTransposeTile); }
    std::uint64_t tilesN() const { return ceilDiv(n, kTransposeTile); }
    std::uint64_t units() const { return rowsOnly ? rows : batch * tilesM() * tilesN(); }
};

class TransposeTiles final : public TileSource {
public:
    TransposeTiles(std::shared_ptr<const TransposeLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override {
        return l_->rowsOnly ? ceilDiv(units_.size(), l_->rowsPerTile) : units_.size();
    }

    void setup(TileCode& code) override {
        if (l_->rowsOnly) return;
        const TransposeLayout& l = *l_;
        // Gather offsets of the P×P tile transpose (P = tilePitch).
        emitTransposeOffsets(code.compute, l.table, l.ramp, l.quotient, l.tilePitch * l.tilePitch, l.tilePitch,
                             l.tilePitch, l.eb);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        if (l_->rowsOnly) rowsTile(index, half, code);
        else transposeTile(index, half, code);
    }

private:
    void rowsTile(std::uint64_t index, std::uint32_t half, TileCode& code) {
        const TransposeLayout& l = *l_;
        const std::uint64_t first = units_.begin + index * l.rowsPerTile;
        const std::uint64_t rows = std::min(l.rowsPerTile, units_.end - first);
        const std::uint64_t rowBytes = l.length * l.eb, in = l.inBuf + half * l.inStride;
        const std::int64_t innermost = l.outDims.back();
        for (std::uint64_t k = 0; k < rows;) {
            std::uint64_t rest = first + k, inRow = 0;
            for (std::size_t d = l.outDims.size(); d-- > 0;) {
                inRow += rest % static_cast<std::uint64_t>(l.outDims[d]) * static_cast<std::uint64_t>(l.inRowStrides[d]);
                rest /= static_cast<std::uint64_t>(l.outDims[d]);
            }
            const std::uint64_t run = std::min(rows - k, static_cast<std::uint64_t>(innermost) - (first + k) % static_cast<std::uint64_t>(innermost));
            DataMove m{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = l.x + inRow * rowBytes;
            m.dstAddr = in + k * l.pitch * l.eb;
            m.burstCount = static_cast<std::uint32_t>(run);
            m.burstBytes = static_cast<std::uint32_t>(rowBytes);
            m.srcGapBytes = static_cast<std::uint32_t>((static_cast<std::uint64_t>(l.inRowStrides.back()) - 1) * rowBytes);
            m.dstGapBytes = static_cast<std::uint32_t>((l.pitch - l.length) * l.eb);
            code.load.push_back(Instruction::move(m));
            k += run;
        }
        const std::uint64_t out = l.outBuf + half * l.outStride;
        emitVectorRange(code.compute, VectorOp::Copy, l.dtype, {.dst = out, .src0 = in}, rows * l.pitch);
        code.store.push_back(moveRowsToGm(out, l.y + first * rowBytes, static_cast<std::uint32_t>(rows), rowBytes, l.pitch * l.eb));
        code.scalarCycles = static_cast<std::uint32_t>(rows);
    }

    void transposeTile(std::uint64_t index, std::uint32_t half, TileCode& code) {
        const TransposeLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t b = unit / (l.tilesM() * l.tilesN());
        const std::uint64_t i0 = unit / l.tilesN() % l.tilesM() * kTransposeTile, j0 = unit % l.tilesN() * kTransposeTile;
        const std::uint64_t rows = std::min(kTransposeTile, l.m - i0), cols = std::min(kTransposeTile, l.n - j0);
        const std::uint64_t in = l.inBuf + half * l.inStride, out = l.outBuf + half * l.outStride, p = l.tilePitch;
        DataMove load{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        load.srcAddr = l.x + ((b * l.m + i0) * l.n + j0) * l.eb;
        load.dstAddr = in;
        load.burstCount = static_cast<std::uint32_t>(rows);
        load.burstBytes = static_cast<std::uint32_t>(cols * l.eb);
        load.srcGapBytes = static_cast<std::uint32_t>((l.n - cols) * l.eb);
        load.dstGapBytes = static_cast<std::uint32_t>((p - cols) * l.eb);
        code.load.push_back(Instruction::move(load));
        emitVectorRange(code.compute, VectorOp::Gather, l.dtype, {.dst = out, .src0 = in, .src1 = l.table}, cols * p);
        DataMove store{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
        store.srcAddr = out;
        store.dstAddr = l.y + ((b * l.n + j0) * l.m + i0) * l.eb;
        store.burstCount = static_cast<std::uint32_t>(cols);
        store.burstBytes = static_cast<std::uint32_t>(rows * l.eb);
        store.srcGapBytes = static_cast<std::uint32_t>((p - rows) * l.eb);
        store.dstGapBytes = static_cast<std::uint32_t>((l.m - rows) * l.eb);
        code.store.push_back(Instruction::move(store));
    }

    std::shared_ptr<const TransposeLayout> l_;
    UnitRange units_;
};

std::vector<LoweredKernel> lowerTranspose(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    return lowerPermutation(op, chip, op.inputs[0].shape, op.intsAttr("perm", {}));
}

}  // namespace

std::vector<LoweredKernel> lowerPermutation(const OpInstance& op, const ChipConfig& chip,
                                            const std::vector<std::int64_t>& shape,
                                            const std::vector<std::int64_t>& perm, PermutationTarget target) {
    TensorInfo x = op.inputs[0];
    x.shape = shape;
    if (x.elementCount() != op.inputs[0].elementCount() || op.outputs[0].elementCount() != x.elementCount())
        throwLoweringError(op, "input and output element counts differ");
    const auto rank = x.shape.size();
    if (perm.size() != rank) throwLoweringError(op, "attribute perm must list every dim");
    // Merge input dims that stay adjacent and in order; drop size-1 dims.
    std::vector<std::int64_t> kept;  // input dims in output order, size > 1
    for (auto d : perm) {
        if (d < 0 || static_cast<std::size_t>(d) >= rank) throwLoweringError(op, "perm entry out of range");
        if (x.shape[static_cast<std::size_t>(d)] > 1) kept.push_back(d);
    }
    std::vector<std::vector<std::int64_t>> groups;  // runs of consecutive input dims, output order
    for (auto d : kept) {
        if (!groups.empty() && groups.back().back() + 1 == d) groups.back().push_back(d);
        else groups.push_back({d});
    }
    std::vector<std::size_t> order(groups.size());  // input position of each output group
    for (std::size_t g = 0; g < groups.size(); ++g)
        order[g] = static_cast<std::size_t>(std::count_if(groups.begin(), groups.end(), [&](const auto& o) { return o.front() < groups[g].front(); }));
    std::vector<std::int64_t> sizes(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        sizes[g] = 1;
        for (auto d : groups[g]) sizes[g] *= x.shape[static_cast<std::size_t>(d)];
    }
    auto l = std::make_shared<TransposeLayout>();
    l->dtype = x.dtype, l->eb = bytesOf(x.dtype), l->x = x.deviceAddr, l->y = op.outputs[0].deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    const std::size_t count = groups.size();
    if (count <= 1 || order.back() == count - 1) {
        l->rowsOnly = true;
        l->length = count == 0 ? 1 : static_cast<std::uint64_t>(sizes.back());
        std::vector<std::int64_t> inSizes(count);  // group sizes in input order
        for (std::size_t g = 0; g < count; ++g) inSizes[order[g]] = sizes[g];
        for (std::size_t g = 0; g + 1 < count; ++g) {
            std::int64_t stride = 1;  // in input rows
            for (std::size_t k = order[g] + 1; k + 1 < count; ++k) stride *= inSizes[k];
            l->outDims.push_back(sizes[g]);
            l->inRowStrides.push_back(stride);
        }
        if (l->outDims.empty()) l->outDims = {1}, l->inRowStrides = {1};
        l->rows = static_cast<std::uint64_t>(x.elementCount()) / l->length;
        l->pitch = alignUp(l->length, kUbBlockBytes / l->eb);
        const std::uint64_t perRow = 4 * l->pitch * l->eb;
        if (perRow + 64 > placement.ubBytes) throwLoweringError(op, "a row does not fit in UB");
        l->rowsPerTile = std::min<std::uint64_t>((placement.ubBytes - 64) / perRow, l->rows);
        l->inStride = l->outStride = alignUp(l->rowsPerTile * l->pitch * l->eb, kUbBlockBytes);
    } else if (order[count - 1] == count - 2 && order[count - 2] == count - 1 &&
               std::is_sorted(order.begin(), order.end() - 2)) {
        l->m = static_cast<std::uint64_t>(sizes[count - 1]);  // input rows become output columns
        l->n = static_cast<std::uint64_t>(sizes[count - 2]);
        l->batch = static_cast<std::uint64_t>(x.elementCount()) / (l->m * l->n);
        l->tilePitch = kTransposeTile;
        const std::uint64_t tileBytes = kTransposeTile * kTransposeTile;
        l->table = ub.allocate(tileBytes * 4, "transpose offsets");
        l->ramp = ub.allocate(tileBytes * 4, "index ramp");
        l->quotient = ub.allocate(tileBytes * 4, "index quotient");
        l->inStride = l->outStride = alignUp(tileBytes * l->eb, kUbBlockBytes);
    } else {
        throwLoweringError(op, "this permutation is neither a row reorder nor a batched 2-D transpose");
    }
    l->inBuf = ub.allocate(2 * l->inStride, "input tile");
    l->outBuf = ub.allocate(2 * l->outStride, "output tile");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, 2 * x.bytes(), l->units());
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const TransposeLayout> shared = l;
    if (target == PermutationTarget::Workspace) kernel.workspaceBytes = op.outputs[0].bytes();
    kernel.program = [shared, blockDim, target](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        std::shared_ptr<const TransposeLayout> layout = shared;
        if (target == PermutationTarget::Workspace) {
            auto redirected = std::make_shared<TransposeLayout>(*shared);
            redirected->y = request.workspaceAddr;
            layout = std::move(redirected);
        }
        return std::make_unique<DoubleBufferedStream>(
            std::make_unique<TransposeTiles>(layout, blockShare(layout->units(), blockDim, request.blockIdx)));
    };
    return {kernel};
}

ASCENDSIM_REGISTER_KERNEL("Transpose", lowerTranspose);

}  // namespace ascendsim
