// NCHW ↔ FRACTAL_Z of a 32-bit weight as CANN's TIK kernels run it (CANN 8.1 op library,
// dynamic/trans_data_positive_source_ntc.py one way and trans_data_negative_target_ntc.py back; the
// tiling in op_tiling trans_data_positive_source_ntc_100: 32-bit types always take the
// "twice vnchwconv" mode). Read for the structure, nothing copied. Per loop unit — 16 output
// channels (the fractal's lines) × one C0 block of channels × a run of kernel taps (K = kh·kw, cut
// into runs of at most a vnchwconv line's C0 columns) — with one source and one destination
// buffer (no ping-pong: the loop's steps run one after another, the scalar unit's included):
//   NCHW → FRACTAL_Z:
//     MTE2: the 16 output channels' C0 channels × taps (contiguous in the weight) into one UB
//           line each (CANN: a move per line, back to back; here one move of 16 bursts);
//     V:    vnchwconv of the 16 lines, the fp32 values as fp16 halves: row p holds half p of every
//           line; a C block short of C0 channels zeroes the padding rows (Duplicate);
//           per channel, one UB → UB data_move of one 64 B burst (2 rows: one fp32 of the 16
//           lines) per tap, scattered C0 × 64 B apart: rows ordered (tap, channel);
//           vnchwconv back, one repeat per tap: [tap][16 lines][C0], the fractal rows;
//     MTE3: one strided store of one 512 B fractal row per tap.
//   FRACTAL_Z → NCHW: the same steps in reverse order (only the real channels moved back).
// The scalar unit issues the per-channel moves; the real rows spend, per 64 B burst of them, a
// nearly constant scalar time (docs/fidelity.md §48: 26-40 cycles a burst, where the instructions
// the loop issues would give 4-10), so every unit carries that cost per burst. A unit's scalar
// work does not overlap the previous unit's moves (§98): the real rows' scalar + V + MTE2 + MTE3
// add up to the unit's time. TIK inserts the synchronisation itself wherever scalar offsets leave
// it unable to prove two instructions independent (TIK API `new_stmt_scope(disable_sync=False)`,
// the default, which the kernel's loop body keeps); the model ends every unit with a PIPE_ALL
// barrier, so the next unit's scalar step starts once this unit's stores have landed.
// The 910A's FRACTAL_Z (C0 = 16 fp32, 64 B) runs the same loop both ways (docs/fidelity.md §139h):
// a fractal row is two vnchwconvs a tap (one per 32 B half of its 16 lines); back to NCHW a unit
// takes several C1 blocks as CANN's negative tiling sizes them (negativeNtcSizes); the blocks split
// the work as CANN's tilings do (ntcCoreSplit); the way in carries the chip's ~2 scalar cycles a
// burst, the way back none (kZLoopScalarCyclesPerBurstWideC0*).
#include "models/kernels/layout/trans_data/trans_data_fractal_z_loop.h"

#include <algorithm>
#include <memory>

