// RmsNormGrad (docs/op-catalog.md, "Ops of the LLM samples"), as CANN 8.1's high-precision
// split-N kernel works on the 220x (docs/fidelity.md §78): one vector kernel whose blocks take rows
// (with the forward's rstd per row, never recomputed), in fp32 from the input cast to dx's cast:
//   g = dy·γ;  dx = rstd·(g − x·rstd²·mean(g·x))           (per row, fp32)
//   dgamma = Σ_rows dy·x·rstd                               (a column sum over all rows)
// Each block sums its rows' dy·x·rstd into a UB accumulator (one row add per row), writes that
// partial to its workspace row, meets every other block at an all-AIV barrier (cross-core flag
// mode 0, the SyncAll of the sample's MIX_AIV kernel) and then reduces its share of the columns
// over all partials into dgamma.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/chained_stream.h"
#include "models/kernels/tiling/vector_tiling_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
constexpr DataType kF32 = DataType::Fp32;
constexpr std::uint8_t kPartialsWritten = 5;  // cross-core flag of the all-AIV barrier
constexpr std::uint64_t kMaxRowsPerTile = 64;  // assumed: CANN's row tiling keeps tiles to a few dozen rows
// Rows longer than this many elements (padded) run CANN's row-at-a-time loop (SMALLD_THRESHOLD of
// CANN 8.1's rms_norm_grad, RmsNormGradSplitNHighPrecision::SubProcess: `colValAlign_ >
// SMALLD_THRESHOLD`); shorter rows are computed a tile at a time.
constexpr std::uint64_t kSmallDThreshold = 640;
constexpr std::uint8_t kRowEvent = 3;  // S ↔ V handoffs of the row loop

struct Staging {
    DataType dtype = kF32;
    std::uint64_t half0 = 0, halfStride = 0, f32 = 0;
    std::uint64_t at(std::uint32_t half) const { return half0 + half * halfStride; }
    std::uint64_t working(std::uint32_t half) const { return dtype == kF32 ? at(half) : f32; }
};

struct GradLayout {
    std::uint64_t rows = 0, length = 0, pitch = 0, rowsPerTile = 0;
    std::uint32_t blockDim = 1;
    std::uint64_t dyGm = 0, xGm = 0, rstdGm = 0, gammaGm = 0, dxGm = 0, dgammaGm = 0;
    Staging dy, x, rstd, gamma, dx;
    std::uint64_t g = 0, t = 0, sums = 0, accumulator = 0, blocks = 0, table = 0, scratch = 0, partials = 0;
    std::uint64_t rowRstd = 0;  // long rows: each row's rstd in its own 32 B block
    std::uint64_t columnChunk = 0;  // most columns one block reduces in the tail
};

class RmsNormGradTiles final : public TileSource {
public:
    RmsNormGradTiles(std::shared_ptr<const GradLayout> l, UnitRange rows, std::uint64_t partial)
        : l_(std::move(l)), rows_(rows), partial_(partial) {}
    std::uint64_t tileCount() const override { return ceilDiv(rows_.size(), l_->rowsPerTile); }

