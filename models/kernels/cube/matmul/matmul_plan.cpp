// planMatmul: the tiling and buffer plan of a MatMul / BatchMatMul like CANN's (base block, K chunk
// depth, L1 / L0 / L0C slots, resident A or B, loads ahead). The operand moves of the planned tiles
// are matmul_operands.cpp.
#include "models/kernels/cube/matmul/matmul_operands.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>
#include <vector>

#include "models/kernels/cube/matmul/matmul_cann_base_block.h"
#include "models/kernels/cube/matmul/matmul_cann_round_readers.h"
#include "models/kernels/cube/matmul/matmul_core_grid.h"
#include "models/kernels/cube/matmul/matmul_fractal_loads.h"
#include "models/kernels/cube/matmul/matmul_legacy_n_split.h"
#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"

namespace ascendsim {

namespace {
// Shallowest L0 step row (baseK × element bytes): 64 fp16, 128 int8, 32 fp32. CANN's matmul tiling
// deepens baseK until two L0A / L0B slots fill their buffers [I]: a 128×128 fp16 block steps 128
// deep (2 × 32 KiB in a 64 KiB L0A), 128×256 stays at 64; deeper steps issue fewer instructions.
constexpr std::uint64_t kStepBytesPerRow = 128;
// Output base blocks (m, n) CANN's matmul tiling chooses among on this core class [I]: 128×256 and
// 256×128 fill a 128 KiB L0C with one fp32 tile and need a third fewer operand bytes per MAC than
// 128×128, which keeps two L0C slots and spreads small outputs over more cores. Earlier wins ties.
constexpr std::array<std::pair<std::uint32_t, std::uint32_t>, 3> kBaseBlocks{{{128, 256}, {256, 128}, {128, 128}}};
// Rates that rank base blocks (not timing): GM→L1 ND2NZ for 64–256 KiB chunks, 133–204 GiB/s at
// 1.8 GHz ≈ 80–122 B/cycle (hardware.md §1.3), and the steady L0C→GM FixPipe rate (§1.3).
constexpr double kNd2NzBytesPerCycle = 100.0;
constexpr double kFixPipeBytesPerCycle = 117.4;
constexpr std::uint64_t kFractalRowBytes = 32;   // K extent of a fractal: fp16 16, int8 32, fp32 8 (§1.1 DtypeMKN)
}  // namespace

namespace {
// L0C→GM store rate of the output: the steady FixPipe rate, or the chip's precision-conversion
// rate when L0C's accumulator type is quantised to another output type on the way.
double fixPipeBytesPerCycle(const ChipConfig& chip, const MatmulProblem& p) {
    const PathTiming* path = chip.findPath(MemSpace::L0C, MemSpace::GM);
    if (p.accType == p.outputType || path == nullptr || path->dtypeConversionBytesPerCycle <= 0.0)
        return kFixPipeBytesPerCycle;
    return std::min(kFixPipeBytesPerCycle, path->dtypeConversionBytesPerCycle);
}

// Estimated cycles of the busiest core for a base block, to rank base blocks the way CANN's
// matmul tiling does: that core runs `rounds` tiles, each bounded by the cube or by its MTE2
// operand loads, plus the FixPipe store when a single L0C slot makes the next tile wait for it.
double busiestCoreCycles(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& p, const MatmulTiling& t,
                         std::uint32_t l0cSlots) {
    const std::uint64_t eb = bytesOf(p.inputType);
    const std::uint64_t tiles = p.batchCount() * ceilDiv(p.m, t.baseM) * ceilDiv(p.n, t.baseN);
    const std::uint64_t blockDim = op.blockDim ? *op.blockDim : std::min<std::uint64_t>(chip.aiCoreCount, tiles);
    const std::uint64_t rounds = ceilDiv(tiles, std::max<std::uint64_t>(1, blockDim));
    const double cyclesPerFractal = p.mmadType == DataType::Fp32 ? chip.cube.fp32CyclesPerFractal : 1.0;
    const double mac = static_cast<double>(ceilDiv(t.baseM, kMatmulFractalRows) * ceilDiv(t.baseN, kMatmulFractalRows) *
                                           ceilDiv(p.k, std::max<std::uint64_t>(1, kFractalRowBytes / eb))) *
                       cyclesPerFractal;
    const double mte2 = static_cast<double>(p.k * (t.baseM + t.baseN) * eb) / kNd2NzBytesPerCycle;
    const double store = static_cast<double>(t.baseM) * t.baseN * bytesOf(p.accType) / fixPipeBytesPerCycle(chip, p);
    // Two L0C slots let FixPipe drain one tile while the cube fills the other; with one, the
    // next tile's first mmad waits for the store.
    const double perTile = l0cSlots > 1 ? std::max({mac, mte2, store}) : std::max(mac, mte2) + store;
    return static_cast<double>(rounds) * perTile;
}

// baseK of an m×n base block: the deepest multiple of the shallowest step whose two L0A and two
// L0B slots fit their buffers, no deeper than K (rounded up to a fractal row).
std::uint32_t l0FillingBaseK(const ChipConfig& chip, const MatmulProblem& p, std::uint64_t m, std::uint64_t n,
                             std::uint64_t kAlign) {
    const std::uint64_t eb = bytesOf(p.inputType);
    const std::uint64_t step = kStepBytesPerRow / eb;
    const std::uint64_t kCap = roundUp(p.k, kAlign);
    const std::uint64_t fitA = chip.bufferCapacity(MemSpace::L0A) / (2 * m * eb);
    const std::uint64_t fitB = chip.bufferCapacity(MemSpace::L0B) / (2 * n * eb);
    const std::uint64_t deepest = std::max(step, std::min(fitA, fitB) / step * step);
    return static_cast<std::uint32_t>(std::min(deepest, kCap));
}

// Buffer plan of the base block in `tiling`; sets tiling.chunkK, 0 when no K chunk fits L1.
void planBaseBlock(const ChipConfig& chip, const MatmulProblem& problem, MatmulTiling& tiling, CubeBufferPlan& plan,
                   std::uint64_t& biasL1Bytes) {
    const std::uint64_t eb = bytesOf(problem.inputType);
    biasL1Bytes = problem.hasBias ? roundUp(tiling.baseN * bytesOf(problem.biasType), kMatmulLocalAlignBytes) : 0;
    const std::uint64_t l1Budget = chip.bufferCapacity(MemSpace::L1) - std::min(chip.bufferCapacity(MemSpace::L1), biasL1Bytes);
    // Two slots of (A + B) chunks, each region rounded to its alignment, must fit the L1 budget;
    // the chunk is as deep as L1 allows (CANN's depthA1/depthB1 fill L1): fewer, larger ND2NZ
    // loads. The fit is exact: a 128×128 bf16 block takes 512-deep chunks, two 128 KiB loads per
    // slot filling a 512 KiB L1, the transfer size whose ND2NZ rate (114 B/cycle, hardware.md
    // §1.3) the K = 1024 Qwen3 GEMMs show (docs/fidelity.md "Mechanisms" §7).
    const auto slotBytes = [&](std::uint64_t depth) {
        return roundUp(tiling.baseM * depth * eb, kMatmulLocalAlignBytes) + roundUp(depth * tiling.baseN * eb, kMatmulLocalAlignBytes);
    };
    std::uint64_t chunk = 0;
    for (std::uint64_t depth = tiling.baseK; depth <= roundUp(problem.k, tiling.baseK) && 2 * slotBytes(depth) <= l1Budget;
         depth += tiling.baseK)
        chunk = depth;
    tiling.chunkK = static_cast<std::uint32_t>(chunk);

    plan.l1BOffset = roundUp(tiling.baseM * chunk * eb, kMatmulLocalAlignBytes);
    plan.l1SlotBytes = plan.l1BOffset + roundUp(chunk * tiling.baseN * eb, kMatmulLocalAlignBytes);
    plan.l1BiasAddr = 2 * plan.l1SlotBytes;
    plan.l0aSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseK * eb, kMatmulLocalAlignBytes);
    plan.l0bSlotBytes = roundUp(std::uint64_t{tiling.baseK} * tiling.baseN * eb, kMatmulLocalAlignBytes);
    plan.l0cSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.baseN * bytesOf(problem.accType), kMatmulLocalAlignBytes);
    plan.l0cSlots = 2 * plan.l0cSlotBytes <= chip.bufferCapacity(MemSpace::L0C) ? 2 : 1;
    planCoupledOutput(chip, plan, tiling.baseM, tiling.baseN, problem.outputType, problem.hasBias, problem.biasType);
    if (problem.hasEpilogueOperand) planCoupledEpilogueOperand(plan, tiling.baseM, tiling.baseN, problem.outputType);
}

