// Sort, TopKV2 and TopKD on the vector unit (docs/op-catalog.md, "Sort and TopK"), as CANN's AI
// core kernels do them: one row per tile, sorted whole in UB by region sorts and 4-way merges.
//
// Per row of L elements (padded with −inf to a whole number of regions):
//   MTE2 loads the row; V builds its records (score, index), sorts every region of R records
//   (one repeat each), then merges the sorted lists four at a time until one is left
//   (⌈log4(L/R)⌉ passes, each reading and writing every record); V extracts the first k scores
//   and indices (k = L for Sort) and MTE3 stores them.
// The record and region come from the chip's sort instructions:
//   split chips (Atlas A2, Ascend C Sort32 / MrgSort): R = 32 records of 8 B (fp32 score, uint32
//     index; an fp16 score is cast to fp32 first), the index list built once per block;
//   coupled chips (910A, TBE vrpsort16 / vmrgsort4 on region proposals): R = 16 proposals of
//     8 fp16 = 16 B; the score and the index (two fp16 halves of TopKD's assist tensor, loaded
//     once per block) are written into the proposals by one vconcat each. fp16 only.
// A merge pass costs the sort class per 256 B repeat (hardware.md §2.6: vmrgsort 15.6 B/cycle =
// 16 cycles per repeat, start-up 22), and so does the coupled chips' vrpsort16. The split chips'
// region sort is vbitsort (VectorOp::BitSort), its own class (vector.classes.bitsort: a fixed cost
// per instruction, one a row, docs/fidelity.md §109). Every step reads what the one before it
// wrote, and the vector pipe does not order its own instructions: each is fenced by a
// PipeBarrier<PIPE_V> (CANN's Ascend C TopK and Sort, topk_v220_impl.h; the TIK and DSL kernels'
// compiler-inserted pipe_barrier), which waits out the previous step's result latency. The merge
// is emitted as Sort instructions over the record bytes: its timing is the merge's; the functional
// model's per-repeat sort is not the merge's result (replay and timing only use the former).
#include <algorithm>
#include <limits>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kMergeWays = 4;  // vmrgsort4 / MrgSort: four lists per instruction

struct SortGeometry {
    std::uint64_t regionRecords = 32;  // records one region-sort repeat orders
    std::uint64_t recordBytes = 8;
    DataType scoreType = DataType::Fp32;  // the type the records hold scores in
    std::uint32_t scoreConcats = 0;       // vconcat passes to build proposals (coupled)
    VectorOp regionSort = VectorOp::BitSort;  // Sort32 (vbitsort) on split chips
};

SortGeometry sortGeometry(const OpInstance& op, const ChipConfig& chip, DataType x) {
    if (chip.organisation == CoreOrganisation::Split) return {};
    if (x != DataType::Fp16) throwLoweringError(op, "the coupled core's proposal sort (vrpsort16) takes fp16 scores only");
    return {.regionRecords = 16, .recordBytes = 16, .scoreType = DataType::Fp16, .scoreConcats = 3,
            .regionSort = VectorOp::Sort};
}

struct SortLayout {
    DataType dtype = DataType::Fp32;
    SortGeometry g;
    std::uint64_t length = 0, padded = 0, k = 0;
    std::uint64_t xGm = 0, valuesGm = 0, indicesGm = 0, assistGm = 0, assistBytes = 0;
    std::uint64_t stage = 0, stageHalf = 0, scores = 0, indexList = 0, records[2] = {0, 0}, out = 0, outHalf = 0;
    std::uint32_t mergePasses = 0;
};

class SortTiles final : public TileSource {
public:
    SortTiles(std::shared_ptr<const SortLayout> l, UnitRange rows) : l_(std::move(l)), rows_(rows) {}
    std::uint64_t tileCount() const override { return rows_.size(); }

