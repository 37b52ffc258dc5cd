#pragma once
// The shared cube pipeline of every cube kernel (MatMul, BatchMatMul, convolutions): output tiles
// accumulated in L0C over a reduction split into L1 chunks and L0 steps, with the double
// buffering and flags of a real Ascend C matmul (hardware.md §2.3–§2.4):
//   MTE2  GM→L1 chunk (2 L1 slots; MTE1→MTE2 "free", MTE2→MTE1 "ready"), issued one chunk ahead
//         (preload) so the load overlaps the cube steps of the chunk before it. With a resident A
//         (CubeBufferPlan::residentA) the slots hold B only and A's chunks stay in their own L1
//         region for every following tile with the same A (MTE1→MTE2 "A free" after its last read);
//         with a resident broadcast B (CubeBufferPlan::residentB) the slots hold A only and B is
//         loaded once a block
//         With chunks of their own depth per operand (CubeBufferPlan::aChunkSpan/bChunkSpan, CANN's
//         stepKa ≠ stepKb) A has two L1 slots of its own and the slots above hold B only; an operand
//         whose chunks span several pipeline chunks is loaded on the first of them and freed after
//         the last (MTE1→MTE2 "free", MTE2→MTE1 "ready" per slot, A's on event ids 4/5)
//   MTE1  L1→L0A/L0B step (2 L0 slots; M→MTE1 "free", MTE1→M "ready")
//   M     mmad into L0C (1–2 L0C slots; FIX→M "free", M→FIX "ready"), bias from BT
//   FIX   L0C→GM with conversion
// Coupled chips (910, 310P: hardware.md §2.1/§2.3) have no L0C→GM path: there the output leaves
// through UB instead of FIX:
//   V     L0C→UB with conversion (M→V "ready", V→M "free"), bias added by a vector add
//   MTE3  UB→GM (2 UB staging slots; V→MTE3 "ready", MTE3→V "free")
// and the bias is staged GM→UB by MTE2 (2 slots; MTE2→V "ready", V→MTE2 "free"): no BT there.
// Ops describe their data paths through CubeOperands; the pipeline owns loops, buffers, flags.
#include <cstdint>
#include <memory>

#include "models/chip/chip_config.h"
#include "models/kernels/kernel_registry.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/tiling_arithmetic.h"