    void setup(TileCode& code) override {
        const GradLayout& l = *l_;
        emitBlockOffsetTable(code.compute, kF32, l.table, l.rowsPerTile * elementsPerBlock(kF32));
        emitVectorRange(code.compute, VectorOp::Duplicate, kF32, {.dst = l.accumulator}, l.pitch, 0.0f);
        const std::uint64_t eb = bytesOf(l.gamma.dtype);
        code.load.push_back(moveRowsToUb(l.gammaGm, l.gamma.at(0), 1, l.length * eb, l.length * eb));
        if (l.gamma.dtype != kF32)
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.gamma.f32, .src0 = l.gamma.at(0)}, l.pitch, 0.0f, l.gamma.dtype);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const GradLayout& l = *l_;
        const std::uint64_t first = rows_.begin + index * l.rowsPerTile;
        const auto rows = static_cast<std::uint32_t>(std::min(l.rowsPerTile, rows_.end - first));
        code.scalarCycles = rows;
        const bool longRows = l.pitch > kSmallDThreshold;
        for (const auto& [s, gm] : {std::pair{l.dy, l.dyGm}, std::pair{l.x, l.xGm}}) {
            const std::uint64_t eb = bytesOf(s.dtype);
            code.load.push_back(moveRowsToUb(gm + first * l.length * eb, s.at(half), rows, l.length * eb, l.pitch * eb));
            if (s.dtype != kF32)
                emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = s.f32, .src0 = s.at(half)}, rows * l.pitch, 0.0f, s.dtype);
        }
        const std::uint64_t rb = bytesOf(l.rstd.dtype);
        code.load.push_back(moveRowsToUb(l.rstdGm + first * rb, l.rstd.at(half), 1, rows * rb, rows * rb));
        if (l.rstd.dtype != kF32)
            emitVectorRange(code.compute, VectorOp::Cast, kF32, {.dst = l.rstd.f32, .src0 = l.rstd.at(half)}, rows, 0.0f, l.rstd.dtype);

        if (longRows) {
            emitRowLoop(code, half, rows);
        } else {
            emitBatchedRows(code, half, rows);
        }
        const std::uint64_t eb = bytesOf(l.dx.dtype);
        if (l.dx.dtype != kF32)
            emitVectorRange(code.compute, VectorOp::Cast, l.dx.dtype, {.dst = l.dx.at(half), .src0 = l.dx.f32}, rows * l.pitch, 0.0f, kF32);
        code.store.push_back(moveRowsToGm(l.dx.at(half), l.dxGm + first * l.length * eb, rows, l.length * eb, l.pitch * eb));
    }

    void finish(TileCode& code) override {
        code.store.push_back(moveRowsToGm(l_->accumulator, partial_, 1, l_->length * 4, l_->length * 4));
    }

