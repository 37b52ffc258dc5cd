// NLLLoss and NLLLossGrad (docs/op-catalog.md, "Ops of the CNN training samples"), x [N, C] of
// log-probabilities, target [N] class ids, weight [C]:
//   NLLLoss: y = −Σ_n w[t_n]·x[n, t_n], total_weight = Σ_n w[t_n]. Blocks take ranges of samples;
//     per tile MTE2 brings the targets, the scalar unit reads each one, MTE2 gathers x[n, t_n] and
//     w[t_n] one element each (indexed moves), the vector unit multiplies and sums, and MTE3
//     adds the two partial sums atomically into y and total_weight (CANN zeroes them with the
//     MemSet launched before). The mean's final division of the two sums (one scalar step after
//     every block) is not modelled: y holds the weighted sum, as reduction "sum".
//   NLLLossGrad: dx[n, c] = c == t_n ? −w[t_n]·dy / total_weight : 0. Rows over blocks; per tile
//     the rows are zeroed in UB, the targets and w[t_n] come in as above, the vector unit forms the
//     n values and MTE3 writes the rows, then each value into its row's t_n (indexed moves).
#include <algorithm>
#include <bit>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint64_t kSamplesPerTile = 1024;  // assumed: targets of a tile in one 4-8 KiB load

struct NllLayout {
    bool grad = false;
    std::uint64_t samples = 0, classes = 0, indexBytes = 4, rowsPerTile = 0;
    std::uint64_t x = 0, target = 0, weight = 0, dy = 0, totalWeight = 0, y = 0, outTotal = 0, dx = 0;
    // Per-tile buffers, region `half` at + half·region (double-buffered); scalars once per block.
    std::uint64_t targets = 0, picked = 0, weights = 0, scratch = 0, rows = 0, region = 0, scalars = 0;
    std::uint64_t units() const { return ceilDiv(samples, rowsPerTile); }
};

Instruction scalarToGm(std::uint64_t ub, std::uint64_t gm, bool atomicAdd) {
    DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = kF32, .dstType = kF32};
    m.srcAddr = ub;
    m.dstAddr = gm;
    m.burstBytes = 4;
    m.atomicAdd = atomicAdd;
    return Instruction::move(m);
}

class NllTiles final : public TileSource {
public:
    NllTiles(std::shared_ptr<const NllLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    void setup(TileCode& code) override {
        if (!l_->grad) return;
        code.load.push_back(moveRowsToUb(l_->dy, l_->scalars, 1, 4, 4));
        code.load.push_back(moveRowsToUb(l_->totalWeight, l_->scalars + kUbBlockBytes, 1, 4, 4));
        emitVectorRange(code.compute, VectorOp::Div, kF32, {.dst = l_->scalars, .src0 = l_->scalars, .src1 = l_->scalars + kUbBlockBytes}, 1);
        emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = l_->scalars, .src0 = l_->scalars}, 1, -1.0f);  // −dy / total_weight
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        NllLayout l = *l_;
        for (std::uint64_t* at : {&l.targets, &l.picked, &l.weights, &l.scratch, &l.rows}) *at += half * l.region;
        const std::uint64_t first = (units_.begin + index) * l.rowsPerTile, n = std::min(l.rowsPerTile, l.samples - first);
        code.load.push_back(moveRowsToUb(l.target + first * l.indexBytes, l.targets, 1, n * l.indexBytes, n * l.indexBytes));
        code.load.push_back(scalarIndexReads(n, l.indexBytes));
        for (std::uint64_t s = 0; s < n; ++s) {
            const std::uint64_t idx = l.targets + s * l.indexBytes;
            code.load.push_back(indexedRowMove({.toUb = true, .dtype = kF32, .gm = l.weight, .ub = l.weights + s * kUbBlockBytes,
                                                .rowBytes = 4, .indexAddr = idx, .indexBytes = l.indexBytes, .rows = l.classes}));
            if (!l.grad)
                code.load.push_back(indexedRowMove({.toUb = true, .dtype = kF32, .gm = l.x + (first + s) * l.classes * 4,
                                                    .ub = l.picked + s * kUbBlockBytes, .rowBytes = 4, .indexAddr = idx,
                                                    .indexBytes = l.indexBytes, .rows = l.classes}));
        }
        if (!l.grad) {
            // The gathered values sit in lane 0 of one 32 B block each: products and weights go to
            // lane 0 of zeroed blocks, then halving Adds over whole blocks leave the sums in block 0.
            const std::uint64_t padded = std::bit_ceil(n), lanes = elementsPerBlock(kF32);
            const std::uint64_t products = l.scratch, weights = l.scratch + padded * kUbBlockBytes;
            emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = products}, 2 * padded * lanes, 0.0f);
            for (std::uint64_t s = 0; s < n; ++s) {
                const std::uint64_t at = s * kUbBlockBytes;
                emitVectorRange(code.compute, VectorOp::Mul, kF32, {.dst = products + at, .src0 = l.picked + at, .src1 = l.weights + at}, 1);
                emitVectorRange(code.compute, VectorOp::Copy, kF32, {.dst = weights + at, .src0 = l.weights + at}, 1);
            }
            for (std::uint64_t h = padded / 2; h >= 1; h /= 2)
                for (const std::uint64_t base : {products, weights})
                    emitVectorRange(code.compute, VectorOp::Add, kF32, {.dst = base, .src0 = base, .src1 = base + h * kUbBlockBytes}, h * lanes);
            emitVectorRange(code.compute, VectorOp::Muls, kF32, {.dst = products, .src0 = products}, 1, -1.0f);
            code.store.push_back(scalarToGm(products, l.y, true));
            code.store.push_back(scalarToGm(weights, l.outTotal, true));
            return;
        }
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.rows}, n * l.classes, 0.0f);
        for (std::uint64_t s = 0; s < n; ++s)
            emitVectorRange(code.compute, VectorOp::Mul, kF32,
                            {.dst = l.weights + s * kUbBlockBytes, .src0 = l.weights + s * kUbBlockBytes, .src1 = l.scalars}, 1);
        code.store.push_back(moveRowsToGm(l.rows, l.dx + first * l.classes * 4, 1, n * l.classes * 4, n * l.classes * 4));
        for (std::uint64_t s = 0; s < n; ++s)
            code.store.push_back(indexedRowMove({.toUb = false, .dtype = kF32, .gm = l.dx + (first + s) * l.classes * 4,
                                                 .ub = l.weights + s * kUbBlockBytes, .rowBytes = 4,
                                                 .indexAddr = l.targets + s * l.indexBytes, .indexBytes = l.indexBytes,
                                                 .rows = l.classes}));
    }

