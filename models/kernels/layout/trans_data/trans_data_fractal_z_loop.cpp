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
#include "models/kernels/layout/trans_data/trans_data_fractal_z_loop.h"

#include <algorithm>
#include <memory>

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
constexpr std::uint32_t kZLoopScalarCyclesPerBurst = 33;

struct ZLoopLayout {
    bool toFractal = true;
    std::uint64_t x = 0, y = 0;
    std::uint64_t co1 = 0, c = 0, c0 = 0, c1 = 0, k = 0;
    std::uint64_t tapRun = 0, tapRuns = 1;  // taps per unit at most, units per (group, C block)
    std::uint64_t linePitchBlocks = 0;     // a UB line: C0 × tapRun fp32
    std::uint64_t lineBuf = 0, rowBuf = 0;  // the 16 lines; the vnchwconv rows

    std::uint64_t units() const { return co1 * c1 * tapRuns; }
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
        const std::uint64_t run = unit % l.tapRuns, cb = unit / l.tapRuns % l.c1, group = unit / l.tapRuns / l.c1;
        const std::uint64_t t0 = run * l.tapRun, taps = std::min(l.tapRun, l.k - t0);
        const std::uint64_t channels = std::min(l.c0, l.c - cb * l.c0);
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
        fractal.burstCount = static_cast<std::uint32_t>(taps);
        fractal.burstBytes = static_cast<std::uint32_t>(l.fractalRowBytes());
        if (l.toFractal)
            fractal.srcAddr = l.rowBuf, fractal.dstAddr = fractalGm, fractal.dstGapBytes = static_cast<std::uint32_t>(fractalGap);
        else
            fractal.srcAddr = fractalGm, fractal.dstAddr = l.lineBuf, fractal.srcGapBytes = static_cast<std::uint32_t>(fractalGap);

        // The 16 lines ↔ rows of 16 halves (one repeat per 32 B of every line).
        VectorInstr lines{.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .srcType = DataType::Fp16};
        lines.repeats = static_cast<std::uint16_t>(halfRows);
        // Rows of (tap, channel) ↔ fractal rows [16 lines][C0] (one repeat per tap).
        VectorInstr fractalRows = lines;
        fractalRows.repeats = static_cast<std::uint16_t>(taps);
        const auto pitch = static_cast<std::uint8_t>(l.linePitchBlocks);
        const auto rowsPerRepeat = static_cast<std::uint16_t>(kZLoopLines);
        // Per channel: one 64 B burst per tap between the (channel, tap) rows and the (tap, channel) rows.
        auto reorder = [&](std::uint64_t ch, std::uint64_t channelRows, std::uint64_t tapRows) {
            DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = DataType::Fp32, .dstType = DataType::Fp32};
            m.burstCount = static_cast<std::uint32_t>(taps);
            m.burstBytes = static_cast<std::uint32_t>(kZLoopBurstBytes);
            const std::uint64_t atChannel = channelRows + ch * tapPitch * kZLoopBurstBytes;
            const std::uint64_t atTap = tapRows + ch * kZLoopBurstBytes;
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
                                taps * l.c0 * kZLoopBurstBytes / kZLoopFp32Bytes);
            for (std::uint64_t ch = 0; ch < channels; ++ch) code.compute.push_back(reorder(ch, l.rowBuf, l.lineBuf));
            fractalRows.src0 = l.lineBuf, fractalRows.dst = l.rowBuf;
            fractalRows.src0RepeatStride = fractalRows.dstRepeatStride = rowsPerRepeat;
            fractalRows.src0BlockStride = fractalRows.dstBlockStride = 1;
            code.compute.push_back(Instruction::vector(fractalRows));
            code.store.push_back(Instruction::move(fractal));
        } else {
            code.load.push_back(Instruction::move(fractal));
            fractalRows.src0 = l.lineBuf, fractalRows.dst = l.rowBuf;
            fractalRows.src0RepeatStride = fractalRows.dstRepeatStride = rowsPerRepeat;
            fractalRows.src0BlockStride = fractalRows.dstBlockStride = 1;
            code.compute.push_back(Instruction::vector(fractalRows));
            for (std::uint64_t ch = 0; ch < channels; ++ch) code.compute.push_back(reorder(ch, l.lineBuf, l.rowBuf));
            lines.src0 = l.lineBuf, lines.src0BlockStride = 1, lines.src0RepeatStride = rowsPerRepeat;
            lines.dst = l.rowBuf, lines.dstBlockStride = pitch, lines.dstRepeatStride = 1;
            code.compute.push_back(Instruction::vector(lines));
            weightLines(false, l.rowBuf);
        }
        code.scalarCycles = static_cast<std::uint32_t>(channels * taps) * kZLoopScalarCyclesPerBurst;
        // TIK's own synchronisation: the next unit's scalar work waits until this unit's moves land.
        code.store.push_back(Instruction::barrier(Pipe::All));
    }