private:
    // Short rows (≤ 640 elements, padded): every step over all the tile's rows at once, per-row
    // values broadcast into blocks (CANN 8.1's ComputeSmallD). Each step reads the one before it,
    // and the kernel puts a PipeBarrier<PIPE_V> after every step, so each waits out the vector
    // result latency (docs/fidelity.md §40, §78); dgamma takes the tile's rows one Add and one
    // barrier at a time.
    void emitBatchedRows(TileCode& code, std::uint32_t half, std::uint32_t rows) const {
        const GradLayout& l = *l_;
        auto& v = code.compute;
        RowTile t(v);
        t.rows = rows;
        t.length = l.length;
        t.pitch = l.pitch;
        t.blocks = l.blocks;
        t.table = l.table;
        t.scratch = l.scratch;
        const std::uint64_t dy = l.dy.working(half), y = l.x.working(half), rstd = l.rstd.working(half);
        const std::uint64_t dx = l.dx.working(half);
        auto barrier = [&] { v.push_back(Instruction::barrier(Pipe::Vector)); };
        t.withValues(VectorOp::Mul, y, y, rstd);                     // y = x·rstd
        barrier();
        t.flat(VectorOp::Mul, l.t, dy, y);                           // dy·y
        barrier();
        for (std::uint32_t r = 0; r < rows; ++r) {                   // dgamma += dy·y, row by row
            emitVectorRange(v, VectorOp::Add, kF32, {.dst = l.accumulator, .src0 = l.accumulator, .src1 = l.t + r * l.pitch * 4}, l.length);
            barrier();
        }
        t.withVector(VectorOp::Mul, l.g, dy, l.gamma.working(0));    // g = dy·γ
        barrier();
        t.flat(VectorOp::Mul, l.t, l.g, y);                          // g·y
        barrier();
        t.reduce(VectorOp::ReduceSum, l.t, l.sums);                  // Σ g·y
        barrier();
        t.values(VectorOp::Muls, l.sums, l.sums, 0, 1.0f / static_cast<float>(l.length));  // mean
        barrier();
        t.withValues(VectorOp::Mul, l.t, y, l.sums);                 // y·mean
        barrier();
        t.flat(VectorOp::Sub, l.g, l.g, l.t);
        barrier();
        t.withValues(VectorOp::Mul, dx, l.g, rstd);                  // dx = (g − y·mean)·rstd
        barrier();
    }

    // Long rows (> 640 elements): CANN 8.1's Compute, one row per tile (its CopyIn / Compute /
    // CopyOut take a row at a time, two buffers per queue). Per row the scalar unit waits for the
    // vector pipe to drain (V → S) before it reads the row's rstd from UB and hands it over
    // (S → V), and the row sum Σ g·y comes back to the scalar unit (V → S: ReduceSumHalfInterval
    // returns a float) to scale the row: three hand-offs between the pipes per row. Every step
    // after the first reads the one before it behind a PipeBarrier<PIPE_V>, as in the kernel. The
    // per-row scalars are applied as one-row broadcasts here (RowTile::withValues), so the
    // functional model computes dx exactly.
    void emitRowLoop(TileCode& code, std::uint32_t half, std::uint32_t rows) const {
        const GradLayout& l = *l_;
        auto& v = code.compute;
        // Each row's rstd in a 32 B block of its own, so one-row ops address it aligned.
        emitExpandToBlocks(v, kF32, l.rowRstd, l.rstd.working(half), rows, l.table);
        auto handToVector = [&] {
            v.push_back(Instruction::scalar(ScalarWork{.cycles = 1, .loads = 1, .memory = MemSpace::UB, .bytesRead = 4}));
            v.push_back(Instruction::setFlag(Pipe::Scalar, Pipe::Vector, kRowEvent));
            v.push_back(Instruction::waitFlag(Pipe::Scalar, Pipe::Vector, kRowEvent));
        };
        auto barrier = [&] { v.push_back(Instruction::barrier(Pipe::Vector)); };
        for (std::uint32_t r = 0; r < rows; ++r) {
            const std::uint64_t at = r * l.pitch * 4;
            const std::uint64_t dy = l.dy.working(half) + at, y = l.x.working(half) + at, dx = l.dx.working(half) + at;
            const std::uint64_t g = l.g + at, t = l.t + at, sum = l.sums, rstd = l.rowRstd + r * kUbBlockBytes;
            RowTile row(v);
            row.rows = 1;
            row.length = l.length;
            row.pitch = l.pitch;
            row.blocks = l.blocks;
            row.table = l.table;
            row.scratch = l.scratch;
            v.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Scalar, kRowEvent));  // the previous row's vector work
            v.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Scalar, kRowEvent));
            handToVector();                                   // rstd[r]
            row.withValues(VectorOp::Mul, y, y, rstd);        // y = x·rstd
            barrier();
            row.withVector(VectorOp::Mul, g, dy, l.gamma.working(0));  // g = dy·γ
            barrier();
            row.flat(VectorOp::Mul, t, g, y);                 // g·y
            barrier();
            row.reduce(VectorOp::ReduceSum, t, sum);          // Σ g·y
            v.push_back(Instruction::setFlag(Pipe::Vector, Pipe::Scalar, kRowEvent));
            v.push_back(Instruction::waitFlag(Pipe::Vector, Pipe::Scalar, kRowEvent));
            handToVector();                                   // the sum, scaled by 1/L
            row.values(VectorOp::Muls, sum, sum, 0, 1.0f / static_cast<float>(l.length));
            row.withValues(VectorOp::Mul, t, y, sum);         // y·mean
            barrier();
            row.flat(VectorOp::Sub, g, g, t);
            barrier();
            row.withValues(VectorOp::Mul, dx, g, rstd);       // dx
            barrier();
            row.flat(VectorOp::Mul, t, y, dy);                // dy·y
            barrier();
            emitVectorRange(v, VectorOp::Add, kF32, {.dst = l.accumulator, .src0 = l.accumulator, .src1 = t}, l.length);
            barrier();
        }
    }

    std::shared_ptr<const GradLayout> l_;
    UnitRange rows_;
    std::uint64_t partial_;
};