#include "models/kernels/layout/trans_data/trans_data_fractal_z.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kZLoopLines = 16;      // hardware.md §2.3: 16 lines of a fractal / a vnchwconv
constexpr std::uint64_t kZLoopFp32Bytes = 4;
constexpr std::uint64_t kZLoopBurstBytes = 2 * kUbBlockBytes;  // one fp32 of 16 lines as fp16 halves
// Scalar cycles per 64 B UB → UB burst of the per-channel reorder [D], fitted on the whole time
// of the eight 3×3 rows of the AlexNet 910B2 text export, both ways (msinsight e5a31957
// text/level2 rank0: NCHW → FRACTAL_Z [384,192,3,3] ×2, [256,384,3,3] ×2, [256,256,3,3] and
// back; geomean sim/real 1.001 at 33, 1.016 at 34), with every unit's scalar step behind the
// previous unit's moves (the rows' scalar + V + MTE2 + MTE3 ≈ the unit's time: 4183 ≈ 2539 +
// 1104 + 192 + 469 cycles on [384,192,3,3]). The real rows' own scalar is 31-40 cycles per burst
// (§48's table). The 5×5 and 11×11 rows and the DB export are held out (docs/fidelity.md §48, §98;
// 58 before §98, when the units' scalar steps overlapped the moves and the constant carried the
// unit's whole time).
constexpr double kZLoopScalarCyclesPerBurst = 33;
// The 910A's (C0 = 16 fp32, 64 B): not charged. Its rows' scalar (0.12-0.13
// of msinsight c1e639ee level1 rank0's trans_TransData_141 / 151 / 161, ~0.8 cycles a burst on the
// busy blocks) is a fortieth of the 910B2's, and charged at 1.5 a burst it made those rows 1.31-1.43×
// (at 0, 1.08-1.17×: the model's vector time is already over the chip's; docs/fidelity.md §139h).
constexpr double kZLoopScalarCyclesPerBurstWideC0 = 0;
// The 910A's way in: ~2 scalar cycles a burst a busy block, read off the chip in §96e
// ([256,256,3,3], c1e639ee level1 rank0 trans_TransData_4: 0.208 × 10.81 µs aicore_time × 32 blocks
// ÷ (16 busy blocks × 16 units × 144 bursts)); with CANN's split the model's 3 × 3 rows then count
// scalar 0.207 / 0.244 / 0.243 against the chip's 0.208 / 0.239 / 0.213 (a0; a1, adb held out).
constexpr double kZLoopScalarCyclesPerBurstWideC0In = 2;

struct ZLoopLayout {
    bool toFractal = true;
    std::uint64_t x = 0, y = 0;
    std::uint64_t co1 = 0, c = 0, c0 = 0, c1 = 0, k = 0;
    std::uint64_t c0Factor = 1;             // 32 B blocks in a C0 (2 for the 910A's 16 fp32)
    double scalarCyclesPerBurst = kZLoopScalarCyclesPerBurst;
    std::uint64_t tapRun = 0, tapRuns = 1;  // taps per unit at most, units per (group, C loop)
    // C1 blocks a unit takes (CANN's srcCLpUnit; more than one only when a unit holds every tap)
    std::uint64_t cBlocks = 1;
    std::uint64_t linePitchBlocks = 0;     // a UB line: C0 × tapRun fp32
    std::uint64_t lineBuf = 0, rowBuf = 0;  // the 16 lines; the vnchwconv rows

    std::uint64_t cLoops() const { return ceilDiv(c1, cBlocks); }
    std::uint64_t units() const { return co1 * cLoops() * tapRuns; }
    std::uint64_t fractalRowBytes() const { return kZLoopLines * c0 * kZLoopFp32Bytes; }
};

