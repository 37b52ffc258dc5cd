// The 910A's fp32 ReduceSumD under TBE's reduce-atomic schedule (the static `ReduceAtomicSchedule`
// of the TBE DSL, read for its structure): on the cloud part, an fp32 sum whose kept axes cannot
// feed the cores is split over the reduced axis instead; every block sums its slice and adds the
// partial result into y with fp32 atomics, after an atomic clean launched before the kernel zeroed
// y. The replay knows which kernels that is (the "atomic_memset" row before them, memset_owner.h).
// Evidence (910A, msinsight c1e639ee level1 rank 0, cycles per block at 1000 MHz):
//   ReduceSumD [32,1000] → [1,1000] (bd 32, after atomic_memset-1_585_0): MTE2 0.089·4790 ≈ 430
//   cycles, MTE3 0.216·4790 ≈ 1035; [32,4096] → [1,4096]: MTE2 ≈ 835, MTE3 ≈ 783 — one row in
//   and one whole row out per block (16 KB each way for [32,4096]), not a 128 B column slice;
//   [32,64,3025] → [64] over N and H·W (after atomic_memset-1_9714_0): one sample per block.
// The kernels without a clean ([32,256,169], [32,384,169], [32,192,729]) split C (reduce_outer_inner).
// A block takes its share of R1; per chunk of c kept values it loads x[n, chunk, :] for each n of
// the share, reduces the rows (R2 > 1) and folds them into an fp32 accumulator, then adds the
// chunk into y with one atomic store. One buffer, as the outer/inner kernel: the rows' MTE2, V
// and scalar ratios add up to a serial schedule ([32,64,3025]: 0.54 + 0.30 + 0.08).
#include "models/kernels/reduction/reduce_atomic.h"

#include <algorithm>
#include <memory>

#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr DataType kAtomicSumType = DataType::Fp32;

struct AtomicReduceLayout {
    bool mean = false;
    std::uint64_t outer = 0, kept = 0, inner = 0;  // R1, A, R2
    std::uint64_t pitch = 0, channelsPerTile = 0;  // UB row pitch (elements), c
    std::uint64_t x = 0, y = 0;
    std::uint64_t stage = 0, accumulator = 0, values = 0, scratch = 0;

    std::uint64_t chunks() const { return ceilDiv(kept, channelsPerTile); }
};

class AtomicReduceTiles final : public TileSource {
public:
    AtomicReduceTiles(std::shared_ptr<const AtomicReduceLayout> layout, UnitRange samples)
        : l_(std::move(layout)), samples_(samples) {}
    std::uint64_t tileCount() const override { return samples_.size() * l_->chunks(); }
    std::uint32_t buffers() const override { return 1; }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        (void)half;  // one buffer
        const AtomicReduceLayout& l = *l_;
        const std::uint64_t n = samples_.begin + index % samples_.size();
        const std::uint64_t c0 = index / samples_.size() * l.channelsPerTile;
        const auto rows = static_cast<std::uint32_t>(std::min(l.channelsPerTile, l.kept - c0));
        const bool first = n == samples_.begin, last = n + 1 == samples_.end;
        const std::uint64_t source = l.x + (n * l.kept + c0) * l.inner * 4;
        std::uint64_t partial = l.stage;
        if (l.inner == 1) {
            code.load.push_back(moveRowsToUb(source, l.stage, 1, rows * 4, rows * 4));
        } else {
            code.load.push_back(moveRowsToUb(source, l.stage, rows, l.inner * 4, l.pitch * 4));
            partial = first ? l.accumulator : l.values;
            emitReduceRows(code.compute, VectorOp::ReduceSum, kAtomicSumType, l.stage, rows, l.inner, l.pitch * 4,
                           l.scratch, partial);
        }
        if (first && partial != l.accumulator)
            emitVectorRange(code.compute, VectorOp::Copy, kAtomicSumType, {.dst = l.accumulator, .src0 = partial}, rows);
        else if (!first)
            emitVectorRange(code.compute, VectorOp::Add, kAtomicSumType,
                            {.dst = l.accumulator, .src0 = l.accumulator, .src1 = partial}, rows);
        code.scalarCycles = l.inner == 1 ? 1 : rows;  // one address per loaded row, as the outer/inner kernel
        if (!last) return;
        if (l.mean)
            emitVectorRange(code.compute, VectorOp::Muls, kAtomicSumType, {.dst = l.accumulator, .src0 = l.accumulator},
                            rows, 1.0f / static_cast<float>(l.outer * l.inner));
        code.store.push_back(Instruction::move({.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = l.accumulator,
                                                .dstAddr = l.y + c0 * 4, .burstBytes = rows * 4,
                                                .srcType = kAtomicSumType, .dstType = kAtomicSumType, .atomicAdd = true}));
    }

private:
    std::shared_ptr<const AtomicReduceLayout> l_;
    UnitRange samples_;
};

}  // namespace

bool reducesIntoAtomicallyCleanedOutput(const OpInstance& op, VectorOp reduceOp) {
    return reduceOp == VectorOp::ReduceSum && op.boolAttr(kAccumulatesAtomicallyAttr, false) &&
           op.inputs.size() == 1 && op.outputs.size() == 1 && op.inputs[0].dtype == kAtomicSumType &&
           op.outputs[0].dtype == kAtomicSumType;
}

std::optional<LoweredKernel> lowerAtomicReduction(const OpInstance& op, const ChipConfig& chip, bool mean,
                                                  std::uint64_t outer, std::uint64_t kept, std::uint64_t inner) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<AtomicReduceLayout>();
    l->mean = mean;
    l->outer = outer, l->kept = kept, l->inner = inner;
    l->x = op.inputs[0].deviceAddr, l->y = op.outputs[0].deviceAddr;
    const std::uint64_t lanes = elementsPerBlock(kAtomicSumType);
    l->pitch = inner == 1 ? 1 : alignUp(inner, lanes);
    // Per kept value: its staged row of R2 (or one element), the row's partials, the accumulator
    // and this sample's value, rounded per 32 B block.
    const std::uint64_t perChannel =
        l->pitch * 4 + (inner == 1 ? 0 : reduceRowsScratchBytes(kAtomicSumType, 2, l->pitch) / 2) + 2 * 4;
    const std::uint64_t budget = placement.ubBytes - 8 * kUbBlockBytes;
    if (perChannel > budget) return std::nullopt;
    std::uint64_t c = std::min<std::uint64_t>(kept, budget / perChannel);
    if (inner > 1) c = std::min<std::uint64_t>(c, kMaxVectorRepeats);
    if (c < kept) c = std::max<std::uint64_t>(lanes, c / lanes * lanes);  // whole 32 B blocks of y per store
    l->channelsPerTile = c;
    UbAllocator ub(placement.ubBytes, op.name);
    l->stage = ub.allocate(alignUp(c * l->pitch * 4, kUbBlockBytes), "input rows");
    l->scratch = inner == 1 ? 0 : ub.allocate(reduceRowsScratchBytes(kAtomicSumType, static_cast<std::uint32_t>(c), l->pitch), "row partials");
    l->values = ub.allocate(alignUp(c * 4, kUbBlockBytes), "this sample's sums");
    l->accumulator = ub.allocate(alignUp(c * 4, kUbBlockBytes), "the block's sums");

    return tiledVectorKernel<AtomicReduceTiles>(op, placement, l, op.inputs[0].bytes(), outer);
}

}  // namespace ascendsim