// After the barrier: this block's columns of dgamma = Σ over the blocks' partial rows.
std::unique_ptr<InstructionStream> dgammaTail(const GradLayout& l, std::uint32_t block, std::uint64_t workspace) {
    std::vector<Instruction> code;
    ProgramBuilder b(code);
    b.crossCoreSet(kPartialsWritten, 0, Pipe::Mte3);
    b.crossCoreWait(kPartialsWritten, 0);
    const UnitRange share = blockShare(ceilDiv(l.length, elementsPerBlock(kF32)), l.blockDim, block);
    const std::uint64_t c0 = share.begin * elementsPerBlock(kF32);
    const std::uint64_t c1 = std::min(l.length, share.end * elementsPerBlock(kF32));
    if (c1 > c0) {
        const std::uint64_t cols = c1 - c0, colBytes = alignUp(cols * 4, kUbBlockBytes);
        b.scalar(kScalarCyclesPerTile);
        b.copy2d(MemSpace::GM, workspace + c0 * 4, MemSpace::UB, l.partials, l.blockDim, static_cast<std::uint32_t>(cols * 4),
                 l.pitch * 4, colBytes);
        b.handoff(Pipe::Mte2, Pipe::Vector, 2);
        for (std::uint32_t r = 1; r < l.blockDim; ++r)
            emitVectorRange(code, VectorOp::Add, kF32, {.dst = l.partials, .src0 = l.partials, .src1 = l.partials + r * colBytes}, cols);
        b.handoff(Pipe::Vector, Pipe::Mte3, 2);
        b.copy(MemSpace::UB, l.partials, MemSpace::GM, l.dgammaGm + c0 * 4, static_cast<std::uint32_t>(cols * 4));
    }
    return std::make_unique<FixedInstructionStream>(std::move(code));
}

