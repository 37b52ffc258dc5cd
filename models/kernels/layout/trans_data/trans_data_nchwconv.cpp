// TransData NCHW ↔ NC1HWC0 by vnchwconv (VectorOp::NchwConv), as CANN's kernels do it: a channel
// block of C0 channel rows is loaded as C0 rows of H·W elements, and every 512 B of positions
// becomes C0 cells by one transpose repeat (where a Gather moves 256 B in 24 cycles). The way back
// transposes the cells into C0 channel rows.
// - 16-bit data (C0 = 16): one 16 × 16 repeat per 16 positions. Evidence: the 910A sample's fp16
//   conversions keep the vector unit 0.05–0.2 busy (msinsight c1e639ee level1 rank0, e.g.
//   [32,256,13,13] vec_time 0.43 µs per core for 169 repeats of 512 B), which per-repeat Gather
//   cost (vec 0.9–1.0 simulated) cannot give.
// - 32-bit data on the parts whose vnchwconv takes 32-bit elements (docs/fidelity.md §65): CANN
//   8.1 sends NCHW ↔ NC1HWC0 to its DSL TransData (tbe/impl/dynamic/trans_data.py), whose schedule
//   emits one `vector_transpose` in vnchwconv's 32-bit mode where `Intrinsic_vnchwconv` lists
//   float32 (platform_config Ascend910B2.ini; not Ascend910A.ini). A repeat transposes 16 blocks of
//   8 elements: C0 = 8 takes 8 channel rows × 16 positions (the two 8-position halves are the two
//   source groups, the 16 cells of 32 B the destination pairs), C0 = 16 (the MaxPool kernels'
//   NC1HWC0:1) 16 channel rows × 8 positions into 8 cells of 64 B. The AlexNet 910B2 rows keep the
//   vector unit 0.04–0.18 busy where the Gather permutation had it 0.5–0.95.
//
// Work units: a channel block whose rows fit a tile is one unit, and several of them are packed
// into one tile (contiguous in GM on both sides when C is a multiple of C0); a longer H·W is cut
// into column chunks, one unit each. The planar side's UB row pitch is an odd number of 32 B
// blocks, so the rows one repeat reads fall in different bank groups (hardware.md §2.6).
// A C that is not a multiple of C0 (an image stem's C = 3) loads the real channels of the last
// block and fills the rest with zeros before the transpose, one block per tile.
//
// 32-bit data on the 220x parts runs as CANN's DSL schedules it (NchwConvLayout::dslSchedule;
// docs/fidelity.md §112): each block first picks its tiling case on the scalar unit
// (kDslTransDataDispatchScalarCycles); the DSL's TransData schedules (tbe/dsl/unify_schedule/
// vector/transdata/sch/transdata_forward_schedule.py, transdata_backward_schedule.py) never
// double-buffer, so every queue has one buffer. The way back runs a tile's steps one after another —
// the load waits for the previous tile's store (its rows' MTE2 + MTE3 + V + scalar ratios add up to
// 0.71–0.97 of their time, §74e / §87f / §164b). The way in does not wait for the store: the forward
// schedule's load buffer (reused by pad and reshape, `_do_mem_reused`) and the transpose's output
// are two buffers, so TVM's flags order the next load after this tile's vnchwconv and the next
// vnchwconv after this store, and the next load runs beside this store (the chip's pipe sums
// 1.17–1.52 on the big planes, §164b). The way back has the backward schedule's depad stage:
// its `dma_copy` of the transposed rows (UB → UB, on the vector pipe, one burst a channel row) from
// the transpose's bank-padded row pitch to the block-aligned rows the store reads.
// Planar rows of at most 256 B that are not whole 32 B blocks take the tiling's COMMON_ALIGN case
// (dslTransDataTakesCommonAlign; §127): the forward schedule loads the tile's rows as one run
// (`dma_copy`) and `align_pad`s them in UB to the transpose's pitch, the backward one
// `remove_pad`s the transposed rows into one run and stores it as one burst — where STORAGE_ALIGN
// moves every row as its own burst. The re-pitching is a UB → UB copy, a burst a row, behind
// kDslTransDataRepitchScalarCyclesPerRow of scalar work a row on the 220x's 32-bit form. The 910A's
// 16-bit conversions are the DSL's too (§104a) and take the case by the same rule (§133), without
// the per-row scalar work (its rows show none).
#include "models/kernels/layout/trans_data/trans_data_nchwconv.h"
#include "models/kernels/layout/trans_data/trans_data_dsl_buffers.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kNchwConvColumnAlign = 16;  // positions: a column chunk is whole repeats of every mode
// The DSL's UB reserve (transdata_graph_info.py set_buffer_size RESERVED_SPACE, docs/fidelity.md §144b).
constexpr std::uint64_t kDslTransDataReservedUbBytes = 2560;

