#include "models/kernels/cube/matmul/matmul_single_core_split_k.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "models/kernels/attention/mix_launch.h"
#include "models/kernels/cube/matmul/matmul_vector_nd2nz.h"
#include "models/kernels/tiling/chained_stream.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {
// CANN's L2 n tile of the split-K tiling (§80d: N ÷ 3072-wide L2 tiles gives the n tiles; the
// case read and modelled is one n tile, each core's region all of N).
constexpr std::uint64_t kSplitKL2TileColumns = 3072;
constexpr std::uint64_t kSplitKRowAlign = 16;         // a region's rows: whole fractals
constexpr std::uint64_t kSplitKWorkspaceAlign = 512;  // workspace regions on 512 B
// Cross-core flags (mode 2: an AIC and its AIVs; mode 0: every AIV of the kernel).
constexpr std::uint8_t kSplitKFlagConverted = 1;   // AIVs → AIC: the operands the AIC reads are NZ
constexpr std::uint8_t kSplitKFlagRowsSummed = 2;  // AIC → AIVs: a row block's fp32 sums are complete
constexpr std::uint8_t kSplitKFlagAllConverted = 3;  // all AIVs: every operand converted
constexpr std::uint8_t kSplitKFlagAllSummed = 4;     // all AIVs: every AIC's sums complete
constexpr std::uint8_t kSplitKGroupMode = 2;
constexpr std::uint8_t kSplitKAllAivMode = 0;

std::uint64_t alignedBytes(std::uint64_t bytes) { return cube::roundUp(bytes, kSplitKWorkspaceAlign); }

// Where the kernel's GM workspace parts sit (offsets from the launch's workspace).
struct SplitKWorkspace {
    std::uint64_t aNz = 0, bNz = 0, sums = 0, total = 0;
};
SplitKWorkspace splitKWorkspace(const MatmulProblem& p, const SingleCoreSplitKTiling& t) {
    const std::uint64_t eb = bytesOf(p.inputType);
    SplitKWorkspace w;
    w.aNz = 0;
    w.bNz = w.aNz + (t.convertA ? alignedBytes(p.m * p.k * eb) : 0);
    w.sums = w.bNz + (t.convertB ? alignedBytes(p.k * p.n * eb) : 0);
    w.total = w.sums + alignedBytes(p.m * p.n * bytesOf(p.accType));
    return w;
}

std::uint64_t regionFirstRow(const SingleCoreSplitKTiling& t, std::uint64_t region) { return region * t.regionRows; }
std::uint64_t regionRowCount(const MatmulProblem& p, const SingleCoreSplitKTiling& t, std::uint64_t region) {
    return std::min(t.regionRows, p.m - regionFirstRow(t, region));
}

// The GEMM one region computes: its rows of A (from the NZ workspace when converted, each
// region's rows their own NZ matrix), all of B, fp32 partial sums into the workspace.
MatmulProblem regionProblem(const MatmulProblem& p, const SingleCoreSplitKTiling& t, const SplitKWorkspace& w,
                            std::uint64_t workspaceAddr, std::uint64_t region) {
    const std::uint64_t eb = bytesOf(p.inputType);
    const std::uint64_t first = regionFirstRow(t, region);
    MatmulProblem r = p;
    r.m = regionRowCount(p, t, region);
    r.aAddr = (t.convertA ? workspaceAddr + w.aNz : p.aAddr) + first * p.k * eb;
    r.aFractal = t.convertA;
    if (t.convertB) {
        r.bAddr = workspaceAddr + w.bNz;
        r.bFractal = true;
    }
    r.yAddr = workspaceAddr + w.sums + first * p.n * bytesOf(p.accType);
    r.outputType = p.accType;
    r.yFractal = false;
    return r;
}

MatmulTiling regionTiling(const MatmulProblem& region, const SingleCoreSplitKTiling& t) {
    MatmulTiling tiling;
    tiling.baseM = static_cast<std::uint32_t>(std::min(t.rowBlockRows, cube::roundUp(region.m, kSplitKRowAlign)));
    tiling.baseN = static_cast<std::uint32_t>(std::min<std::uint64_t>(t.base, cube::roundUp(region.n, kSplitKRowAlign)));
    tiling.baseK = t.baseK;
    tiling.chunkK = static_cast<std::uint32_t>(t.sliceK);
    tiling.kSplits = cube::ceilDiv(region.k, t.sliceK);
    tiling.sliceK = t.sliceK;
    return tiling;
}