// Resident A, as CANN's "AL1 full load": every A row a block reads (all its K chunks) stays in L1
// for the block's tiles (n is the fastest tile index), when the block's whole A share fits beside
// two B slots and the bias staging and a block runs several tiles; the pipeline then reads each
// m-tile's rows once. Shallower chunks, down to one L0 step, shrink the B slots until A fits.
// When the share does not fit, A is reloaded per tile: the Qwen3 K = 1024 GEMMs (rank 0, 52 tiles
// of 128×128 over 2–3 m-tiles per block, 768 KiB of A) keep MTE2 busy 0.80–0.83 of their time,
// as reloading A per tile does, not the 0.55 of a per-m-tile resident A (docs/fidelity.md
// "Mechanisms" §7). Not for matrix-vector shapes (fewer rows than a fractal): their A reads are a
// negligible share of the traffic, and shallower chunks would only add loads.
void planResidentA(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem, MatmulTiling& tiling,
                   CubeBufferPlan& plan, std::uint64_t biasL1Bytes) {
    const std::uint64_t nTiles = ceilDiv(problem.n, tiling.baseN);
    const std::uint64_t mRows = problem.batchCount() * ceilDiv(problem.m, tiling.baseM);
    const std::uint64_t tiles = mRows * nTiles;
    if (problem.m < kMatmulFractalRows || nTiles < 2 || !blocksRunSeveralTiles(op, chip, tiles)) return;
    // m-tiles the busiest block's contiguous tile range can touch.
    const std::uint64_t blockTiles = ceilDiv(tiles, chooseBlockDim(op, chip, tiles));
    const std::uint64_t blockMTiles = std::min(mRows, ceilDiv(blockTiles - 1, nTiles) + 1);
    const std::uint64_t eb = bytesOf(problem.inputType);
    for (std::uint64_t chunk = tiling.chunkK; chunk >= tiling.baseK; chunk -= tiling.baseK) {
        const std::uint64_t aChunkBytes = roundUp(tiling.baseM * chunk * eb, kMatmulLocalAlignBytes);
        const std::uint64_t bChunkBytes = roundUp(chunk * tiling.baseN * eb, kMatmulLocalAlignBytes);
        const std::uint64_t residentBytes = ceilDiv(problem.k, chunk) * aChunkBytes;
        if (2 * bChunkBytes + blockMTiles * residentBytes + biasL1Bytes > chip.bufferCapacity(MemSpace::L1)) continue;
        tiling.chunkK = static_cast<std::uint32_t>(chunk);
        plan.placeResidentA(bChunkBytes, aChunkBytes, blockMTiles * residentBytes);
        return;
    }
}
// K slices of an op that accumulates into its fp32 output atomically (matmul_split_k.h): only
// when its output tiles leave blocks idle or unevenly loaded, and without a bias (a slice would
// add it once per split). Each slice re-reads its A rows, so A is not kept resident.
void planAtomicKSlices(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                       MatmulTiling& tiling) {
    if (!op.boolAttr(kAccumulatesAtomicallyAttr, false) || problem.hasBias || problem.outputType != DataType::Fp32 ||
        problem.accType != DataType::Fp32)
        return;
    const std::uint64_t outputTiles =
        problem.batchCount() * ceilDiv(problem.m, tiling.baseM) * ceilDiv(problem.n, tiling.baseN);
    const std::uint64_t blocks = op.blockDim ? *op.blockDim : chip.aiCoreCount;
    const KSlices slices = leastWorkKSlices(outputTiles, blocks, problem.k, tiling.baseK);
    if (slices.splits <= 1) return;
    tiling.kSplits = slices.splits;
    tiling.sliceK = slices.sliceK;
}