    void setup(TileCode& code) override {
        const SortLayout& l = *l_;
        if (tileCount() == 0) return;
        if (l.assistBytes > 0) {  // TopKD: the index halves come from the assist tensor
            code.load.push_back(moveRowsToUb(l.assistGm, l.indexList, 1, l.assistBytes, l.assistBytes));
        } else {  // CreateVecIndex: 0..L−1 as uint32, by doubling from one block (log2 steps)
            emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int32, {.dst = l.indexList}, elementsPerBlock(DataType::Int32));
            for (std::uint64_t have = elementsPerBlock(DataType::Int32); have < l.padded; have *= 2)
                emitVectorRange(code.compute, VectorOp::Adds, DataType::Int32, {.dst = l.indexList + have * 4, .src0 = l.indexList},
                                std::min(have, l.padded - have), static_cast<float>(have));
        }
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const SortLayout& l = *l_;
        const std::uint64_t row = rows_.begin + index, eb = bytesOf(l.dtype);
        const std::uint64_t stage = l.stage + half * l.stageHalf;
        code.load.push_back(moveRowsToUb(l.xGm + row * l.length * eb, stage, 1, l.length * eb, l.length * eb));
        auto& c = code.compute;
        const DataType st = l.g.scoreType;
        std::uint64_t scores = stage;
        if (st != l.dtype) {
            emitVectorRange(c, VectorOp::Cast, st, {.dst = l.scores, .src0 = stage}, l.length, 0.0f, l.dtype);
            scores = l.scores;
        }
        if (l.padded > l.length) {  // the tail region's missing scores lose every compare
            // The hardware masks in only the lanes past L; the ISA model's masks start at lane 0,
            // so the model's Duplicate covers the whole last 32 B block (the same one repeat).
            const std::uint64_t from = l.length / elementsPerBlock(st) * elementsPerBlock(st);
            emitVectorRange(c, VectorOp::Duplicate, st, {.dst = scores + from * bytesOf(st)}, l.padded - from,
                            -std::numeric_limits<float>::infinity());
        }
        const std::uint64_t recordWords = l.padded * l.g.recordBytes / 4;  // the records as 32-bit words
        // Proposals (coupled): one vconcat per field writes it into every proposal, one repeat per
        // region of 16 (modelled as a unary pass over the proposals' bytes, 16 per repeat).
        for (std::uint32_t f = 0; f < l.g.scoreConcats; ++f)
            emitVectorRange(c, VectorOp::Copy, DataType::Fp16, {.dst = l.records[0], .src0 = f == 0 ? scores : l.indexList},
                            l.padded);
        // The region sort, then the merge passes alternating between the two record buffers, each
        // step fenced from the next (it reads what the step before wrote).
        const auto fence = [&c] { c.push_back(Instruction::barrier(Pipe::Vector)); };
        if (st != l.dtype || l.padded > l.length || l.g.scoreConcats > 0) fence();  // it reads the row built above
        emitVectorRange(c, l.g.regionSort, DataType::Fp32, {.dst = l.records[0], .src0 = l.records[0]}, recordWords);
        for (std::uint32_t p = 0; p < l.mergePasses; ++p) {
            fence();
            emitVectorRange(c, VectorOp::Sort, DataType::Fp32, {.dst = l.records[(p + 1) % 2], .src0 = l.records[p % 2]},
                            recordWords);
        }
        fence();
        // Extract (GatherMask / vextract): the first k records' scores and indices.
        const std::uint64_t sorted = l.records[l.mergePasses % 2], out = l.out + half * l.outHalf;
        const std::uint64_t valuesUb = out, indicesUb = out + alignUp(l.k * eb, kUbBlockBytes);
        emitVectorRange(c, VectorOp::Copy, st, {.dst = valuesUb, .src0 = sorted}, l.k);
        emitVectorRange(c, VectorOp::Copy, DataType::Int32, {.dst = indicesUb, .src0 = sorted}, l.k);
        if (st != l.dtype) emitVectorRange(c, VectorOp::Cast, l.dtype, {.dst = valuesUb, .src0 = valuesUb}, l.k, 0.0f, st);
        code.store.push_back(moveRowsToGm(valuesUb, l.valuesGm + row * l.k * eb, 1, l.k * eb, l.k * eb));
        code.store.push_back(moveRowsToGm(indicesUb, l.indicesGm + row * l.k * 4, 1, l.k * 4, l.k * 4));
    }