class ZLoopTiles final : public TileSource {
public:
    ZLoopTiles(std::shared_ptr<const ZLoopLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    std::uint32_t buffers() const override { return 1; }

    void tile(std::uint64_t index, std::uint32_t /*half*/, TileCode& code) override {
        const ZLoopLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t run = unit % l.tapRuns, cLoop = unit / l.tapRuns % l.cLoops();
        const std::uint64_t group = unit / l.tapRuns / l.cLoops();
        const std::uint64_t t0 = run * l.tapRun, taps = std::min(l.tapRun, l.k - t0);
        const std::uint64_t cb = cLoop * l.cBlocks, blocks = std::min(l.cBlocks, l.c1 - cb);  // first C block, count
        const std::uint64_t channels = std::min(blocks * l.c0, l.c - cb * l.c0);  // real ones
        // Taps of one channel in a line: packed when the unit holds all of them, else a block-aligned run.
        const std::uint64_t tapPitch = l.tapRuns == 1 ? taps : alignUp(taps, kUbBlockBytes / kZLoopFp32Bytes);
        const std::uint64_t lineBytes = l.linePitchBlocks * kUbBlockBytes;
        const std::uint64_t halfRows = ceilDiv(channels * tapPitch * kZLoopFp32Bytes, kUbBlockBytes);
        // GM: the fractal rows (C1·K + tap, group) and the weight rows (co, C block).
        const std::uint64_t fractalGm = (l.toFractal ? l.y : l.x) + ((cb * l.k + t0) * l.co1 + group) * l.fractalRowBytes();
        const std::uint64_t fractalGap = (l.co1 - 1) * l.fractalRowBytes();
        const std::uint64_t plainGm = l.toFractal ? l.x : l.y;
        // The 16 lines' moves (CANN issues one per line, back to back; the real rows keep MTE2 busy
        // 0.04-0.05, so their latencies overlap) as one move of 16 bursts a weight row apart: all
        // of a line's channels when the unit holds every tap, else one such move per channel.
        auto weightLines = [&](bool load, std::uint64_t ubLines) {
            const std::uint64_t perMove = l.tapRuns == 1 ? channels * taps : taps;
            const std::uint64_t moves = l.tapRuns == 1 ? 1 : channels;
            const auto gmGap = static_cast<std::uint32_t>((l.c * l.k - perMove) * kZLoopFp32Bytes);
            const auto ubGap = static_cast<std::uint32_t>(lineBytes - perMove * kZLoopFp32Bytes);
            for (std::uint64_t ch = 0; ch < moves; ++ch) {
                DataMove m{.src = load ? MemSpace::GM : MemSpace::UB, .dst = load ? MemSpace::UB : MemSpace::GM,
                           .srcType = DataType::Fp32, .dstType = DataType::Fp32};
                const std::uint64_t gm =
                    plainGm + ((group * kZLoopLines * l.c + cb * l.c0 + ch) * l.k + t0) * kZLoopFp32Bytes;
                const std::uint64_t ub = ubLines + ch * tapPitch * kZLoopFp32Bytes;
                m.srcAddr = load ? gm : ub, m.dstAddr = load ? ub : gm;
                m.burstCount = static_cast<std::uint32_t>(kZLoopLines);
                m.burstBytes = static_cast<std::uint32_t>(perMove * kZLoopFp32Bytes);
                m.srcGapBytes = load ? gmGap : ubGap, m.dstGapBytes = load ? ubGap : gmGap;
                (load ? code.load : code.store).push_back(Instruction::move(m));
            }
        };
        DataMove fractal{.src = l.toFractal ? MemSpace::UB : MemSpace::GM, .dst = l.toFractal ? MemSpace::GM : MemSpace::UB,
                         .srcType = DataType::Fp32, .dstType = DataType::Fp32};
        fractal.burstCount = static_cast<std::uint32_t>(blocks * taps);  // rows (C block, tap), co1 apart
        fractal.burstBytes = static_cast<std::uint32_t>(l.fractalRowBytes());
        if (l.toFractal)
            fractal.srcAddr = l.rowBuf, fractal.dstAddr = fractalGm, fractal.dstGapBytes = static_cast<std::uint32_t>(fractalGap);
        else
            fractal.srcAddr = fractalGm, fractal.dstAddr = l.lineBuf, fractal.srcGapBytes = static_cast<std::uint32_t>(fractalGap);

        // The 16 lines ↔ rows of 16 halves (one repeat per 32 B of every line).
        VectorInstr lines{.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .srcType = DataType::Fp16};
        lines.repeats = static_cast<std::uint16_t>(halfRows);
        const auto pitch = static_cast<std::uint8_t>(l.linePitchBlocks);
        const auto rowsPerRepeat = static_cast<std::uint16_t>(kZLoopLines);
        // Rows of (tap, channel) ↔ fractal rows [16 lines][C0]: one repeat per tap and 32 B of a
        // fractal row's lines, so a 64 B C0 takes two instructions, one per half of every line
        // (the fractal row's line pitch is c0Factor blocks, a tap's rows 16·c0Factor blocks apart).
        auto fractalRowsPass = [&](std::uint64_t half, std::uint64_t fractalBuf, std::uint64_t tapBuf) {
            VectorInstr v = lines;
            v.repeats = static_cast<std::uint16_t>(blocks * taps);
            const auto tapStride = static_cast<std::uint16_t>(kZLoopLines * l.c0Factor);
            v.src0 = fractalBuf + half * kUbBlockBytes, v.dst = tapBuf + half * kZLoopLines * kUbBlockBytes;
            v.src0BlockStride = static_cast<std::uint8_t>(l.c0Factor), v.dstBlockStride = 1;
            v.src0RepeatStride = v.dstRepeatStride = tapStride;
            return v;
        };
        // Per channel: one 64 B burst per tap between the (channel, tap) rows and the (tap, channel) rows.
        auto reorder = [&](std::uint64_t ch, std::uint64_t channelRows, std::uint64_t tapRows) {
            DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = DataType::Fp32, .dstType = DataType::Fp32};
            m.burstCount = static_cast<std::uint32_t>(taps);
            m.burstBytes = static_cast<std::uint32_t>(kZLoopBurstBytes);
            const std::uint64_t atChannel = channelRows + ch * tapPitch * kZLoopBurstBytes;
            const std::uint64_t atTap = tapRows + (ch / l.c0 * taps * l.c0 + ch % l.c0) * kZLoopBurstBytes;
            const auto scatter = static_cast<std::uint32_t>((l.c0 - 1) * kZLoopBurstBytes);
            if (l.toFractal)
                m.srcAddr = atChannel, m.dstAddr = atTap, m.dstGapBytes = scatter;
            else
                m.srcAddr = atTap, m.dstAddr = atChannel, m.srcGapBytes = scatter;
            return Instruction::move(m);
        };
        if (l.toFractal) {
            weightLines(true, l.lineBuf);
            lines.src0 = l.lineBuf, lines.src0BlockStride = pitch, lines.src0RepeatStride = 1;
            lines.dst = l.rowBuf, lines.dstBlockStride = 1, lines.dstRepeatStride = rowsPerRepeat;
            code.compute.push_back(Instruction::vector(lines));
            if (channels < l.c0)  // the padding channels of the fractal rows are zeros
                emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Fp32, {.dst = l.lineBuf},
                                blocks * taps * l.c0 * kZLoopBurstBytes / kZLoopFp32Bytes);
            for (std::uint64_t ch = 0; ch < channels; ++ch) code.compute.push_back(reorder(ch, l.rowBuf, l.lineBuf));
            // The tap rows back to fractal rows (the same transpose: the vnchwconv is its own inverse).
            for (std::uint64_t half = 0; half < l.c0Factor; ++half) {
                VectorInstr pass = fractalRowsPass(half, l.rowBuf, l.lineBuf);
                std::swap(pass.src0, pass.dst);
                std::swap(pass.src0BlockStride, pass.dstBlockStride);
                code.compute.push_back(Instruction::vector(pass));
            }
            code.store.push_back(Instruction::move(fractal));
        } else {
            code.load.push_back(Instruction::move(fractal));
            for (std::uint64_t half = 0; half < l.c0Factor; ++half)
                code.compute.push_back(Instruction::vector(fractalRowsPass(half, l.lineBuf, l.rowBuf)));
            for (std::uint64_t ch = 0; ch < channels; ++ch) code.compute.push_back(reorder(ch, l.lineBuf, l.rowBuf));
            lines.src0 = l.lineBuf, lines.src0BlockStride = 1, lines.src0RepeatStride = rowsPerRepeat;
            lines.dst = l.rowBuf, lines.dstBlockStride = pitch, lines.dstRepeatStride = 1;
            code.compute.push_back(Instruction::vector(lines));
            weightLines(false, l.rowBuf);
        }
        code.scalarCycles = static_cast<std::uint32_t>(static_cast<double>(channels * taps) * l.scalarCyclesPerBurst + 0.5);
        // TIK's own synchronisation: the next unit's scalar work waits until this unit's moves land.
        code.store.push_back(Instruction::barrier(Pipe::All));
    }