struct NchwConvLayout {
    bool toBlocked = true;
    DataType dtype = DataType::Fp16;
    std::uint64_t x = 0, y = 0, eb = 2;
    std::uint64_t c0 = 16;               // channels of a cell: 16 (16-bit), 8 or 16 (32-bit)
    std::uint64_t channels = 0, c1 = 0, hw = 0, blocks = 0;  // blocks = N·C1
    std::uint64_t maxCols = 0;       // H·W columns of one unit (a multiple of 16)
    std::uint64_t chunks = 1;        // column chunks per channel block
    std::uint64_t packed = 1;        // channel blocks per tile when chunks == 1
    std::uint64_t rowPitchBlocks = 0;  // planar rows in UB, in 32 B blocks (odd)
    std::uint64_t inBuf = 0, outBuf = 0, stride = 0;
    bool singleBuffer = false;   // the 910A's DSL schedule (trans_data_dsl_buffers.h)
    bool dslSchedule = false;    // one buffer, serial tiles, the dispatch, the way back's depad copy
    std::uint64_t depadBuf = 0;  // the way back's block-aligned rows (dslSchedule)
    // The DSL's COMMON_ALIGN case (dslTransDataTakesCommonAlign): the planar side moves as one run
    // of packed rows, re-pitched in UB (align_pad on the way in, remove_pad on the way back).
    bool commonAlign = false;
    std::uint64_t packedBuf = 0;  // the run of packed planar rows (commonAlign)

    std::uint32_t buffers() const { return dslSchedule || singleBuffer ? 1 : 2; }
    std::uint64_t units() const { return chunks == 1 ? ceilDiv(blocks, packed) : blocks * chunks; }
    std::uint64_t rowPitch() const { return rowPitchBlocks * kUbBlockBytes / eb; }
    std::uint64_t cellBytes() const { return c0 * eb; }
    std::uint64_t planarBlockBytes() const { return c0 * rowPitchBlocks * kUbBlockBytes; }
    std::uint64_t blockedBlockBytes() const { return maxCols * cellBytes(); }
    // A planar row of `cols` positions padded to whole 32 B blocks: the depad stage's row pitch.
    std::uint64_t alignedRowBytes(std::uint64_t cols) const { return alignUp(cols * eb, kUbBlockBytes); }
    // Positions one repeat transposes: 512 B of cells (16 for 32 B cells, 8 for 64 B ones).
    std::uint64_t positionsPerRepeat() const { return kNchwConvBlocks * kUbBlockBytes / cellBytes(); }
};