namespace ascendsim {

// Most L1 slots a cube plan can go round: one MTE2↔MTE1 event id each, ids 0–5 (6 and 7 are left
// to the framework, hardware.md §2.4), so only a plan whose other L1 buffers take no id of that pipe
// pair (no resident A, no own A slots, no bias staged in L1) has more than two.
inline constexpr std::uint32_t kMaxL1Slots = 6;

// Local-buffer layout of a cube kernel, fixed at lowering time.
struct CubeBufferPlan {
    std::uint64_t l1SlotBytes = 0;   // one L1 ping-pong slot holds an A chunk then a B chunk (B only with a resident A)
    std::uint64_t l1BOffset = 0;     // B chunk offset inside a slot (0 with a resident A)
    // 2: ping-pong; 1: a chunk loads only after the last one was used; more (up to kMaxL1Slots):
    // tiles of one chunk each whose loads run l1Slots − 1 tiles ahead of the cube (a batched GEMM of
    // tiny tiles on a chip whose MTE2 keeps loads in flight, planMatmul). The slots are l1SlotBytes
    // apart from L1's start.
    std::uint32_t l1Slots = 2;
    // The FixPipe store waits for the cube on a plain event, issued after the wait, not as a
    // unit-flag store in flight (Flag::unitFlag): CANN's arch22 convolution-gradient kernels
    // (docs/fidelity.md §115).
    bool storesWithoutUnitFlag = false;
    // Each tile's work is issued only once the tile before it is stored (a PIPE_ALL barrier after
    // the store): TBE's GEMM kernel in CANN's unaligned pattern (planMatmul, docs/fidelity.md §158).
    bool tilesOneAfterAnother = false;
    // Resident A ("AL1 full load" of CANN's cube tiling): the whole reduction of a tile's A rows
    // stays in L1, chunk c at l1ResidentAAddr + c·l1ResidentAChunkBytes, loaded once for a run
    // of consecutive tiles with the same CubeOperands::aRowsOf; the slots then hold B chunks only.
    bool residentA = false;
    std::uint64_t l1ResidentAAddr = 0;
    std::uint64_t l1ResidentAChunkBytes = 0;
    // The resident-A layout: two B-only slots of bSlotBytes from L1's start, A's chunks of
    // aChunkBytes just above them, the bias staged after residentABytes of A.
    void placeResidentA(std::uint64_t bSlotBytes, std::uint64_t aChunkBytes, std::uint64_t residentABytes) {
        residentA = true;
        l1BOffset = 0;
        l1SlotBytes = bSlotBytes;
        l1ResidentAAddr = 2 * bSlotBytes;
        l1ResidentAChunkBytes = aChunkBytes;
        l1BiasAddr = l1ResidentAAddr + residentABytes;
    }
    // Resident broadcast B (CANN's "BL1 full load" of a B that every tile of the op reads: TBE's
    // BatchMatMul of FRACTAL_NZ batches with one B shared by all of them): B's whole reduction stays
    // in L1, chunk c at l1ResidentBAddr + c·l1ResidentBChunkBytes, loaded with the block's first
    // tile and read by every later one, so it needs no flag of its own (the first slot's ready flag
    // covers its load, and nothing overwrites it); the slots hold A chunks only. The planner sets
    // it only when every tile reads the same B. Not with a resident A, own-slot A or shared B.
    bool residentB = false;
    std::uint64_t l1ResidentBAddr = 0;
    std::uint64_t l1ResidentBChunkBytes = 0;
    // The resident-B layout: `slots` A-only slots of aSlotBytes from L1's start, B's chunks of
    // bChunkBytes above them, the bias staged after residentBBytes of B.
    void placeResidentB(std::uint32_t slots, std::uint64_t aSlotBytes, std::uint64_t bChunkBytes,
                        std::uint64_t residentBBytes) {
        residentB = true;
        l1Slots = slots;
        l1BOffset = 0;
        l1SlotBytes = aSlotBytes;
        l1ResidentBAddr = slots * aSlotBytes;
        l1ResidentBChunkBytes = bChunkBytes;
        l1BiasAddr = l1ResidentBAddr + residentBBytes;
    }
    // B of the block's tiles resident (TBE's "BL1 full load" of a core's B share, matmul_plan.cpp):
    // every tile is one chunk, and every distinct B a block's tiles read (CubeOperands::bColumnsOf,
    // the whole reduction) stays in L1, the i-th the block meets at l1BlockBAddr + i·l1BlockBBytes:
    // the first tile's load brings its own, the second tile's all the others, each before its slot's
    // "ready" flag (MTE2 runs in order, so the flags of the later tiles cover them; nothing
    // overwrites them, so they need no flag of their own). The slots then carry only A (nothing with
    // a resident A). Not with a resident B (whole or in runs), own-slot A or shared B.
    bool blockResidentB = false;
    std::uint64_t l1BlockBAddr = 0;
    std::uint64_t l1BlockBBytes = 0;
    // The block-resident-B layout: `regions` regions of bBytes where the bias staging was, the
    // bias staged after them.
    void placeBlockResidentB(std::uint64_t bBytes, std::uint64_t regions) {
        blockResidentB = true;
        l1BlockBAddr = l1BiasAddr;
        l1BlockBBytes = bBytes;
        l1BiasAddr = l1BlockBAddr + regions * bBytes;
    }
    // Resident B of a run of tiles (CANN's ORDER_N loop of the split cube's filter gradient: the x
    // band of a column tile stays in L1 while its co tiles run, asc-devkit conv3d_bp_filter_func.h):
    // the whole reduction of a tile's B stays in L1, chunk c at l1ResidentBAddr +
    // c·l1ResidentBChunkBytes, loaded once for a run of consecutive tiles with the same
    // CubeOperands::bColumnsOf and freed after the run's last read; the slots hold A chunks only.
    // The mirror of residentA; not with it, own-slot A, a shared B or a block-wide resident B.
    bool residentBRuns = false;
    // 1: the next run's B loads once the last tile of the run before has read its region; 2: two
    // regions, the next run's B loads into the other while the run before computes.
    std::uint32_t residentBRunRegions = 1;
    std::uint64_t l1ResidentBRunBytes = 0;  // one region
    // The layout: two A-only slots of aSlotBytes from L1's start, `regions` regions of residentBBytes
    // above them (B's chunks bChunkBytes apart), the bias staged after them.
    void placeResidentBRuns(std::uint64_t aSlotBytes, std::uint64_t bChunkBytes, std::uint64_t residentBBytes,
                            std::uint32_t regions) {
        placeResidentB(2, aSlotBytes, bChunkBytes, regions * residentBBytes);
        residentB = false;  // resident per run, not for the whole block
        residentBRuns = true;
        residentBRunRegions = regions;
        l1ResidentBRunBytes = residentBBytes;
    }
    // Chunks of their own depth per operand: one A load spans aChunkSpan pipeline chunks, one B
    // load bChunkSpan (at most one of them above 1; 1 and 1 = one slot holds an A and a B chunk).
    // With a span above 1, A sits in its own two slots of l1ASlotBytes from l1ASlotAddr and the
    // slots above hold B only (l1BOffset 0). Not with a resident A.
    std::uint32_t aChunkSpan = 1;
    std::uint32_t bChunkSpan = 1;
    std::uint64_t l1ASlotAddr = 0;
    std::uint64_t l1ASlotBytes = 0;
    bool ownOperandSlots() const { return aChunkSpan > 1 || bChunkSpan > 1; }
    // A straight from GM, B shared (the 910A forward convolution's per-image schedule, TBE v100
    // conv tiling with an empty weight L1 buffer): with aFromGm A never enters L1 — each step's A
    // moves GM→L0A on MTE2 (CubeOperands::loadStepAFromGm) into one L0A buffer, so the cube and
    // that load take turns — and the L1 slots hold B only (l1BOffset 0). Up to tilesSharingB
    // consecutive tiles of a block with equal CubeOperands::bColumnsOf run as one group, each
    // accumulating in its own L0C region (l0cSlotBytes apart): every L0 step loads B into L0B once
    // and then, tile by tile, A's step and its mmad. Not with a resident A or a bias.
    std::uint32_t tilesSharingB = 1;
    bool aFromGm = false;
    bool sharesB() const { return aFromGm; }
    std::uint64_t l1BiasAddr = 0;    // bias staging in L1 (after the slots and a resident A)
    std::uint64_t l0aSlotBytes = 0;
    std::uint64_t l0bSlotBytes = 0;
    std::uint64_t l0cSlotBytes = 0;
    std::uint32_t l0cSlots = 1;
    // Coupled chips only (planCoupledOutput): the output goes L0C→UB→GM through two UB slots.
    bool outputThroughUb = false;
    std::uint64_t ubSlotBytes = 0;      // one staging slot: tile rows × 32 B-aligned row
    std::uint64_t ubBiasAddr = 0;       // two bias slots, each a slice as loaded (bias dtype)
    std::uint64_t ubBiasSlotBytes = 0;
    std::uint64_t ubBiasCastAddr = 0;   // bias slice in the output dtype (when the dtypes differ)
    std::uint64_t ubBytes = 0;          // total UB the kernel uses
    // Coupled chips, a fused elementwise epilogue (planCoupledEpilogueOperand): two UB slots of the
    // operand's tile, loaded GM→UB with every output tile (cube_epilogue_operand.h).
    std::uint64_t ubEpilogueAddr = 0;
    std::uint64_t ubEpilogueSlotBytes = 0;
};

// The bias slice of one output tile: `elements` values of `dtype` at GM `gmAddr`, one per
// output column of the tile.
struct CubeBiasSlice {
    std::uint64_t gmAddr = 0;
    DataType dtype = DataType::Fp16;
    std::uint32_t elements = 0;
};

// A span of the reduction: its first index and its length.
struct CubeReduceRange {
    std::uint64_t start = 0;
    std::uint32_t length = 0;
};

// One L1 chunk / L0 step of the reduction, as the operands see it.
struct CubeStep {
    std::uint32_t chunk = 0;       // chunk index within the tile
    std::uint64_t chunkStart = 0;  // reduction index of the chunk's first element
    std::uint32_t chunkLength = 0;
    // The A and the B chunk in L1 that hold this chunk: the chunk itself unless an operand's
    // loads span several chunks (CubeBufferPlan::aChunkSpan/bChunkSpan).
    CubeReduceRange a, b;
    std::uint32_t offset = 0;      // step start relative to the chunk
    std::uint32_t length = 0;      // step length (mmad k)
};

// Where a chunk's operands sit in L1.
struct CubeL1Chunk {
    std::uint64_t a = 0;
    std::uint64_t b = 0;
};

// Op-specific data paths. `tile` is an op-defined global tile index.
class CubeOperands {
public:
    virtual ~CubeOperands() = default;
    virtual std::uint64_t tileCount() const = 0;
    // Output tile extent (mmad m, n) of `tile`.
    virtual std::uint32_t tileM(std::uint64_t tile) const = 0;
    virtual std::uint32_t tileN(std::uint64_t tile) const = 0;
    // Reduction chunks of `tile`: how many, and the start/length of chunk c.
    virtual std::uint32_t chunkCount(std::uint64_t tile) const = 0;
    virtual void chunk(std::uint64_t tile, std::uint32_t c, std::uint64_t& start, std::uint32_t& length) const = 0;
    // MTE2: the A and the B part of a chunk, GM→L1 at `l1Addr`.
    virtual void loadChunkA(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const = 0;
    virtual void loadChunkB(std::uint64_t tile, const CubeStep& step, std::uint64_t l1Addr, ProgramBuilder& b) const = 0;
    // MTE1: fill L0A/L0B for a step; fills in the mmad's operand fields (transposes, dtype).
    virtual void loadStep(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0aAddr,
                          std::uint64_t l0bAddr, Mmad& mmad, ProgramBuilder& b) const = 0;
    // Tiles with equal values read the same A (rows and whole reduction); only asked when the plan
    // keeps A resident, which reloads it when this changes from one tile to the next.
    virtual std::uint64_t aRowsOf(std::uint64_t tile) const { return tile; }
    // The tiles block `block` of `blockDim` runs: [first, first + count). Default: equal contiguous
    // shares (blockTileRange). Operands whose tiles come in groups of unequal size that must stay on
    // one block each (the filter gradient's reduction splits) override it.
    virtual void blockTiles(std::uint32_t blockDim, std::uint32_t block, std::uint64_t& first,
                            std::uint64_t& count) const;
    // Tiles with equal values read the same B (columns and whole reduction); only asked when the
    // plan shares B (CubeBufferPlan::sharesB), which groups consecutive tiles by it, or keeps runs of
    // them resident (CubeBufferPlan::residentBRuns), which reloads B when this changes.
    virtual std::uint64_t bColumnsOf(std::uint64_t tile) const { return tile; }
    // The two halves of loadStep for plans that share B: MTE1 fills L0B from the L1 chunk (and sets
    // the mmad's B fields); MTE2 moves the step's A from GM into L0A (and sets the A fields).
    // Only operands whose planner sets CubeBufferPlan::sharesB implement them.
    virtual void loadStepB(std::uint64_t tile, const CubeStep& step, const CubeL1Chunk& l1, std::uint64_t l0bAddr,
                           Mmad& mmad, ProgramBuilder& b) const;
    virtual void loadStepAFromGm(std::uint64_t tile, const CubeStep& step, std::uint64_t l0aAddr, Mmad& mmad,
                                 ProgramBuilder& b) const;
    // Bias along the tile's n: MTE2 GM→L1 staging, then MTE1 L1→BT (fp32/int32 in BT).
    virtual bool hasBias() const { return false; }
    virtual void loadBias(std::uint64_t, std::uint64_t /*l1Addr*/, ProgramBuilder&) const {}
    virtual void moveBiasToTable(std::uint64_t, std::uint64_t /*l1Addr*/, std::uint64_t /*btAddr*/,
                                 ProgramBuilder&) const {}
    // The GM bias values of a tile (coupled chips add them in UB); only called when hasBias().
    virtual CubeBiasSlice biasSlice(std::uint64_t) const { return {}; }
    // A fused elementwise epilogue's second operand (TBE's UB fusion of a Mul after the matmul,
    // cube_epilogue_operand.h): its GM→UB load of `tile`'s elements, rows as the output's rows;
    // only asked on coupled chips when hasEpilogueOperand().
    virtual bool hasEpilogueOperand() const { return false; }
    virtual DataMove epilogueOperandLoad(std::uint64_t /*tile*/, std::uint64_t /*ubAddr*/) const { return {}; }
    // The FixPipe move that writes the L0C tile at `l0cAddr` to GM (burstCount rows of burstBytes
    // accumulator bytes, converting srcType → dstType). Split chips execute it as is; coupled
    // chips split it into L0C→UB (vector pipe) and UB→GM (MTE3) with the same GM placement.
    virtual DataMove storeMove(std::uint64_t tile, std::uint64_t l0cAddr) const = 0;
};

struct CubeStepSizes {
    std::uint32_t baseK = 64;  // mmad k per L0 step (elements)
};

// The program of one block: tiles [firstTile, firstTile+tiles) of `operands`.
std::unique_ptr<InstructionStream> makeCubeBlockStream(std::shared_ptr<const CubeOperands> operands,
                                                       CubeBufferPlan plan, CubeStepSizes sizes,
                                                       std::uint64_t firstTile, std::uint64_t tiles);

// Shared cube lowering helpers (own namespace; the two it shares with the vector kernels are the
// same functions, declared once for both).
namespace cube {
using ascendsim::ceilDiv;  // one definition for both families (tiling_arithmetic.h)
std::uint64_t roundUp(std::uint64_t value, std::uint64_t multiple);

// Block dimension like CANN: the tiles spread over the AI cores (never more blocks than tiles),
// or the op's override. Throws LoweringError for 0 or > 65535.
std::uint32_t chooseBlockDim(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles);
// True when a block runs more than one of `tiles` (block_dim as chooseBlockDim): only then can a
// resident operand serve a second tile.
bool blocksRunSeveralTiles(const OpInstance& op, const ChipConfig& chip, std::uint64_t tiles);
// Tiles of block `block` when `tiles` are split into `blockDim` contiguous ranges.
void blockTileRange(std::uint64_t tiles, std::uint32_t blockDim, std::uint32_t block,
                    std::uint64_t& first, std::uint64_t& count);

// A lowered AI-core kernel whose block b runs tiles CubeOperands::blockTiles(b) of `operands`.
LoweredKernel makeCubeKernel(const OpInstance& op, const ChipConfig& chip,
                             std::shared_ptr<const CubeOperands> operands, const CubeBufferPlan& plan,
                             CubeStepSizes sizes);

// On a coupled chip, lays out the UB staging of output tiles of at most `maxRows` × `maxColumns`
// `outputType` elements (+ a bias slice of `biasType` when `hasBias`) and sets
// plan.outputThroughUb; does nothing on split chips. Call before checkPlanFits.
void planCoupledOutput(const ChipConfig& chip, CubeBufferPlan& plan, std::uint32_t maxRows,
                       std::uint32_t maxColumns, DataType outputType, bool hasBias, DataType biasType);

// On a coupled chip with plan.outputThroughUb, two UB slots for a fused epilogue operand's tile of
// at most `maxRows` × `maxColumns` `dtype` elements after the output staging (and bias).
void planCoupledEpilogueOperand(CubeBufferPlan& plan, std::uint32_t maxRows, std::uint32_t maxColumns, DataType dtype);

// True when a plan fits the chip's buffers (same rules as checkPlanFits).
bool planFits(const ChipConfig& chip, const CubeBufferPlan& plan, std::uint64_t biasL1Bytes,
              std::uint64_t biasTableBytes);
// Checks that a plan fits the chip's buffers; throws LoweringError naming the op otherwise.
// On coupled chips the bias goes through UB, so biasL1Bytes/biasTableBytes are not required.
void checkPlanFits(const OpInstance& op, const ChipConfig& chip, const CubeBufferPlan& plan,
                   std::uint64_t biasL1Bytes, std::uint64_t biasTableBytes);

using ascendsim::throwLoweringError;  // op_instance.h
}  // namespace cube
// NOLINTNEXTLINE: the cube kernel files call these helpers unqualified; the names both families
// share (ceilDiv, throwLoweringError) are the same functions, so a file that sees vector_tiling.h too
// finds one of each.
using namespace cube;

}  // namespace ascendsim
