// ArgMaxWithValue (docs/op-catalog.md, "Ops of the LLM samples"): the index and value of the
// maximum along one axis, as the Qwen3 sample's vocabulary argmax uses it (x [4096, 1, 151936]
// fp32 → indices [4096, 1] int32, values [4096, 1]); first occurrence wins, like torch.
//
// As CANN's AI_VECTOR_CORE kernel: rows over blocks; a row longer than UB streams through
// double-buffered chunks. The model keeps a running per-lane maximum M[W] and its position I[W]
// over the chunk's W-wide steps (vcmp, vmax, vsel, plus a vadds for the step's positions): 7
// cycles per input repeat, the cost of the vcmax value-index reduction (hardware.md §2.6,
// Reductions: 7), which the ISA model does not have. Lanes see positions in increasing order,
// so a strict compare keeps the first occurrence. At the row's end the maximum is reduced over
// the lanes, lanes holding it keep their position and the others get 2^24 more, and the minimum
// of those is the index (positions are exact in fp32 below 2^24).
#include <algorithm>
#include <limits>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/lane_numbers.h"
#include "models/kernels/tiling/row_chunk_stream.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr float kNotTheMax = 16777216.0f;  // 2^24: above every exact fp32 position
constexpr std::uint64_t kMaxLanes = 2048;    // W: 32 repeats per step instruction (assumed)

struct ArgMaxLayout : RowChunkStream {
    std::uint64_t lanes = 0;
    std::uint64_t indicesGm = 0, valuesGm = 0;
    std::uint64_t iota = 0, positions = 0, best = 0, at[2] = {0, 0}, table = 0, broadcast = 0, scratch = 0;
    std::uint64_t slots = 0;  // per half: value (fp32), value (x dtype), index fp32, index int32: one block each
};

class ArgMaxTiles final : public TileSource {
public:
    ArgMaxTiles(std::shared_ptr<const ArgMaxLayout> l, UnitRange rows) : l_(std::move(l)), rows_(rows) {}
    std::uint64_t tileCount() const override { return rows_.size() * l_->chunksPerRow; }

    // The lane numbers 0..W−1 in fp32, then an all-zero offset block for the broadcast of a
    // row's maximum (a Gather of its one value).
    void setup(TileCode& code) override {
        const ArgMaxLayout& l = *l_;
        auto& c = code.compute;
        emitLaneNumbers(c, l.iota, l.lanes, l.table);
        emitVectorRange(c, VectorOp::Duplicate, kF32, {.dst = l.table}, elementsPerBlock(kF32), 0.0f);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ArgMaxLayout& l = *l_;
        const RowChunkStream::Chunk loaded = l.load(rows_.begin, index, half, code);
        const std::uint64_t row = loaded.row, chunk = loaded.index, first = loaded.first, n = loaded.elements;
        const std::uint64_t stage = loaded.ub;
        auto& c = code.compute;
        if (chunk == 0) {
            emitVectorRange(c, VectorOp::Duplicate, kF32, {.dst = l.best}, l.lanes, -std::numeric_limits<float>::infinity());
            emitVectorRange(c, VectorOp::Duplicate, kF32, {.dst = l.at[0]}, l.lanes, 0.0f);
        }
        std::uint64_t src = stage;
        if (l.dtype != kF32) {
            emitVectorRange(c, VectorOp::Cast, kF32, {.dst = l.f32, .src0 = stage}, n, 0.0f, l.dtype);
            src = l.f32;
        }
        std::uint64_t step = chunk * (l.chunk / l.lanes);  // steps of this row so far: the I buffer parity
        for (std::uint64_t s = 0; s * l.lanes < n; ++s, ++step) {
            const std::uint64_t m = std::min(l.lanes, n - s * l.lanes), x = src + s * l.lanes * 4;
            const std::uint64_t at = l.at[step % 2], next = l.at[(step + 1) % 2];
            if (m < l.lanes) {  // a row's last step: lanes it does not reach keep their positions
                const std::uint64_t kept = m / elementsPerBlock(kF32) * elementsPerBlock(kF32);
                emitVectorRange(c, VectorOp::Copy, kF32, {.dst = next + kept * 4, .src0 = at + kept * 4}, l.lanes - kept);
            }
            emitVectorRange(c, VectorOp::Adds, kF32, {.dst = l.positions, .src0 = l.iota}, m,
                            static_cast<float>(first + s * l.lanes));
            emitVectorRange(c, VectorOp::CompareGt, kF32, {.dst = next, .src0 = x, .src1 = l.best}, m);
            emitVectorRange(c, VectorOp::Max, kF32, {.dst = l.best, .src0 = l.best, .src1 = x}, m);
            emitVectorRange(c, VectorOp::Select, kF32, {.dst = next, .src0 = l.positions, .src1 = at}, m);
        }
        if (chunk + 1 == l.chunksPerRow) finishRow(row, step, half, code);
    }

private:
    void finishRow(std::uint64_t row, std::uint64_t steps, std::uint32_t half, TileCode& code) const {
        const ArgMaxLayout& l = *l_;
        auto& c = code.compute;
        const std::uint64_t slot = l.slots + half * 4 * kUbBlockBytes;
        const std::uint64_t value = slot, valueOut = slot + kUbBlockBytes, index = slot + 2 * kUbBlockBytes,
                            indexOut = slot + 3 * kUbBlockBytes, at = l.at[steps % 2];
        emitReduceAll(c, VectorOp::ReduceMax, kF32, l.best, l.lanes, l.scratch, value);
        emitExpandToBlocks(c, kF32, l.broadcast, value, 1, l.table);
        emitVectorRange(c, VectorOp::CompareGt, kF32, {.dst = l.positions, .src0 = l.broadcast, .src1 = l.best, .src0IsBlock = true},
                        l.lanes);
        emitVectorRange(c, VectorOp::Muls, kF32, {.dst = l.positions, .src0 = l.positions}, l.lanes, kNotTheMax);
        emitVectorRange(c, VectorOp::Add, kF32, {.dst = l.positions, .src0 = l.positions, .src1 = at}, l.lanes);
        emitReduceAll(c, VectorOp::ReduceMin, kF32, l.positions, l.lanes, l.scratch, index);
        emitVectorRange(c, VectorOp::Cast, DataType::Int32, {.dst = indexOut, .src0 = index}, 1, 0.0f, kF32);
        std::uint64_t valueSrc = value;
        if (l.dtype != kF32) {
            emitVectorRange(c, VectorOp::Cast, l.dtype, {.dst = valueOut, .src0 = value}, 1, 0.0f, kF32);
            valueSrc = valueOut;
        }
        const std::uint64_t eb = bytesOf(l.dtype);
        code.store.push_back(moveRowsToGm(indexOut, l.indicesGm + row * 4, 1, 4, 4));
        code.store.push_back(moveRowsToGm(valueSrc, l.valuesGm + row * eb, 1, eb, eb));
    }