class NchwConvTiles final : public TileSource {
  public:
    NchwConvTiles(std::shared_ptr<const NchwConvLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    std::uint32_t buffers() const override { return l_->buffers(); }
    void setup(TileCode& code) override {
        if (l_->dslSchedule) code.scalarCycles = kDslTransDataDispatchScalarCycles;
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const NchwConvLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        std::uint64_t b0 = unit / l.chunks, count = 1, j0 = unit % l.chunks * l.maxCols;
        if (l.chunks == 1) b0 = unit * l.packed, count = std::min(l.packed, l.blocks - b0), j0 = 0;
        const std::uint64_t cols = std::min(l.maxCols, l.hw - j0);
        const std::uint64_t in = l.inBuf + half * l.stride, out = l.outBuf + half * l.stride;
        const std::uint64_t planar = l.toBlocked ? in : out, blocked = l.toBlocked ? out : in;
        const std::uint64_t rowBytes = l.rowPitch() * l.eb, cellBytes = l.cellBytes();
        if (l.toBlocked && l.commonAlign)
            loadPackedRun(b0, count, in, code);
        else if (l.toBlocked)
            loadPlanar(b0, count, j0, cols, in, code);
        else
            code.load.push_back(Instruction::move(strided(MemSpace::GM, MemSpace::UB, l.x + (b0 * l.hw + j0) * cellBytes, in, count,
                                        cols * cellBytes, (l.hw - cols) * cellBytes, (l.maxCols - cols) * cellBytes)));
        const std::uint64_t perRepeat = l.positionsPerRepeat();
        const std::uint64_t repeats = ceilDiv(cols, perRepeat);
        const std::uint64_t planarStep = perRepeat * l.eb / kUbBlockBytes;  // planar row blocks a repeat covers
        for (std::uint64_t b = 0; b < count; ++b) {
            for (std::uint64_t r0 = 0; r0 < repeats; r0 += kMaxVectorRepeats) {
                VectorInstr v{.op = VectorOp::NchwConv, .dtype = l.dtype, .srcType = l.dtype};
                v.repeats = static_cast<std::uint16_t>(std::min<std::uint64_t>(kMaxVectorRepeats, repeats - r0));
                const std::uint64_t planarAt = planar + b * l.planarBlockBytes() + r0 * planarStep * kUbBlockBytes;
                const std::uint64_t blockedAt = blocked + (b * l.maxCols + r0 * perRepeat) * cellBytes;
                setNchwConvOperands(v, planarAt, blockedAt);
                code.compute.push_back(Instruction::vector(v));
            }
        }
        if (l.toBlocked) {
            code.store.push_back(Instruction::move(strided(MemSpace::UB, MemSpace::GM, out, l.y + (b0 * l.hw + j0) * cellBytes,
                                                           count, cols * cellBytes, (l.maxCols - cols) * cellBytes,
                                                           (l.hw - cols) * cellBytes)));
        } else {
            std::uint64_t rows = out, pitch = rowBytes;
            if (l.commonAlign) {  // remove_pad: the channel rows packed into one run, stored as one burst
                const std::uint64_t runRows = l.c0 * count, packedRow = cols * l.eb;
                if (l.dslSchedule)
                    code.compute.push_back(
                        Instruction::scalar(static_cast<std::uint32_t>(runRows * kDslTransDataRepitchScalarCyclesPerRow)));
                code.compute.push_back(Instruction::move(
                    strided(MemSpace::UB, MemSpace::UB, out, l.packedBuf, runRows, packedRow, rowBytes - packedRow, 0)));
                code.store.push_back(Instruction::move(strided(MemSpace::UB, MemSpace::GM, l.packedBuf,
                                                               l.y + b0 * l.c0 * l.hw * l.eb, 1, runRows * packedRow, 0, 0)));
            } else if (l.dslSchedule) {  // the depad stage: channel rows to block-aligned rows, a burst each
                pitch = l.alignedRowBytes(cols);
                rows = l.depadBuf;
                code.compute.push_back(Instruction::move(
                    strided(MemSpace::UB, MemSpace::UB, out, rows, l.c0 * count, pitch, rowBytes - pitch, 0)));
            }
            if (!l.commonAlign)
                code.store.push_back(Instruction::move(strided(MemSpace::UB, MemSpace::GM, rows,
                                                               l.y + (b0 * l.c0 * l.hw + j0) * l.eb, l.c0 * count,
                                                               cols * l.eb, pitch - cols * l.eb, (l.hw - cols) * l.eb)));
        }
        // The DSL's way back runs its tiles in series: the next tile's load waits until this store
        // has landed. Its way in does not: the forward schedule keeps the load (reused by pad and
        // reshape) and the transpose's output in two buffers, so TVM's flags order the next load
        // after this vnchwconv and the next vnchwconv after this store, and the next load runs
        // beside this store (transdata_forward_schedule.py `_do_mem_reused`, no double buffer;
        // the chip's pipe sums 1.17-1.52 on the big planes, docs/fidelity.md §164).
        if (l.dslSchedule && !l.toBlocked) code.store.push_back(Instruction::barrier(Pipe::All));
    }

  private:
    // The repeat's 16 source and 16 destination block addresses (VectorOp::NchwConv), planar side
    // (channel rows rowPitchBlocks apart) and blocked side (cells) as CANN lists them:
    // - 16-bit: the 16 channel rows, 16 consecutive cells;
    // - 32-bit, C0 = 8: the 8 channel rows' two 8-position halves; cells j and 8 + j as pair j;
    // - 32-bit, C0 = 16: the 16 channel rows; the two 32 B halves of cell j as pair j.
    // NCHW → NC1HWC0 reads the planar side and writes the cells; the way back the inverse.
    void setNchwConvOperands(VectorInstr& v, std::uint64_t planarAt, std::uint64_t blockedAt) const {
        const NchwConvLayout& l = *l_;
        const auto pitch = static_cast<std::uint8_t>(l.rowPitchBlocks);
        const auto cellBlocks = static_cast<std::uint16_t>(l.cellBytes() / kUbBlockBytes);
        const auto planarStep = static_cast<std::uint16_t>(l.positionsPerRepeat() * l.eb / kUbBlockBytes);
        const bool wideCells = cellBlocks == 2, halves = l.eb == 4 && !wideCells;
        // planar side: block stride = a channel row; second group = next 8 positions or next 8 rows
        const std::uint16_t planarHalf = l.eb != 4 ? 0 : halves ? 1 : static_cast<std::uint16_t>(8 * l.rowPitchBlocks);
        // blocked side: cells in order; 32-bit pairs are (cell j, cell 8 + j) or (cell j's two halves)
        const std::uint8_t blockedStride = wideCells ? 2 : 1;
        const std::uint16_t blockedHalf = l.eb != 4 ? 0 : halves ? 8 : 1;
        const auto blockedStep = static_cast<std::uint16_t>(kNchwConvBlocks);
        if (l.toBlocked) {
            v.src0 = planarAt, v.src0BlockStride = pitch, v.src0HalfStride = planarHalf, v.src0RepeatStride = planarStep;
            v.dst = blockedAt, v.dstBlockStride = blockedStride, v.dstHalfStride = blockedHalf, v.dstRepeatStride = blockedStep;
        } else {
            v.src0 = blockedAt, v.src0BlockStride = blockedStride, v.src0HalfStride = blockedHalf, v.src0RepeatStride = blockedStep;
            v.dst = planarAt, v.dstBlockStride = pitch, v.dstHalfStride = planarHalf, v.dstRepeatStride = planarStep;
        }
    }

    DataMove strided(MemSpace from, MemSpace to, std::uint64_t src, std::uint64_t dst, std::uint64_t bursts,
                     std::uint64_t burstBytes, std::uint64_t srcGap, std::uint64_t dstGap) const {
        DataMove m{.src = from, .dst = to, .srcType = l_->dtype, .dstType = l_->dtype};
        m.srcAddr = src, m.dstAddr = dst;
        m.burstCount = static_cast<std::uint32_t>(bursts);
        m.burstBytes = static_cast<std::uint32_t>(burstBytes);
        m.srcGapBytes = static_cast<std::uint32_t>(srcGap);
        m.dstGapBytes = static_cast<std::uint32_t>(dstGap);
        return m;
    }

    // NCHW rows into UB rows of rowPitch: whole blocks at once when C is a multiple of C0 (their
    // rows are contiguous in GM), else the block's real channels and zeros for the rest.
    void loadPlanar(std::uint64_t b0, std::uint64_t count, std::uint64_t j0, std::uint64_t cols, std::uint64_t in,
                    TileCode& code) const {
        const NchwConvLayout& l = *l_;
        const std::uint64_t image = b0 / l.c1, first = b0 % l.c1 * l.c0;
        const std::uint64_t rows = l.channels % l.c0 == 0 ? l.c0 * count : std::min(l.c0, l.channels - first);
        const std::uint64_t rowBytes = l.rowPitch() * l.eb;
        code.load.push_back(Instruction::move(strided(MemSpace::GM, MemSpace::UB,
                                                      l.x + ((image * l.channels + first) * l.hw + j0) * l.eb, in, rows,
                                                      cols * l.eb, (l.hw - cols) * l.eb, rowBytes - cols * l.eb)));
        if (rows < l.c0)  // the padded channels are zero rows
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = in + rows * rowBytes},
                            (l.c0 - rows) * l.rowPitch());
    }

    // COMMON_ALIGN's way in: the tile's channel rows are one run in GM (a C that is a multiple of
    // C0: the packed blocks' rows too), loaded as one burst, then align_pad re-pitches them to the
    // transpose's rows in UB (a UB → UB copy on the vector pipe, one burst a row), and the padded
    // channels of a C that is not a multiple of C0 are zero rows.
    void loadPackedRun(std::uint64_t b0, std::uint64_t count, std::uint64_t in, TileCode& code) const {
        const NchwConvLayout& l = *l_;
        const std::uint64_t image = b0 / l.c1, first = b0 % l.c1 * l.c0;
        const std::uint64_t rows = l.channels % l.c0 == 0 ? l.c0 * count : std::min(l.c0, l.channels - first);
        const std::uint64_t rowBytes = l.rowPitch() * l.eb, packedRow = l.hw * l.eb;
        code.load.push_back(Instruction::move(strided(MemSpace::GM, MemSpace::UB, l.x + (image * l.channels + first) * packedRow,
                                                      l.packedBuf, 1, rows * packedRow, 0, 0)));
        if (l.dslSchedule)
            code.compute.push_back(Instruction::scalar(static_cast<std::uint32_t>(rows * kDslTransDataRepitchScalarCyclesPerRow)));
        code.compute.push_back(Instruction::move(
            strided(MemSpace::UB, MemSpace::UB, l.packedBuf, in, rows, packedRow, 0, rowBytes - packedRow)));
        if (rows < l.c0)
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = in + rows * rowBytes},
                            (l.c0 - rows) * l.rowPitch());
    }

    std::shared_ptr<const NchwConvLayout> l_;
    UnitRange units_;
};

}  // namespace