// CANN's own chunk depth per operand for its base block (cannChunkDepths: A 512 and B 256 deep
// for 128×256 bf16, 128 KiB each) in place of one depth for both: pipeline chunks as deep as the
// shallower operand's, the deeper operand loaded once per `span` of them into two slots of its
// own. The K ≥ 2048 Qwen3 GEMMs otherwise ran 320-deep A + B chunks with a short last one
// (docs/fidelity.md §38). Keeps the plan when the depths are equal or the slots do not fit.
void planCannChunks(const ChipConfig& chip, const MatmulProblem& problem, MatmulTiling& tiling, CubeBufferPlan& plan,
                    std::uint64_t biasL1Bytes) {
    const CannChunkDepths depths = cannChunkDepths(chip, problem, tiling);
    if (depths.a == depths.b || depths.a == 0 || depths.b == 0) return;
    const std::uint64_t eb = bytesOf(problem.inputType);
    const std::uint64_t chunk = std::min(depths.a, depths.b);
    const std::uint64_t aSlotBytes = roundUp(tiling.baseM * depths.a * eb, kMatmulLocalAlignBytes);
    const std::uint64_t bSlotBytes = roundUp(depths.b * tiling.baseN * eb, kMatmulLocalAlignBytes);
    if (2 * (aSlotBytes + bSlotBytes) + biasL1Bytes > chip.bufferCapacity(MemSpace::L1)) return;
    tiling.chunkK = static_cast<std::uint32_t>(chunk);
    plan.aChunkSpan = static_cast<std::uint32_t>(ceilDiv(depths.a, chunk));
    plan.bChunkSpan = static_cast<std::uint32_t>(ceilDiv(depths.b, chunk));
    plan.l1BOffset = 0;
    plan.l1SlotBytes = bSlotBytes;
    plan.l1ASlotAddr = 2 * bSlotBytes;
    plan.l1ASlotBytes = aSlotBytes;
    plan.l1BiasAddr = plan.l1ASlotAddr + 2 * aSlotBytes;
}