private:
    std::shared_ptr<const NllLayout> l_;
    UnitRange units_;
};

std::vector<LoweredKernel> lowerNll(const OpInstance& op, const ChipConfig& chip, bool grad) {
    // NLLLoss: x, target, weight → y, total_weight. NLLLossGrad: x, dy, target, weight, total_weight → dx.
    requireOperands(op, grad ? 5 : 3, grad ? 1 : 2);
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& target = op.inputs[grad ? 2 : 1];
    const TensorInfo& weight = op.inputs[grad ? 3 : 2];
    if (x.shape.size() != 2 || x.dtype != kF32) throwLoweringError(op, "x must be fp32 [N, C]");
    if (target.dtype != DataType::Int32 && target.dtype != DataType::Int64) throwLoweringError(op, "target must be int32 or int64");
    if (target.elementCount() != x.shape[0] || weight.elementCount() != x.shape[1] || weight.dtype != kF32)
        throwLoweringError(op, "target must be [N] and weight fp32 [C]");
    auto l = std::make_shared<NllLayout>();
    l->grad = grad;
    l->samples = static_cast<std::uint64_t>(x.shape[0]);
    l->classes = static_cast<std::uint64_t>(x.shape[1]);
    l->indexBytes = bytesOf(target.dtype);
    l->x = x.deviceAddr;
    l->target = target.deviceAddr;
    l->weight = weight.deviceAddr;
    if (grad) {
        l->dy = op.inputs[1].deviceAddr;
        l->totalWeight = op.inputs[4].deviceAddr;
        l->dx = op.outputs[0].deviceAddr;
    } else {
        l->y = op.outputs[0].deviceAddr;
        l->outTotal = op.outputs[1].deviceAddr;
    }
    const VectorPlacement placement = vectorPlacement(chip);
    // Per sample: its target, two gathered blocks, a dense partial; NLLLossGrad also its zeroed row.
    const std::uint64_t perSample = 2 * (l->indexBytes + 6 * kUbBlockBytes + (grad ? l->classes * 4 : 0));
    l->rowsPerTile = std::min<std::uint64_t>({kSamplesPerTile, l->samples, (placement.ubBytes - 8192) / perSample});
    // The 910A's NLLLossGrad is CANN 8.1's TIK kernel (tbe/impl/dynamic/nll_loss_grad.py, read for its
    // structure): its tiling deals the N lines over the cores (core_num, max_line / lower_line lines a
    // core), so [32,1000] runs 32 blocks of one line each (c1e639ee level1: block dim 32), not one
    // block holding every line.
    if (grad && chip.organisation == CoreOrganisation::Coupled) {
        const std::uint32_t blocks = chooseVectorBlockDim(op, placement, op.outputs[0].bytes(), l->samples);
        l->rowsPerTile = std::min<std::uint64_t>(l->rowsPerTile, ceilDiv(l->samples, blocks));
    }
    if (l->rowsPerTile == 0) throwLoweringError(op, "one row of x does not fit in UB");
    UbAllocator ub(placement.ubBytes, op.name);
    l->scalars = ub.allocate(2 * kUbBlockBytes, "dy and total_weight");
    const std::uint64_t start = ub.usedBytes();
    l->targets = ub.allocate(alignUp(l->rowsPerTile * l->indexBytes, kUbBlockBytes), "targets");
    l->weights = ub.allocate(l->rowsPerTile * kUbBlockBytes, "gathered weights");
    l->picked = ub.allocate(l->rowsPerTile * kUbBlockBytes, "gathered x");
    l->scratch = ub.allocate(2 * std::bit_ceil(l->rowsPerTile) * kUbBlockBytes, "products and weights, one per block");
    if (grad) l->rows = ub.allocate(alignUp(l->rowsPerTile * l->classes * 4, kUbBlockBytes), "dx rows");
    l->region = ub.usedBytes() - start;
    ub.allocate(l->region, "second half");
    return {tiledVectorKernel<NllTiles>(op, placement, l, grad ? op.outputs[0].bytes() : target.bytes(), l->units())};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("NLLLoss", [](const OpInstance& op, const ChipConfig& chip) { return lowerNll(op, chip, false); });
ASCENDSIM_REGISTER_KERNEL("NLLLossGrad", [](const OpInstance& op, const ChipConfig& chip) { return lowerNll(op, chip, true); });

}  // namespace ascendsim