// One region's tiles in the kernel's order (Exector): row block, then K slice, then n tile (the
// region GEMM's own order is output tile, then slice). A tile is one of CANN's IterateAll calls:
// the row block's rows × one n tile × one slice.
class SplitKRegionOperands final : public CubeOperands {
public:
    SplitKRegionOperands(const MatmulProblem& region, const MatmulTiling& tiling)
        : inner_(region, tiling), nTiles_(cube::ceilDiv(region.n, tiling.baseN)), slices_(tiling.kSplits),
          mTiles_(cube::ceilDiv(region.m, tiling.baseM)) {}

    std::uint64_t rowBlocks() const { return mTiles_; }
    std::uint64_t tilesPerRowBlock() const { return slices_ * nTiles_; }
    std::uint64_t tileCount() const override { return mTiles_ * tilesPerRowBlock(); }
    std::uint32_t tileM(std::uint64_t tile) const override { return inner_.tileM(innerTile(tile)); }
    std::uint32_t tileN(std::uint64_t tile) const override { return inner_.tileN(innerTile(tile)); }
    std::uint32_t chunkCount(std::uint64_t tile) const override { return inner_.chunkCount(innerTile(tile)); }
    void chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const override {
        inner_.chunk(innerTile(tile), c, start, length);
    }
    void loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override {
        inner_.loadChunkA(innerTile(tile), step, l1Addr, b);
    }
    void loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const override {
        inner_.loadChunkB(innerTile(tile), step, l1Addr, b);
    }
    void loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                  std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const override {
        inner_.loadStep(innerTile(tile), step, l1, l0aAddr, l0bAddr, mmad, b);
    }
    // CANN's IterateAll per (row block, slice, n tile) loads the row block's A slice again each
    // time, into one L1 buffer (depthA1 = stepM × stepKa: no ping-pong), and B double-buffered:
    // each tile's A waits for the previous tile's last read of its A.
    std::uint64_t aRowsOf(std::uint64_t tile) const override { return tile; }
    // The first slice writes its partials; every later one adds into them.
    DataMove storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const override {
        DataMove move = inner_.storeMove(innerTile(tile), l0cAddr);
        move.atomicAdd = sliceOf(tile) > 0;
        return move;
    }

private:
    std::uint64_t sliceOf(std::uint64_t tile) const { return (tile / nTiles_) % slices_; }
    std::uint64_t innerTile(std::uint64_t tile) const {
        const std::uint64_t rowBlock = tile / tilesPerRowBlock();
        return (rowBlock * nTiles_ + tile % nTiles_) * slices_ + sliceOf(tile);
    }

    MatmulOperands inner_;
    std::uint64_t nTiles_, slices_, mTiles_;
};

// L1: two B slots of a slice and one buffer for A's slice beside them (reloaded every tile);
// L0A/L0B two steps each; L0C two fp32 tiles when they fit.
CubeBufferPlan splitKBufferPlan(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& p,
                                const MatmulTiling& tiling) {
    const std::uint64_t eb = bytesOf(p.inputType);
    CubeBufferPlan plan;
    const std::uint64_t bSlice = alignedBytes(tiling.chunkK * std::uint64_t{tiling.baseN} * eb);
    const std::uint64_t aSlice = alignedBytes(std::uint64_t{tiling.baseM} * tiling.chunkK * eb);
    plan.placeResidentA(bSlice, aSlice, aSlice);
    plan.l0aSlotBytes = alignedBytes(std::uint64_t{tiling.baseM} * tiling.baseK * eb);
    plan.l0bSlotBytes = alignedBytes(std::uint64_t{tiling.baseK} * tiling.baseN * eb);
    plan.l0cSlotBytes = alignedBytes(std::uint64_t{tiling.baseM} * tiling.baseN * bytesOf(p.accType));
    plan.l0cSlots = 2 * plan.l0cSlotBytes <= chip.bufferCapacity(MemSpace::L0C) ? 2 : 1;
    checkPlanFits(op, chip, plan, 0, 0);
    return plan;
}