// Resident broadcast B, as TBE's BatchMatMul runs a batch of FRACTAL_NZ products that share one B
// (the 910A's AdaptiveAvgPool2d LeftBatchMatMulV2: 8192 batches of [16,16]·[16,16] with a [1,1,16,16]
// B): the batch loop loads B once and each batch only its A. On c1e639ee level1 rank0 the row keeps
// MTE2 busy 81 cycles for each of a core's 256 batches, one 512 B load's worth at the loads' issue
// rate, where reloading B would be two (the grads' 103-128, docs/fidelity.md §67a, §85). When every
// tile reads the same B (B broadcast over every batch dim, one n-tile, the whole K in one slice) and
// a block runs several tiles, B's chunks stay in L1 above two A-only slots.
void planResidentB(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem, const MatmulTiling& tiling,
                   CubeBufferPlan& plan, std::uint64_t biasL1Bytes) {
    const bool bBroadcast = std::all_of(problem.bBatchStride.begin(), problem.bBatchStride.end(),
                                        [](std::uint64_t stride) { return stride == 0; });
    const std::uint64_t tiles = problem.batchCount() * ceilDiv(problem.m, tiling.baseM) * ceilDiv(problem.n, tiling.baseN);
    if (problem.batchCount() < 2 || !bBroadcast || problem.n > tiling.baseN || tiling.kSplits > 1 || plan.residentA ||
        plan.ownOperandSlots() || plan.sharesB() || !blocksRunSeveralTiles(op, chip, tiles))
        return;
    const std::uint64_t eb = bytesOf(problem.inputType);
    const std::uint64_t aSlotBytes = roundUp(std::uint64_t{tiling.baseM} * tiling.chunkK * eb, kMatmulLocalAlignBytes);
    const std::uint64_t bChunkBytes = roundUp(std::uint64_t{tiling.chunkK} * tiling.baseN * eb, kMatmulLocalAlignBytes);
    const std::uint64_t residentBytes = ceilDiv(problem.k, tiling.chunkK) * bChunkBytes;
    if (2 * aSlotBytes + residentBytes + biasL1Bytes > chip.bufferCapacity(MemSpace::L1)) return;
    plan.placeResidentB(2, aSlotBytes, bChunkBytes, residentBytes);
}