private:
    std::shared_ptr<const ZLoopLayout> l_;
    UnitRange units_;
};

// CANN's FRACTAL_Z → NCHW tiling for 32-bit data (op_tiling trans_data_negative_target_ntc,
// TilingNegativeNtc200 and GetMcInfoNegative200, read, nothing copied; its twice-vnchwconv flow):
// half of UB's elements over 16 lines makes a vnchwconv line; the C-right unit (taps) is a line's
// C0 columns, rounded down to whole blocks; when one unit holds every tap, a C loop takes as many
// C1 blocks as a line holds of the block-aligned taps (srcCLpUnit), else one.
struct NegativeNtcSizes {
    std::uint64_t tapUnit = 1, cBlocks = 1;
};

NegativeNtcSizes negativeNtcSizes(const ZLoopLayout& l, std::uint64_t ubBytes) {
    const std::uint64_t perBlock = kUbBlockBytes / kZLoopFp32Bytes;
    const std::uint64_t lineElements = ubBytes / kZLoopFp32Bytes / 2 / kZLoopLines / perBlock * perBlock;
    NegativeNtcSizes sizes;
    sizes.tapUnit = std::max<std::uint64_t>(1, lineElements / l.c0 / perBlock * perBlock);
    if (l.k <= sizes.tapUnit)
        sizes.cBlocks = std::max<std::uint64_t>(1, std::min(l.c1, sizes.tapUnit / alignUp(l.k, perBlock)));
    return sizes;
}