bool vnchwconvTakes32BitElements(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Split; }

bool dslTransDataTakesCommonAlign(std::uint64_t planeElements, std::uint64_t elementBytes) {
    if (elementBytes != 4 && elementBytes != 2) return false;
    const std::uint64_t blockElements = kUbBlockBytes / elementBytes;
    const std::uint64_t aligned = alignUp(planeElements, blockElements);
    const std::uint64_t maxAligned = elementBytes == 4 ? kDslTransDataCommonAlignMaxFp32Row : kDslTransDataCommonAlignMaxFp16Row;
    return planeElements % blockElements != 0 && planeElements * elementBytes <= kDslTransDataPacketBytes &&
           aligned <= maxAligned;
}

std::vector<LoweredKernel> lowerNchwConvTransData(const OpInstance& op, const ChipConfig& chip, std::int64_t channels,
                                                  std::int64_t planeElements, bool toBlocked, std::int64_t c0) {
    const TensorInfo& x = op.inputs[0];
    const std::uint64_t eb = bytesOf(x.dtype);
    if (eb != 2 && !(eb == 4 && vnchwconvTakes32BitElements(chip)))
        throwLoweringError(op, "vnchwconv moves 16-bit elements, and 32-bit ones only on the 220x parts");
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    if (u(c0) * eb != kUbBlockBytes && !(eb == 4 && u(c0) == 16))
        throwLoweringError(op, "C0 = " + std::to_string(c0) + " of " + std::to_string(eb) + "-byte elements has no vnchwconv form");
    auto l = std::make_shared<NchwConvLayout>();
    l->toBlocked = toBlocked, l->dtype = x.dtype, l->eb = eb, l->c0 = u(c0);
    l->singleBuffer = dslTransDataIsSingleBuffered(chip);
    l->x = x.deviceAddr, l->y = op.outputs[0].deviceAddr;
    l->dslSchedule = eb == 4;  // 32-bit data reaches this kernel on the 220x parts only (checked above)
    l->channels = u(channels), l->c1 = ceilDiv(u(channels), l->c0), l->hw = u(planeElements);
    const std::uint64_t planar = toBlocked ? x.elementCount() : op.outputs[0].elementCount();
    l->blocks = planar / (l->channels * l->hw) * l->c1;
    if (!toBlocked && l->channels % l->c0 != 0)
        throwLoweringError(op, "C = " + std::to_string(channels) + " back from C1·C0 padding (not modelled)");
    const std::uint64_t blockedElements = l->blocks * l->c0 * l->hw;
    if ((toBlocked ? op.outputs[0].elementCount() : x.elementCount()) != static_cast<std::int64_t>(blockedElements))
        throwLoweringError(op, "the NC1HWC0 tensor must hold N·C1·H·W·C0 = " + std::to_string(blockedElements) + " elements");

    const VectorPlacement placement = vectorPlacement(chip);
    // Two halves of an input and an output buffer; a planar block of maxCols columns takes
    // C0 rows of (maxCols·eb/32 + 1) blocks at most, and a block stride is an 8-bit field.
    const std::uint64_t half = (placement.ubBytes - kUbBlockBytes) / 4;
    const std::uint64_t fit = half / (l->c0 * kUbBlockBytes);  // planar row blocks one block may use
    const std::uint64_t pitchCap = std::min(fit, kMaxRepeatStrideBlocks);
    const std::uint64_t maxCols = (pitchCap - 1) * (kUbBlockBytes / eb) / kNchwConvColumnAlign * kNchwConvColumnAlign;
    if (pitchCap < 2 || maxCols == 0) throwLoweringError(op, "UB is too small for a vnchwconv tile");
    const std::uint64_t colsPadded = alignUp(l->hw, kNchwConvColumnAlign);
    l->maxCols = std::min(maxCols, colsPadded);
    l->chunks = ceilDiv(l->hw, l->maxCols);
    if (l->dslSchedule && toBlocked && l->chunks > 1) {
        // The DSL tiling cuts a plane longer than a tile by its own UB bound (transdata_dsl_general.cc
        // OnceTiling: UBSize over the live tensors, the block stride capped at 255) into equal pieces
        // that are not whole blocks, so every planar row is a padded burst (docs/fidelity.md §144b, §164).
        const std::uint64_t perTensor = (placement.ubBytes - kDslTransDataReservedUbBytes) / 2 / 128 * 128;
        const std::uint64_t dslPitchCap = std::min(perTensor / (l->c0 * kUbBlockBytes), kMaxRepeatStrideBlocks);
        const std::uint64_t dslCols = (dslPitchCap - 1) * (kUbBlockBytes / eb) / kNchwConvColumnAlign * kNchwConvColumnAlign;
        l->chunks = ceilDiv(l->hw, dslCols);
        l->maxCols = ceilDiv(l->hw, l->chunks);
    }
    l->rowPitchBlocks = ceilDiv(l->maxCols * eb, kUbBlockBytes) | 1;  // odd: the rows a repeat reads in distinct bank groups
    if (l->chunks == 1 && l->channels % l->c0 == 0) {
        const std::uint64_t perBlock = std::max(l->planarBlockBytes(), l->blockedBlockBytes());
        l->packed = std::max<std::uint64_t>(1, std::min(half / perBlock, ceilDiv(l->blocks, placement.coreCount)));
    }
    UbAllocator ub(placement.ubBytes, op.name);
    l->stride = alignUp(l->packed * std::max(l->planarBlockBytes(), l->blockedBlockBytes()), kUbBlockBytes);
    l->inBuf = ub.allocate(l->buffers() * l->stride, "input tile");
    l->outBuf = ub.allocate(l->buffers() * l->stride, "output tile");
    // A block-aligned row is no longer than the transpose's odd pitch: the depad rows fit a stride.
    // The DSL runs 32-bit data on the 220x (dslSchedule) and 16-bit data on the coupled chips
    // (singleBuffer, trans_data_dsl_buffers.h); the 910B parts' 16-bit form is Ascend C's.
    l->commonAlign = (l->dslSchedule || l->singleBuffer) && dslTransDataTakesCommonAlign(l->hw, eb);
    if (l->commonAlign)
        l->packedBuf = ub.allocate(alignUp(l->packed * l->c0 * l->hw * eb, kUbBlockBytes), "packed planar rows");
    else if (l->dslSchedule && !toBlocked)
        l->depadBuf = ub.allocate(l->stride, "depad rows");

    return {tiledVectorKernel<NchwConvTiles>(op, placement, l, 2 * x.bytes(), l->units())};
}

}  // namespace ascendsim