std::vector<LoweredKernel> lowerRmsNormGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 4, 2);
    const TensorInfo &dy = op.inputs[0], &x = op.inputs[1], &rstd = op.inputs[2], &gamma = op.inputs[3];
    if (!isFloat(x.dtype) || x.shape.empty()) throwLoweringError(op, "x must be a float tensor of rank ≥ 1");
    if (op.outputs[1].dtype != kF32) throwLoweringError(op, "dgamma must be fp32");
    auto l = std::make_shared<GradLayout>();
    l->length = static_cast<std::uint64_t>(x.shape.back());
    l->rows = static_cast<std::uint64_t>(x.elementCount()) / std::max<std::uint64_t>(l->length, 1);
    if (dy.elementCount() != x.elementCount() || static_cast<std::uint64_t>(rstd.elementCount()) != l->rows ||
        static_cast<std::uint64_t>(gamma.elementCount()) != l->length)
        throwLoweringError(op, "dy ≅ x, rstd one value per row and gamma [L] are required");
    l->pitch = alignUp(l->length, elementsPerBlock(kF32));
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t rowBytes = x.bytes() / l->rows;
    l->blockDim = chooseVectorBlockDim(op, placement, 3 * rowBytes * l->rows, l->rows);
    if (l->blockDim > placement.coreCount)
        throwLoweringError(op, "block_dim " + std::to_string(l->blockDim) + " exceeds the " +
                                   std::to_string(placement.coreCount) + " vector cores that must be co-resident for the dgamma barrier");
    const std::uint64_t pitchF32 = l->pitch * 4;
    // Per tile row: dy, x, dx staging (double-buffered, own dtypes) + fp32 copies + g, t.
    const std::uint64_t perRow = 2 * l->pitch * (bytesOf(dy.dtype) + bytesOf(x.dtype) + bytesOf(op.outputs[0].dtype)) +
                                 3 * pitchF32 + 2 * pitchF32 + 64 + kUbBlockBytes + 16;
    const std::uint64_t fixed = 6 * pitchF32 + std::uint64_t{l->blockDim} * 2 * kUbBlockBytes + 8 * kVectorRepeatBytes;
    if (fixed + perRow > placement.ubBytes) throwLoweringError(op, "a row of " + std::to_string(l->length) + " does not fit in UB");
    l->rowsPerTile = std::min({kMaxRowsPerTile, l->rows, (placement.ubBytes - fixed) / perRow});
    if (l->pitch > kSmallDThreshold) l->rowsPerTile = 1;  // CANN 8.1 loads, computes and stores a long row alone
    UbAllocator ub(placement.ubBytes, op.name);
    auto stage = [&](DataType dtype, std::uint64_t elements, bool doubled, const char* what) {
        Staging s;
        s.dtype = dtype;
        s.halfStride = doubled ? alignUp(elements * bytesOf(dtype), kUbBlockBytes) : 0;
        s.half0 = ub.allocate(doubled ? 2 * s.halfStride : elements * bytesOf(dtype), what);
        s.f32 = dtype == kF32 ? 0 : ub.allocate(elements * 4, what);
        return s;
    };
    const std::uint64_t tileElements = l->rowsPerTile * l->pitch;
    l->dy = stage(dy.dtype, tileElements, true, "dy rows");
    l->x = stage(x.dtype, tileElements, true, "x rows");
    l->rstd = stage(rstd.dtype, l->rowsPerTile, true, "rstd values");
    l->gamma = stage(gamma.dtype, l->pitch, false, "gamma");
    l->dx = stage(op.outputs[0].dtype, tileElements, true, "dx rows");
    l->g = ub.allocate(tileElements * 4, "g = dy·gamma");
    l->t = ub.allocate(tileElements * 4, "row products");
    l->sums = ub.allocate(l->rowsPerTile * 4, "row sums");
    l->accumulator = ub.allocate(pitchF32, "dgamma partial");
    l->blocks = ub.allocate(l->rowsPerTile * kUbBlockBytes, "row blocks");
    if (l->pitch > kSmallDThreshold) l->rowRstd = ub.allocate(l->rowsPerTile * kUbBlockBytes, "per-row rstd blocks");
    l->table = ub.allocate(blockOffsetTableBytes(kF32, l->rowsPerTile), "Gather offsets");
    l->scratch = ub.allocate(reduceRowsScratchBytes(kF32, static_cast<std::uint32_t>(l->rowsPerTile), l->pitch), "reduction partials");
    l->columnChunk = ceilDiv(ceilDiv(l->length, elementsPerBlock(kF32)), l->blockDim) * elementsPerBlock(kF32);
    l->partials = ub.allocate(std::uint64_t{l->blockDim} * alignUp(l->columnChunk * 4, kUbBlockBytes), "dgamma partials");
    l->dyGm = dy.deviceAddr;
    l->xGm = x.deviceAddr;
    l->rstdGm = rstd.deviceAddr;
    l->gammaGm = gamma.deviceAddr;
    l->dxGm = op.outputs[0].deviceAddr;
    l->dgammaGm = op.outputs[1].deviceAddr;

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = l->blockDim;
    kernel.workspaceBytes = std::uint64_t{l->blockDim} * pitchF32;
    std::shared_ptr<const GradLayout> layout = l;
    kernel.program = [layout](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        const std::uint64_t partial = r.workspaceAddr + r.blockIdx * layout->pitch * 4;
        auto rows = std::make_unique<DoubleBufferedStream>(
            std::make_unique<RmsNormGradTiles>(layout, blockShare(layout->rows, layout->blockDim, r.blockIdx), partial));
        return std::make_unique<ChainedStream>(std::move(rows), dgammaTail(*layout, r.blockIdx, r.workspaceAddr));
    };
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("RmsNormGrad", lowerRmsNormGrad);

}  // namespace ascendsim