// The core split, the same scoring in both of CANN's tilings (GetMcInfoNegative200 here,
// GetMcInfoPositiveNtc100 for the way in, docs/fidelity.md §96e): three loop axes — the groups of 16 output channels (C-left), the C loops and
// the tap runs (C-right); each scores its loop count n below the core count and past it the core
// count plus n mod cores (twice the core count when it divides evenly; for the tap runs only when
// the last run is over half a unit), the highest wins (ties to C-left, then C), and only
// ⌈n / ⌈n / cores⌉⌉ blocks get work, the launch's other blocks idle.
struct NtcSplit {
    std::uint32_t usedBlocks = 1;
    bool byGroups = true;  // the C-left axis won: a block's units are whole groups
};

NtcSplit ntcCoreSplit(const ZLoopLayout& l, std::uint32_t cores) {
    auto score = [cores](std::uint64_t n, bool evenAddsCores) {
        return (n / cores > 0 ? cores : 0) + n % cores + (n % cores == 0 && evenAddsCores ? cores : 0);
    };
    const std::uint64_t tapLeft = l.k % l.tapRun;
    const std::uint64_t groupScore = score(l.co1, true), cScore = score(l.cLoops(), true);
    const std::uint64_t tapScore = score(l.tapRuns, tapLeft > l.tapRun / 2);
    NtcSplit split;
    split.byGroups = groupScore >= cScore && groupScore >= tapScore;
    const std::uint64_t n = split.byGroups ? l.co1 : cScore >= tapScore ? l.cLoops() : l.tapRuns;
    split.usedBlocks = static_cast<std::uint32_t>(ceilDiv(n, ceilDiv(n, cores)));
    return split;
}

}  // namespace

bool fractalZLoopApplies(const OpInstance& op, std::int64_t co, std::int64_t c0) {
    const std::uint64_t c0Bytes = static_cast<std::uint64_t>(c0) * kZLoopFp32Bytes;
    return bytesOf(op.inputs[0].dtype) == kZLoopFp32Bytes && (c0Bytes == kUbBlockBytes || c0Bytes == 2 * kUbBlockBytes) &&
           co % static_cast<std::int64_t>(kZLoopLines) == 0;
}