// TBE's GEMM kernel loads a core's whole B share into L1 once when it fits: CANN's cache tiling
// (ophost/matmul_tiling/cache_tiling.cc, GetL1Factors) weighs the full-load candidates —
// L1StatusBothFullLoad, L1StatusBl1FullLoad (bl1_full_load when the core's B over its whole K,
// Align(k) × n, fits l1_size) — against loading B per tile and takes the least load_size, which a B
// share read once always is (n against n × the m-tiles that reread it). The model's block is its
// contiguous tile range: when every tile is one chunk (the whole K in L1) and the distinct B
// n-tiles of the busiest block fit L1 beside the rest of the plan, they stay resident, all loaded
// with the block's first two loads (CubeBufferPlan::blockResidentB). Without it a block reads each
// n-tile's B as its tile comes, and a kernel whose stores stream past the L2 finds the B lines it
// reads late evicted by its own stores: [D] c1e639ee level1 rank0 (910A), the weight gradients (K =
// 32, 32 blocks) [4096, 4096] / [4096, 9216] / [1008, 4096] fp16 NZ keep MTE2 busy 0.099 / 0.162 /
// 0.058 where per-tile B reads gave 0.460 / 0.248 / 0.125, the later n-tiles' lines missing; with
// the full load 0.119 / 0.065 / 0.037 (docs/fidelity.md §137). On the coupled cores, whose every
// GEMM is TBE's (ops-nn's Ascend C mat_mul_v3 ships binaries for the 910B / 910_93 / 310P / 950
// classes, none for the 910A), and on the split cores for a GEMM dealt out as TBE's core grid
// (MatmulTiling::gridN, matmul_core_grid.h: a core's rectangle holds its B columns): a contiguous
// range on the split cores is not CANN's core share (the 910B2 weight gradient [1000, 4096] runs
// the 3 × 8 grid, B 2 n-tiles a core, where a range meets 6; loading those 6 with its first tile
// measured the row 0.949 → 1.089×, §137; §141). Facts read, no code taken.
void planBlockResidentB(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                        const MatmulTiling& tiling, CubeBufferPlan& plan, std::uint64_t biasL1Bytes) {
    const bool gridded = tiling.gridN > 0;
    if ((chip.organisation != CoreOrganisation::Coupled && !gridded) || problem.batchCount() != 1 ||
        tiling.kSplits > 1 || problem.k > tiling.chunkK || plan.residentB || plan.ownOperandSlots() || plan.sharesB() ||
        plan.l1Slots != 2)
        return;
    const std::uint64_t nTiles = ceilDiv(problem.n, tiling.baseN);
    const std::uint64_t tiles = ceilDiv(problem.m, tiling.baseM) * nTiles;
    if (!blocksRunSeveralTiles(op, chip, tiles)) return;
    // A contiguous range of the busiest block's length meets at most this many n-tiles; a core of
    // TBE's grid (matmul_core_grid.h) its rectangle's columns.
    const std::uint64_t regions =
        gridded ? ceilDiv(nTiles, tiling.gridN) : std::min(nTiles, ceilDiv(tiles, chooseBlockDim(op, chip, tiles)));
    const std::uint64_t bBytes =
        roundUp(std::uint64_t{tiling.chunkK} * tiling.baseN * bytesOf(problem.inputType), kMatmulLocalAlignBytes);
    if (plan.l1BiasAddr + regions * bBytes + biasL1Bytes > chip.bufferCapacity(MemSpace::L1)) return;
    plan.placeBlockResidentB(bBytes, regions);
}

// The batch loop of the 910A's TBE BatchMatMul keeps several batches' loads in flight: on
// c1e639ee level1 rank0 the AdaptiveAvgPool2dGrad BatchMatMuls (8192 batches of 16×16·16×16 fp16,
// 256 a core) take 150 cycles a batch for two 512 B loads, MTE2 busy 103–128 of them, where two
// L1 slots of one batch each would wait out the read latency every two batches: (2 × 55 + 310) / 2
// ≈ 210 (docs/fidelity.md §67). On a chip whose MTE2 keeps loads in flight (pipes.
// mte2_load_issue_cycles), a batched GEMM whose tiles are one chunk each and several a block goes
// round as many L1 slots as its loads need to cover the read latency at their issue rate —
// 1 + ceil(latency / (loads × issue)), 4 on the 910A for two loads a tile, 6 (the cap) for a
// resident B's one — up to kMaxL1Slots and what L1 holds beside a resident B.
void planLoadsAhead(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                    const MatmulTiling& tiling, CubeBufferPlan& plan) {
    const std::uint64_t loadsPerTile = plan.residentB ? 1 : 2;
    const std::uint64_t tileIssue = loadsPerTile * chip.mte2LoadIssueCycles;
    if (tileIssue == 0 || problem.batchCount() < 2 || plan.residentA || plan.ownOperandSlots() || plan.sharesB() ||
        (problem.hasBias && !plan.outputThroughUb) || tiling.kSplits > 1 || problem.k > tiling.chunkK)
        return;
    const std::uint64_t tiles = problem.batchCount() * ceilDiv(problem.m, tiling.baseM) * ceilDiv(problem.n, tiling.baseN);
    if (!blocksRunSeveralTiles(op, chip, tiles)) return;
    const std::uint64_t residentBBytes = plan.residentB ? plan.l1BiasAddr - plan.l1ResidentBAddr : 0;
    const std::uint64_t wanted = 1 + ceilDiv(chip.hbm.readLatencyCycles, tileIssue);
    const std::uint64_t fit = (chip.bufferCapacity(MemSpace::L1) - residentBBytes) / std::max<std::uint64_t>(1, plan.l1SlotBytes);
    const std::uint64_t slots = std::min({wanted, fit, std::uint64_t{kMaxL1Slots}});
    if (slots <= 2) return;
    if (plan.residentB) {
        plan.placeResidentB(static_cast<std::uint32_t>(slots), plan.l1SlotBytes, plan.l1ResidentBChunkBytes, residentBBytes);
        return;
    }
    plan.l1Slots = static_cast<std::uint32_t>(slots);
    plan.l1BiasAddr = slots * plan.l1SlotBytes;
}