// fp32 sums → the output dtype, `count` contiguous elements from `first` (a row block's rows
// are contiguous: a region spans all of N).
class SumCastTiles final : public TileSource {
public:
    SumCastTiles(std::uint64_t sums, std::uint64_t out, DataType outType, std::uint64_t first, std::uint64_t count,
                 std::uint64_t ubBytes)
        : sums_(sums), out_(out), outType_(outType), first_(first), count_(count), halfBytes_(ubBytes / 2) {
        // One half holds a tile's fp32 sums and its cast; 64 elements keep both 32 B aligned.
        tileElements_ = std::max<std::uint64_t>(64, halfBytes_ / (4 + bytesOf(outType)) / 64 * 64);
    }
    std::uint64_t tileCount() const override { return cube::ceilDiv(count_, tileElements_); }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const std::uint64_t e = first_ + index * tileElements_;
        const std::uint64_t n = std::min(tileElements_, first_ + count_ - e);
        const std::uint64_t in = half * halfBytes_, cast = in + tileElements_ * 4;
        const std::uint64_t eb = bytesOf(outType_);
        ProgramBuilder(code.load).copy(MemSpace::GM, sums_ + e * 4, MemSpace::UB, in, static_cast<std::uint32_t>(n * 4));
        emitVectorRange(code.compute, VectorOp::Cast, outType_, {.dst = cast, .src0 = in}, n, 0.0f, DataType::Fp32);
        ProgramBuilder(code.store).copy(MemSpace::UB, cast, MemSpace::GM, out_ + e * eb, static_cast<std::uint32_t>(n * eb));
    }

private:
    std::uint64_t sums_, out_;
    DataType outType_;
    std::uint64_t first_, count_, halfBytes_, tileElements_ = 64;
};

std::unique_ptr<InstructionStream> fixedStream(std::vector<Instruction> program) {
    return std::make_unique<FixedInstructionStream>(std::move(program));
}

// `streams` one after another.
std::unique_ptr<InstructionStream> inSequence(std::vector<std::unique_ptr<InstructionStream>> streams) {
    std::unique_ptr<InstructionStream> chain;
    for (auto it = streams.rbegin(); it != streams.rend(); ++it)
        chain = chain ? std::make_unique<ChainedStream>(std::move(*it), std::move(chain)) : std::move(*it);
    return chain;
}

std::vector<Instruction> oneCrossCore(bool set, std::uint8_t flag, std::uint8_t mode, Pipe pipe) {
    std::vector<Instruction> program;
    ProgramBuilder b(program);
    if (set) b.crossCoreSet(flag, mode, pipe);
    else b.crossCoreWait(flag, mode);
    return program;
}

struct SplitKLaunch {
    MatmulProblem problem;
    SingleCoreSplitKTiling tiling;
    SplitKWorkspace workspace;
    std::uint32_t aivPerGroup = 2;
    std::uint64_t ubBytes = 0;
    std::vector<CubeBufferPlan> plans;  // per region
    bool converts() const { return tiling.convertA || tiling.convertB; }
    std::uint32_t vectorCores() const { return static_cast<std::uint32_t>(tiling.regions * aivPerGroup); }
};

// Every AIV of the kernel sets `flag` and waits for all of them (SyncAll).
std::unique_ptr<InstructionStream> allAivBarrier(std::uint8_t flag) {
    std::vector<Instruction> barrier = oneCrossCore(true, flag, kSplitKAllAivMode, Pipe::Mte3);
    ProgramBuilder(barrier).crossCoreWait(flag, kSplitKAllAivMode);
    return fixedStream(std::move(barrier));
}