private:
    std::shared_ptr<const ZLoopLayout> l_;
    UnitRange units_;
};

}  // namespace

bool fractalZLoopApplies(const OpInstance& op, std::int64_t co, std::int64_t c0) {
    return bytesOf(op.inputs[0].dtype) == kZLoopFp32Bytes &&
           static_cast<std::uint64_t>(c0) * kZLoopFp32Bytes == kUbBlockBytes && co % static_cast<std::int64_t>(kZLoopLines) == 0;
}

std::vector<LoweredKernel> lowerFractalZLoop(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const bool toFractal = x.format != TensorFormat::FractalZ;
    const TensorInfo& plain = toFractal ? x : y;
    const TensorInfo& fz = toFractal ? y : x;
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    auto l = std::make_shared<ZLoopLayout>();
    l->toFractal = toFractal, l->x = x.deviceAddr, l->y = y.deviceAddr;
    l->co1 = u(plain.shape[0]) / kZLoopLines, l->c = u(plain.shape[1]), l->k = u(plain.shape[2] * plain.shape[3]);
    l->c0 = u(fz.shape[3]), l->c1 = ceilDiv(l->c, l->c0);
    if (u(fz.shape[0]) != l->c1 * l->k || u(fz.shape[1]) != l->co1)
        throwLoweringError(op, "FRACTAL_Z shape does not hold the weight's C1·kh·kw × Co/16 fractals");
    const VectorPlacement placement = vectorPlacement(chip);
    // CANN's tiling: a quarter of UB's elements over 16 lines makes a vnchwconv line; a unit takes
    // at most line / C0 taps, both rounded down to whole 32 B blocks (96 taps with 192 KiB).
    const std::uint64_t perBlock = kUbBlockBytes / kZLoopFp32Bytes;
    const std::uint64_t lineElements = placement.ubBytes / kZLoopFp32Bytes / 4 / kZLoopLines / perBlock * perBlock;
    const std::uint64_t maxTaps = lineElements / l->c0 / perBlock * perBlock;
    if (maxTaps == 0) throwLoweringError(op, "UB is too small for a 16-line vnchwconv tile");
    l->tapRun = std::min(l->k, maxTaps), l->tapRuns = ceilDiv(l->k, l->tapRun);
    l->linePitchBlocks = ceilDiv(l->c0 * alignUp(l->tapRun, perBlock) * kZLoopFp32Bytes, kUbBlockBytes);
    if (l->linePitchBlocks > kMaxRepeatStrideBlocks) throwLoweringError(op, "a vnchwconv line's block stride exceeds 255");
    const std::uint64_t bufferBytes = kZLoopLines * l->linePitchBlocks * kUbBlockBytes;
    UbAllocator ub(placement.ubBytes, op.name);
    l->lineBuf = ub.allocate(bufferBytes, "16 weight lines / (tap, channel) rows");
    l->rowBuf = ub.allocate(bufferBytes, "vnchwconv rows / fractal rows");

    return {tiledVectorKernel<ZLoopTiles>(op, placement, l, 2 * x.bytes(), l->units())};
}

}  // namespace ascendsim