    std::shared_ptr<const ArgMaxLayout> l_;
    UnitRange rows_;
};

std::vector<LoweredKernel> lowerArgMaxWithValue(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 2);
    const TensorInfo& x = op.inputs[0];
    if (x.dtype != kF32 && x.dtype != DataType::Fp16 && x.dtype != DataType::Bf16)
        throwLoweringError(op, "x must be fp32, fp16 or bf16");
    const auto rank = static_cast<std::int64_t>(x.shape.size());
    std::int64_t axis = op.intAttr("dimension", -1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) throwLoweringError(op, "dimension out of range for x of rank " + std::to_string(rank));
    std::uint64_t inner = 1;
    for (std::int64_t d = axis + 1; d < rank; ++d) inner *= static_cast<std::uint64_t>(x.shape[static_cast<std::size_t>(d)]);
    if (inner != 1) throwLoweringError(op, "only the arg max over the last non-1 axis is modelled");
    auto l = std::make_shared<ArgMaxLayout>();
    l->dtype = x.dtype;
    l->length = static_cast<std::uint64_t>(x.shape[static_cast<std::size_t>(axis)]);
    if (l->length == 0 || l->length >= static_cast<std::uint64_t>(kNotTheMax))
        throwLoweringError(op, "the reduced axis must hold 1 .. 2^24 − 1 elements");
    const std::uint64_t rows = static_cast<std::uint64_t>(x.elementCount()) / l->length;
    l->xGm = x.deviceAddr;
    l->indicesGm = op.outputs[0].deviceAddr;
    l->valuesGm = op.outputs[1].deviceAddr;
    l->lanes = std::min(kMaxLanes, alignUp(l->length, elementsPerRepeat(kF32)));
    const VectorPlacement placement = vectorPlacement(chip);
    // Fixed: iota, positions, best, two position buffers, reduction scratch, table, broadcast, slots.
    const std::uint64_t fixed = 5 * l->lanes * 4 + reduceRowsScratchBytes(kF32, 1, l->lanes) + 64 * 4 + 2 * kUbBlockBytes +
                                8 * kUbBlockBytes;
    if (!l->sizeChunks(placement.ubBytes - fixed, l->lanes)) throwLoweringError(op, "UB cannot hold one chunk");
    const std::uint32_t blockDim = chooseVectorBlockDim(op, placement, x.bytes(), rows);
    UbAllocator ub(placement.ubBytes, op.name);
    l->allocateStage(ub);
    l->iota = ub.allocate(l->lanes * 4, "lane numbers");
    l->positions = ub.allocate(l->lanes * 4, "step positions");
    l->best = ub.allocate(l->lanes * 4, "lane maxima");
    l->at[0] = ub.allocate(l->lanes * 4, "lane arg max (even steps)");
    l->at[1] = ub.allocate(l->lanes * 4, "lane arg max (odd steps)");
    l->scratch = ub.allocate(reduceRowsScratchBytes(kF32, 1, l->lanes), "reduction partials");
    l->table = ub.allocate(kLaneNumbersScratchBytes, "offset table");
    l->broadcast = ub.allocate(2 * kUbBlockBytes, "row maximum broadcast");
    l->slots = ub.allocate(8 * kUbBlockBytes, "row results");
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = blockDim;
    std::shared_ptr<const ArgMaxLayout> layout = l;
    kernel.program = doubleBufferedBlockShares<ArgMaxTiles>(layout, rows, blockDim);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ArgMaxWithValue", lowerArgMaxWithValue);

}  // namespace ascendsim