// The AIC: with a conversion (CANN's "unaligned" kernel, MatMulUnAlignedSingleCoreSplitKKernelBase)
// it waits for its AIVs' flag, runs every row block and tells its AIVs once at the end; without
// one (MatMulBaseKernelSingleCoreSplitK::ProcessBlockMKN) it tells them after each row block.
std::unique_ptr<InstructionStream> splitKCubeStream(const SplitKLaunch& l, const BlockProgramRequest& r) {
    const MatmulProblem region = regionProblem(l.problem, l.tiling, l.workspace, r.workspaceAddr, r.blockIdx);
    const MatmulTiling tiling = regionTiling(region, l.tiling);
    auto operands = std::make_shared<const SplitKRegionOperands>(region, tiling);
    std::vector<std::unique_ptr<InstructionStream>> parts;
    if (l.converts()) parts.push_back(fixedStream(oneCrossCore(false, kSplitKFlagConverted, kSplitKGroupMode, Pipe::Scalar)));
    const std::uint64_t per = operands->tilesPerRowBlock();
    for (std::uint64_t block = 0; block < operands->rowBlocks(); ++block) {
        parts.push_back(makeCubeBlockStream(operands, l.plans[r.blockIdx], CubeStepSizes{tiling.baseK}, block * per, per));
        if (!l.converts() || block + 1 == operands->rowBlocks())
            parts.push_back(fixedStream(oneCrossCore(true, kSplitKFlagRowsSummed, kSplitKGroupMode, Pipe::FixPipe)));
    }
    return inSequence(std::move(parts));
}

std::unique_ptr<InstructionStream> castStream(const SplitKLaunch& l, std::uint64_t sums, std::uint64_t first,
                                              std::uint64_t count) {
    return std::make_unique<DoubleBufferedStream>(
        std::make_unique<SumCastTiles>(sums, l.problem.yAddr, l.problem.outputType, first, count, l.ubBytes));
}

// The AIVs of CANN's unaligned kernel: every operand to convert, its base blocks over all AIVs
// (A first, then B), an all-AIV barrier, the flag to the AIC; then, once every AIC has summed
// all its slices (its flag, an all-AIV barrier), each AIV casts 1/(AIVs) of C.
std::unique_ptr<InstructionStream> convertingVectorStream(const SplitKLaunch& l, const BlockProgramRequest& r) {
    const MatmulProblem& p = l.problem;
    const std::uint32_t vectorIndex = r.blockIdx * l.aivPerGroup + r.subBlockIdx;
    std::vector<std::unique_ptr<InstructionStream>> parts;
    const auto convert = [&](std::uint64_t src, std::uint64_t dst, std::uint64_t rows, std::uint64_t columns) {
        VectorNd2NzOperand o;
        o.src = src;
        o.dst = r.workspaceAddr + dst;
        o.rows = rows;
        o.columns = columns;
        o.type = p.inputType;
        o.block = cannVectorNd2NzBlock(rows, columns, bytesOf(p.inputType), l.vectorCores(), l.ubBytes);
        parts.push_back(std::make_unique<DoubleBufferedStream>(vectorNd2NzTiles(o, l.vectorCores(), vectorIndex)));
    };
    if (l.tiling.convertA) convert(p.aAddr, l.workspace.aNz, p.m, p.k);  // A [M, K], not transposed
    if (l.tiling.convertB) convert(p.bAddr, l.workspace.bNz, p.transposeB ? p.n : p.k, p.transposeB ? p.k : p.n);
    parts.push_back(allAivBarrier(kSplitKFlagAllConverted));
    parts.push_back(fixedStream(oneCrossCore(true, kSplitKFlagConverted, kSplitKGroupMode, Pipe::Mte3)));
    parts.push_back(fixedStream(oneCrossCore(false, kSplitKFlagRowsSummed, kSplitKGroupMode, Pipe::Scalar)));
    parts.push_back(allAivBarrier(kSplitKFlagAllSummed));
    const UnitRange share = blockShare(p.m * p.n, l.vectorCores(), vectorIndex);
    parts.push_back(castStream(l, r.workspaceAddr + l.workspace.sums, share.begin, share.size()));
    return inSequence(std::move(parts));
}