std::vector<LoweredKernel> lowerFractalZLoop(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const FractalZSides sides = fractalZSides(op);
    const bool toFractal = sides.toFractalZ;
    const TensorInfo& plain = sides.plain;
    const TensorInfo& fz = sides.fz;
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    auto l = std::make_shared<ZLoopLayout>();
    l->toFractal = toFractal, l->x = x.deviceAddr, l->y = y.deviceAddr;
    l->co1 = u(plain.shape[0]) / kZLoopLines, l->c = u(plain.shape[1]), l->k = u(plain.shape[2] * plain.shape[3]);
    l->c0 = u(fz.shape[3]), l->c1 = ceilDiv(l->c, l->c0);
    l->c0Factor = l->c0 * kZLoopFp32Bytes / kUbBlockBytes;
    if (l->c0Factor > 1)
        l->scalarCyclesPerBurst = toFractal ? kZLoopScalarCyclesPerBurstWideC0In : kZLoopScalarCyclesPerBurstWideC0;
    if (u(fz.shape[0]) != l->c1 * l->k || u(fz.shape[1]) != l->co1)
        throwLoweringError(op, "FRACTAL_Z shape does not hold the weight's C1·kh·kw × Co/16 fractals");
    const VectorPlacement placement = vectorPlacement(chip);
    // CANN's tiling: a quarter of UB's elements over 16 lines makes a vnchwconv line; a unit takes
    // at most line / C0 taps, both rounded down to whole 32 B blocks (96 taps with 192 KiB; the
    // positive tiling's, one C1 block a unit, §96e). The 910A's way back takes the negative tiling's
    // sizes (negativeNtcSizes: half of UB, several C1 blocks a unit); the 910B's way back keeps one C
    // block a unit, which §48's constant was fitted with.
    const std::uint64_t perBlock = kUbBlockBytes / kZLoopFp32Bytes;
    const std::uint64_t lineElements = placement.ubBytes / kZLoopFp32Bytes / 4 / kZLoopLines / perBlock * perBlock;
    std::uint64_t maxTaps = lineElements / l->c0 / perBlock * perBlock;
    if (l->c0Factor > 1 && !toFractal) {
        const NegativeNtcSizes sizes = negativeNtcSizes(*l, placement.ubBytes);
        maxTaps = sizes.tapUnit, l->cBlocks = sizes.cBlocks;
    }
    if (maxTaps == 0) throwLoweringError(op, "UB is too small for a 16-line vnchwconv tile");
    l->tapRun = std::min(l->k, maxTaps), l->tapRuns = ceilDiv(l->k, l->tapRun);
    // A unit's line: its C blocks' channels × the taps (the 910A's packed when the unit holds
    // every tap, as the tiles lay them; the 910B's as §48 sized them, block-aligned).
    const std::uint64_t tapPitch = l->tapRuns == 1 ? l->tapRun : alignUp(l->tapRun, perBlock);
    l->linePitchBlocks = ceilDiv(l->cBlocks * l->c0 * (l->c0Factor > 1 ? tapPitch : alignUp(l->tapRun, perBlock)) *
                                     kZLoopFp32Bytes, kUbBlockBytes);
    if (l->linePitchBlocks > kMaxRepeatStrideBlocks) throwLoweringError(op, "a vnchwconv line's block stride exceeds 255");
    const std::uint64_t bufferBytes = kZLoopLines * l->linePitchBlocks * kUbBlockBytes;
    UbAllocator ub(placement.ubBytes, op.name);
    l->lineBuf = ub.allocate(bufferBytes, "16 weight lines / (tap, channel) rows");
    l->rowBuf = ub.allocate(bufferBytes, "vnchwconv rows / fractal rows");

    if (l->c0Factor == 1) return {tiledVectorKernel<ZLoopTiles>(op, placement, l, 2 * x.bytes(), l->units())};
    // The 910A's: CANN's core split (ntcCoreSplit), whole groups of 16 output channels a block when
    // that axis wins (else the units evenly over the used blocks), the launch's other blocks idle.
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, 2 * x.bytes(), l->units());
    const NtcSplit split = ntcCoreSplit(*l, kernel.blockDim);
    std::shared_ptr<const ZLoopLayout> shared = l;
    kernel.program = [shared, split](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        const std::uint64_t unitsPerGroup = shared->units() / shared->co1;
        UnitRange units{};
        if (request.blockIdx < split.usedBlocks) {
            const UnitRange groups = blockShare(shared->co1, split.usedBlocks, request.blockIdx);
            units = split.byGroups ? UnitRange{groups.begin * unitsPerGroup, groups.end * unitsPerGroup}
                                   : blockShare(shared->units(), split.usedBlocks, request.blockIdx);
        }
        return std::make_unique<DoubleBufferedStream>(std::make_unique<ZLoopTiles>(shared, units));
    };
    return {kernel};
}

}  // namespace ascendsim