// A true-fp32 GEMM on the split cores that CANN tiles on its small-shape path (no base block: M or
// N under 256) moves each step's B block L1 → L0B one 16-column fractal column per load, so the
// scalar unit issues ceil(n / 16) loads a step where the other plans move the block in one. Evidence,
// msinsight e5a31957 text/level2 rank0 (910B2, "HF32 Eligible NO"), real AIC scalar busy a core:
// the M = 32 MatMulV2 rows grow with K × the block's N fractals (K 4096 / N 256: 66.6 k and 69.9 k
// cycles, K 9216 / N 256 141 k, K 4096 / N 384 108 k, K 1000 / N 256 21.5 k; ≈ 1 cycle per K
// element per fractal, one 29-cycle issue per 32-deep step and fractal), where the model's one
// load a step gave 0.4–0.5 of it; the weight gradients on CANN's base block (K = 32, one step a
// tile) spend ~550 cycles a tile, what one load a step gives, so they keep it (docs/fidelity.md
// §97). Each load is its own MTE1 instruction (loadStepBByFractalColumns), so MTE1 also pays each
// one's fixed cost on the L1 → L0B curve: the M = 32 rows' real MTE1 moves B at 65-97 B/cycle a
// core where one load of the step's whole block ran at the curve's 123-128; one 2 KiB column a load
// takes the model to 0.75-0.82 of the real MTE1 busy, from 0.58-0.72 (docs/fidelity.md §130).
bool loadsBOneFractalColumnAtATime(const ChipConfig& chip, const MatmulProblem& problem, bool cannBaseBlockTaken) {
    return problem.mmadType == DataType::Fp32 && !cannBaseBlockTaken && chip.organisation == CoreOrganisation::Split;
}

// Whether C's FixPipe stores wait for the cube on a plain event and are issued after it
// (CubeBufferPlan::storesWithoutUnitFlag) rather than ahead under the mmad unit flag (§34): TBE's
// kernel (matmul_tbe_kernel.h) — a CANN MatMulV2 row, or a GEMM the model gives TBE's small-shape
// tiling (the same GEMMs as above, §119) — on the split cores; the coupled cores store through UB.
// FixPipe busy is then the store alone. [D] msinsight e5a31957 text/level2 rank0 (910B2): the six
// M = 32 MatMulV2 rows' real aic_fixpipe is 0.001-0.024 of their time (fc8 forward [32,4096] ·
// [1000,4096]ᵀ 0.007, where counting the wait for its last chunk's mmads gave 0.212), the weight
// gradient [32,1000]ᵀ · [32,4096] 0.299 (0.732 with the wait, 0.329 without); ef63bc64 level2 (Qwen3,
// held out) MatMulV2 [4096,4096] · [4096,1024] bf16 0.066-0.082 (0.125 with the wait, 0.039 without).
// A counter only, as for TBE's convolutions (§122): times do not change (docs/fidelity.md §125).
bool storesAfterTheCube(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                        bool cannBaseBlockTaken) {
    if (chip.organisation != CoreOrganisation::Split) return false;
    return op.boolAttr(kTbeKernelAttr, false) || loadsBOneFractalColumnAtATime(chip, problem, cannBaseBlockTaken);
}