// The AIVs of the aligned kernel: per row block, its AIC's flag, then this AIV's half of its rows.
std::unique_ptr<InstructionStream> rowBlockVectorStream(const SplitKLaunch& l, const BlockProgramRequest& r) {
    const MatmulProblem& p = l.problem;
    std::vector<std::unique_ptr<InstructionStream>> parts;
    const std::uint64_t regionFirst = regionFirstRow(l.tiling, r.blockIdx);
    const std::uint64_t regionRows = regionRowCount(p, l.tiling, r.blockIdx);
    const std::uint64_t base = std::min(l.tiling.rowBlockRows, cube::roundUp(regionRows, kSplitKRowAlign));
    for (std::uint64_t row = 0; row < regionRows; row += base) {
        const UnitRange half = blockShare(std::min(base, regionRows - row), l.aivPerGroup, r.subBlockIdx);
        parts.push_back(fixedStream(oneCrossCore(false, kSplitKFlagRowsSummed, kSplitKGroupMode, Pipe::Scalar)));
        parts.push_back(castStream(l, r.workspaceAddr + l.workspace.sums, (regionFirst + row + half.begin) * p.n,
                                   half.size() * p.n));
    }
    return inSequence(std::move(parts));
}

// stepM of the split-K tiling (matmul_v3_base_tiling.cpp): 1 when M or N is below 3 × 128; else
// SetBasicBlockOf24's 2 when the m tiles of 3 × 128 rows times the 3072-column n tiles are fewer
// than the cores, SetBasicBlockOfMK33's 3 otherwise. The model takes at most 2: a row block's fp32
// tile is one L0C accumulation, and 2 × 128 rows × 128 columns fill the 128 KiB L0C (the 3 × 3
// case, M ≥ 3 × 128 × cores, is not modelled).
std::uint32_t splitKStepM(const MatmulProblem& p) {
    constexpr std::uint64_t kMk33Rows = 3 * 128;
    constexpr std::uint32_t kMostStepM = 2;
    return p.m < kMk33Rows || p.n < kMk33Rows ? 1 : kMostStepM;
}
}  // namespace

std::optional<SingleCoreSplitKTiling> singleCoreSplitKTiling(const ChipConfig& chip, const MatmulProblem& p) {
    const bool sixteenBit = p.inputType == DataType::Fp16 || p.inputType == DataType::Bf16;
    if (chip.organisation != CoreOrganisation::Split || chip.aiCoreCount == 0 || !p.batchShape.empty() || !sixteenBit ||
        p.hasBias || p.transposeA || p.aFractal || p.bFractal || p.yFractal || p.k < kSingleCoreSplitKThreshold ||
        p.n > kSplitKL2TileColumns)
        return std::nullopt;
    SingleCoreSplitKTiling t;
    t.rowBlockRows = std::uint64_t{splitKStepM(p)} * t.base;
    t.baseK = static_cast<std::uint32_t>(std::uint64_t{t.base} * t.baseK / t.rowBlockRows);
    t.regionRows = cube::roundUp(cube::ceilDiv(p.m, chip.aiCoreCount), kSplitKRowAlign);
    t.regions = cube::ceilDiv(p.m, t.regionRows);
    t.convertA = p.k > kNd2NzOnTheFlyLimit;  // A [M, K]: its inner axis is K
    t.convertB = (p.transposeB ? p.k : p.n) > kNd2NzOnTheFlyLimit;
    return t;
}

LoweredKernel singleCoreSplitKKernel(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& p,
                                     const SingleCoreSplitKTiling& tiling) {
    OpInstance launch = op;
    launch.blockDim = static_cast<std::uint32_t>(tiling.regions);
    LoweredKernel kernel = mixAicKernel(launch, chip, tiling.regions);
    auto l = std::make_shared<SplitKLaunch>();
    l->problem = p;
    l->tiling = tiling;
    l->workspace = splitKWorkspace(p, tiling);
    l->aivPerGroup = aivPerGroup(chip);
    l->ubBytes = chip.bufferCapacity(MemSpace::UB);
    for (std::uint64_t region = 0; region < tiling.regions; ++region) {
        const MatmulProblem rp = regionProblem(p, tiling, l->workspace, 0, region);
        l->plans.push_back(splitKBufferPlan(op, chip, rp, regionTiling(rp, tiling)));
    }
    kernel.workspaceBytes = l->workspace.total;
    kernel.program = [l](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        if (r.coreKind != CoreKind::Vector) return splitKCubeStream(*l, r);
        return l->converts() ? convertingVectorStream(*l, r) : rowBlockVectorStream(*l, r);
    };
    return kernel;
}

}  // namespace ascendsim