private:
    std::shared_ptr<const SortLayout> l_;
    UnitRange rows_;
};

// Sort: x → values, indices along the last axis (k = L). TopKV2: x[, k] → values, indices of the
// k largest; TopKD: x, assist → values, indices. k is the outputs' last dim or attribute "k".
std::vector<LoweredKernel> lowerSortMerge(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 2);
    const TensorInfo& x = op.inputs[0];
    if (x.dtype != DataType::Fp32 && x.dtype != DataType::Fp16) throwLoweringError(op, "x must be fp32 or fp16");
    if (x.shape.empty() || x.elementCount() <= 0) throwLoweringError(op, "x must be a non-empty tensor of rank ≥ 1");
    if (op.outputs[1].dtype != DataType::Int32) throwLoweringError(op, "indices must be int32");
    if (op.outputs[1].elementCount() != op.outputs[0].elementCount())
        throwLoweringError(op, "indices must have the values' shape");
    auto l = std::make_shared<SortLayout>();
    l->dtype = x.dtype;
    l->g = sortGeometry(op, chip, x.dtype);
    l->length = static_cast<std::uint64_t>(x.shape.back());
    const std::int64_t outLast = op.outputs[0].shape.empty() ? 0 : op.outputs[0].shape.back();
    const std::int64_t k = op.type == "Sort" ? static_cast<std::int64_t>(l->length) : op.intAttr("k", outLast);
    if (k <= 0 || static_cast<std::uint64_t>(k) > l->length)
        throwLoweringError(op, "k must be in 1.." + std::to_string(l->length));
    l->k = static_cast<std::uint64_t>(k);
    if (op.outputs[0].dtype != x.dtype || op.outputs[0].elementCount() * static_cast<std::int64_t>(l->length) !=
                                               x.elementCount() * k)
        throwLoweringError(op, "values must be x's dtype with the last axis cut to k = " + std::to_string(k));
    l->padded = alignUp(l->length, l->g.regionRecords);
    for (std::uint64_t lists = l->padded / l->g.regionRecords; lists > 1; lists = ceilDiv(lists, kMergeWays)) ++l->mergePasses;
    const std::uint64_t rows = static_cast<std::uint64_t>(x.elementCount()) / l->length;
    l->xGm = x.deviceAddr;
    l->valuesGm = op.outputs[0].deviceAddr;
    l->indicesGm = op.outputs[1].deviceAddr;
    if (op.type == "TopKD") {
        if (op.inputs.size() < 2) throwLoweringError(op, "TopKD needs the assist tensor as input 2");
        l->assistGm = op.inputs[1].deviceAddr;
        l->assistBytes = alignUp(static_cast<std::uint64_t>(op.inputs[1].bytes()), kUbBlockBytes);
    }
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    const std::uint64_t eb = bytesOf(x.dtype), sb = bytesOf(l->g.scoreType);
    l->stageHalf = alignUp(l->padded * eb, kUbBlockBytes);
    l->stage = ub.allocate(2 * l->stageHalf, "x rows");
    if (l->g.scoreType != x.dtype) l->scores = ub.allocate(alignUp(l->padded * sb, kUbBlockBytes), "fp32 scores");
    l->indexList = ub.allocate(std::max(alignUp(l->padded * 4, kUbBlockBytes), l->assistBytes), "index list");
    for (auto& records : l->records) records = ub.allocate(l->padded * l->g.recordBytes, "sort records");
    l->outHalf = alignUp(l->k * eb, kUbBlockBytes) + alignUp(l->k * 4, kUbBlockBytes);
    l->out = ub.allocate(2 * l->outHalf, "values and indices");
    return {tiledVectorKernel<SortTiles>(op, placement, l, static_cast<std::uint64_t>(x.bytes()), rows)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Sort", lowerSortMerge);
ASCENDSIM_REGISTER_KERNEL("TopKV2", lowerSortMerge);
ASCENDSIM_REGISTER_KERNEL("TopKD", lowerSortMerge);

}  // namespace ascendsim