// Base blocks to choose among, best first, and whether the first that fits is taken outright. The
// legacy N split (matmul_legacy_n_split.h) gives each core one share of N; its base tile is the
// widest whole number of fractals up to 256 columns that divides the share, so that the blocks'
// contiguous tile ranges are the shares (fc8's 48 columns a core on 21, dX fc6's 384 as two 192s).
std::vector<std::pair<std::uint32_t, std::uint32_t>> baseBlockCandidates(
    const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem, bool cannBlock,
    bool& firstFitWins) {
    firstFitWins = false;
    if (loadsBOneFractalColumnAtATime(chip, problem, cannBlock)) {
        const std::uint64_t baseM = kBaseBlocks.back().first;
        if (const auto share = legacyBlockShareN(op, chip, problem, baseM)) {
            std::vector<std::pair<std::uint32_t, std::uint32_t>> blocks;
            const std::uint64_t shareFractals = *share / kMatmulFractalRows;
            for (std::uint64_t d = std::min<std::uint64_t>(
                     shareFractals, kBaseBlocks.front().second / kMatmulFractalRows);
                 d >= 1; --d)
                if (shareFractals % d == 0)
                    blocks.emplace_back(static_cast<std::uint32_t>(baseM),
                                        static_cast<std::uint32_t>(d * kMatmulFractalRows));
            firstFitWins = true;
            return blocks;
        }
    }
    return {kBaseBlocks.begin(), kBaseBlocks.end()};
}

// Every block reads all of A at the same K depth when the GEMM has one m-tile and the blocks split
// N (no batch, no K slices): the blocks running at once then ask L2 for each A line together and
// take turns on it (shared_line_requests.h, l2.same_line_read_cycles), as the L2-tile rounds of
// CANN's base kernel do (§111). [D] msinsight e5a31957 text/level2 rank0 (910B2): the M = 32 dX
// GEMMs whose weight L2 holds keep MTE2 busy 0.911 (32×4096 · 4096×4096, 16 cores) and 0.737
// (32×1000 · 1000×4096) where the model's reads alone gave 0.619 / 0.568; with the 16 readers'
// turns 0.955 / 0.826 (docs/fidelity.md §119). No constant: the chip's turn and requests in flight.
float sharedALineReaders(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                         const MatmulTiling& tiling, bool cannBlock) {
    if (cannBlock || chip.mte2LineRequestsInFlight == 0 || problem.batchCount() != 1 ||
        tiling.kSplits > 1 || problem.m > tiling.baseM)
        return 0.0f;
    const std::uint64_t nTiles = ceilDiv(problem.n, tiling.baseN);
    return static_cast<float>(std::min<std::uint64_t>(chooseBlockDim(op, chip, nTiles), nTiles));
}
}  // namespace

void planMatmul(const OpInstance& op, const ChipConfig& chip, const MatmulProblem& problem,
                MatmulTiling& tiling, CubeBufferPlan& plan) {
    const std::uint64_t eb = bytesOf(problem.inputType);
    const std::uint64_t kAlign = std::max<std::uint64_t>(1, kFractalRowBytes / eb);  // one fractal row of K
    bool found = false;
    double bestCycles = 0.0;
    MatmulTiling last;
    CubeBufferPlan lastPlan;
    std::uint64_t lastBiasL1 = 0, bestBiasL1 = 0;
    bool cannsBlockChosen = false;
    const auto cann = cannBaseBlock(chip, problem);
    bool firstFitWins = false;
    auto candidates = baseBlockCandidates(op, chip, problem, cann.has_value(), firstFitWins);
    // TBE's kernel deals a GEMM whose whole K is one L0 step out as its core grid, on tiles that
    // divide the cores' shares (matmul_core_grid.h, docs/fidelity.md §141).
    std::optional<MatmulCoreGrid> grid;
    if (storesAfterTheCube(op, chip, problem, cann.has_value())) grid = tbeCoreGrid(op, chip, problem);
    if (grid && roundUp(problem.k, kAlign) > l0FillingBaseK(chip, problem, grid->baseM, grid->baseN, kAlign))
        grid.reset();
    if (grid) candidates.insert(candidates.begin(), {grid->baseM, grid->baseN});
    // TBE's kernel (the same GEMMs as its plain-event stores) in CANN's unaligned pattern moves each
    // operand fractal by itself (matmul_fractal_loads.h, docs/fidelity.md §132), in steps of whole
    // 512 B L0 rows.
    const bool fractalLoads = storesAfterTheCube(op, chip, problem, cann.has_value()) && runsCannUnalignedPattern(problem);
    for (const auto& [m, n] : candidates) {
        if (found && firstFitWins) break;
        MatmulTiling candidate;
        candidate.baseM = static_cast<std::uint32_t>(std::min<std::uint64_t>(m, roundUp(problem.m, kMatmulFractalRows)));
        candidate.baseN = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, roundUp(problem.n, kMatmulFractalRows)));
        candidate.baseK = l0FillingBaseK(chip, problem, candidate.baseM, candidate.baseN, kAlign);
        if (fractalLoads)
            candidate.baseK = static_cast<std::uint32_t>(wholeL0RowsStepDepth(candidate.baseK, problem.inputType));
        CubeBufferPlan candidatePlan;
        std::uint64_t biasL1Bytes = 0;
        planBaseBlock(chip, problem, candidate, candidatePlan, biasL1Bytes);
        last = candidate;
        lastPlan = candidatePlan;
        lastBiasL1 = biasL1Bytes;
        const std::uint64_t biasTableBytes = problem.hasBias ? std::uint64_t{candidate.baseN} * 4 : 0;
        if (candidate.chunkK == 0 || !planFits(chip, candidatePlan, biasL1Bytes, biasTableBytes)) continue;
        // CANN's own base block wins whenever it fits; the estimate ranks the others.
        // The grid's tile, first, wins whenever it fits, as CANN's own base block does.
        const bool gridBlock = grid && grid->baseM == m && grid->baseN == n;
        const bool cannsBlock = !grid && cann && cann->first == m && cann->second == n;
        const double cycles = cannsBlock || gridBlock
                                  ? -1.0
                                  : busiestCoreCycles(op, chip, problem, candidate, candidatePlan.l0cSlots);
        if (found && cycles >= bestCycles) continue;
        found = true;
        bestCycles = cycles;
        tiling = candidate;
        plan = candidatePlan;
        bestBiasL1 = biasL1Bytes;
        cannsBlockChosen = cannsBlock;
    }
    if (!found) {
        if (last.chunkK == 0) throwLoweringError(op, "no K chunk of the base block fits L1");
        checkPlanFits(op, chip, lastPlan, lastBiasL1, problem.hasBias ? std::uint64_t{last.baseN} * 4 : 0);
    }
    plan.storesWithoutUnitFlag = storesAfterTheCube(op, chip, problem, cann.has_value());
    if (fractalLoads) {
        tiling.fractalLoadIssueCycles = chip.scalarCyclesPerInstructionAic;
        const FractalMovedOperands moved = operandsMovedByFractals(problem);
        tiling.fractalLoadsA = moved.a;
        tiling.fractalLoadsB = moved.b;
        // [D] The unaligned kernel runs its L0C tiles one after another: e5a31957 text/level2 rank0
        // (910B2), the weight gradient [32,1000]ᵀ · [32,4096] (six 112 × 256 tiles a core) keeps its
        // pipes busy 0.373 scalar + 0.221 MTE2 + 0.107 MTE1 + 0.232 MAC + 0.299 FixPipe = 1.23 of its
        // time (DB export 1.17): next to nothing overlaps, where the aligned weight gradient
        // [32,4096]ᵀ · [32,4096] of the same run overlaps to 1.88 (docs/fidelity.md §158).
        plan.tilesOneAfterAnother = true;
    } else if (loadsBOneFractalColumnAtATime(chip, problem, cann.has_value()))
        tiling.bColumnLoadIssueCycles = chip.scalarCyclesPerInstructionAic;
    planAtomicKSlices(op, chip, problem, tiling);
    if (grid && found && tiling.baseM == grid->baseM && tiling.baseN == grid->baseN && tiling.kSplits == 1 &&
        problem.k <= tiling.chunkK) {
        tiling.gridM = grid->m;
        tiling.gridN = grid->n;
    }
    if (tiling.kSplits == 1) planResidentA(op, chip, problem, tiling, plan, bestBiasL1);
    if (cannsBlockChosen && !plan.residentA) planCannChunks(chip, problem, tiling, plan, bestBiasL1);
    planBlockResidentB(op, chip, problem, tiling, plan, bestBiasL1);
    // CANN's base kernel on its own block hands the tiles to the cores in its L2-tile rounds: the
    // loads carry how many cores read their lines at once (docs/fidelity.md §111).
    if (cannsBlockChosen && tiling.kSplits == 1 && chip.mte2LineRequestsInFlight > 0 && !problem.aFractal &&
        !problem.bFractal)
        tiling.roundReaders = std::make_shared<const CannRoundReaders>(
            cannRoundReaders(chip, problem, tiling.baseM, tiling.baseN));
    tiling.aLineReaders = sharedALineReaders(op, chip, problem, tiling, cannsBlockChosen);
    planResidentB(op, chip, problem, tiling, plan, bestBiasL1);
    planLoadsAhead(op, chip, problem, tiling, plan);
}

}  // namespace ascendsim
