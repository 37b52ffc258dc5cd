// MaxPoolWithArgmaxV1 on NC1HWC0 with C0 = 16 (max_pool_argmax_geometry.h). fp16 runs CANN's TIK
// kernel (max_pool_argmax_tik.h); this file is the DSL's reduce_window form (fp32), which
// works one output row of one (n, c1) plane a tile:
//   MTE2: the band's input rows ((rows−1)·sh + kh rows of W positions), one dense burst;
//   V:    y = the first tap (block-strided Copy), then Max with each other tap, per output row;
//         per tap and output row a compare of the tap with y (vcmpv_eq: one bit per lane, so one
//         uint16 per position), then the taps' bits are made exclusive (a window's first maximum
//         wins: vnot of the bits so far, Or this tap's into them, And this tap's with the
//         complement, as TIK's vnot / vor / vand) over rows·Wo uint16;
//   MTE3: the band's y rows (one burst) and one mask burst of rows·Wo uint16 per tap, in one
//         strided move.
// Every vector instruction that reads what the one before it wrote waits behind a PipeBarrier<PIPE_V>
// (hardware.md §2.4), as the DSL's generated code puts one between dependent vector
// instructions: each tap's Max after the previous tap's, the compares after the last Max, each
// step of the mask chain after the step it reads (docs/fidelity.md §62). A later tap's compare
// reads only x and y and needs none.
// The ISA model has no bit-producing compare: the compare is issued with the same repeats into a
// scratch tile, the mask buffer's bits are not computed (its bytes and the Not/And/Or work are).
#include <algorithm>
#include <memory>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"
#include "models/kernels/pooling/max_pool_argmax_tik.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

struct ArgmaxPoolLayout {
    ArgmaxPoolGeometry g;
    std::uint64_t x = 0, y = 0, mask = 0;
    std::uint64_t bandRows = 0, bandsPerPlane = 0;
    std::uint64_t inStage = 0, inHalf = 0, outStage = 0, outHalf = 0, maskStage = 0, maskHalf = 0;
    std::uint64_t compare = 0, seen = 0, notSeen = 0;
    static constexpr PositionPacking packing = PositionPacking::OnePerRepeat;
};

class ArgmaxPoolTiles final : public TileSource {
public:
    ArgmaxPoolTiles(std::shared_ptr<const ArgmaxPoolLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    // The DSL form keeps one buffer per queue: the real fp32 rows spend MTE2 + V + MTE3 within 10 %
    // of a row's whole time (docs/fidelity.md §25a, §47), so a row's moves do not overlap the
    // previous row's compute.
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ArgmaxPoolLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const std::uint64_t unit = units_.begin + index, plane = unit / l.bandsPerPlane;
        const std::uint64_t r0 = unit % l.bandsPerPlane * l.bandRows, rows = std::min(l.bandRows, g.outH - r0);
        const std::uint64_t pb = g.positionBytes(), rowsIn = (rows - 1) * g.sh + g.kh;
        const std::uint64_t in = l.inStage + half * l.inHalf, out = l.outStage + half * l.outHalf;
        const std::uint64_t maskBuf = l.maskStage + half * l.maskHalf;
        const std::uint64_t planeIn = l.x + plane * g.h * g.w * pb, firstRow = r0 * g.sh;
        code.load.push_back(moveRowsToUb(planeIn + firstRow * g.w * pb, in, 1, rowsIn * g.w * pb, rowsIn * g.w * pb));
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
            const std::uint64_t i = tap / g.kw, j = tap % g.kw;
            if (tap > 0) code.compute.push_back(afterWrites);  // Max reads the previous tap's y
            for (std::uint64_t r = 0; r < rows; ++r) {
                const std::uint64_t src = in + ((r * g.sh + i) * g.w + j) * pb, dst = out + r * g.outW * pb;
                if (tap == 0) {
                    emitPositions(code.compute, VectorOp::Copy, g.dtype, {.dst = dst, .src0 = src, .src0Stride = g.sw}, g.outW, l.packing);
                } else {
                    emitPositions(code.compute, VectorOp::Max, g.dtype,
                                  {.dst = dst, .src0 = dst, .src1 = src, .src1Stride = g.sw}, g.outW, l.packing);
                }
            }
        }
        const std::uint64_t entries = rows * g.outW;
        code.compute.push_back(afterWrites);  // the compares read the final y
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
            const std::uint64_t i = tap / g.kw, j = tap % g.kw;
            for (std::uint64_t r = 0; r < rows; ++r) {
                const std::uint64_t src = in + ((r * g.sh + i) * g.w + j) * pb;
                emitPositions(code.compute, VectorOp::CompareGt, g.dtype,
                              {.dst = l.compare, .src0 = src, .src1 = out + r * g.outW * pb, .src0Stride = g.sw}, g.outW,
                              l.packing);
            }
            const std::uint64_t bits = maskBuf + tap * alignUp(entries * 2, kUbBlockBytes);
            code.compute.push_back(afterWrites);  // the chain reads this tap's bits and the bits so far
            if (tap == 0) {
                emitVectorRange(code.compute, VectorOp::Copy, DataType::Int16, {.dst = l.seen, .src0 = bits}, entries);
                continue;
            }
            // vnot of the bits so far (the ISA model has no Not: a unary Copy of the same lanes stands
            // in), Or this tap's bits into them, then And this tap's bits with the complement.
            emitVectorRange(code.compute, VectorOp::Copy, DataType::Int16, {.dst = l.notSeen, .src0 = l.seen}, entries);
            emitVectorRange(code.compute, VectorOp::Or, DataType::Int16, {.dst = l.seen, .src0 = bits, .src1 = l.seen}, entries);
            code.compute.push_back(afterWrites);  // And reads the complement
            emitVectorRange(code.compute, VectorOp::And, DataType::Int16, {.dst = bits, .src0 = bits, .src1 = l.notSeen}, entries);
        }
        code.store.push_back(moveRowsToGm(out, l.y + (plane * g.outH + r0) * g.outW * pb, 1, entries * pb, entries * pb));
        const std::uint64_t maskGm = l.mask + (plane * g.taps() * g.maskTapEntries() + r0 * g.outW) * 2;
        const std::uint64_t ubTapBytes = alignUp(entries * 2, kUbBlockBytes), gmTapBytes = g.maskTapEntries() * 2;
        // The taps' mask rows leave in one strided move, one burst per tap.
        DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcAddr = maskBuf, .dstAddr = maskGm};
        m.burstCount = static_cast<std::uint32_t>(g.taps());
        m.burstBytes = static_cast<std::uint32_t>(entries * 2);
        m.srcGapBytes = static_cast<std::uint32_t>(ubTapBytes - entries * 2);
        m.dstGapBytes = static_cast<std::uint32_t>(gmTapBytes - entries * 2);
        code.store.push_back(Instruction::move(m));
    }

private:
    std::shared_ptr<const ArgmaxPoolLayout> l_;
    UnitRange units_;
};

std::vector<LoweredKernel> lowerMaxPoolWithArgmax(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() != 1 || op.outputs.size() != 2) throwLoweringError(op, "needs x and the outputs y, argmax");
    auto l = std::make_shared<ArgmaxPoolLayout>();
    l->g = argmaxPoolGeometry(op, op.inputs[0]);
    const ArgmaxPoolGeometry& g = l->g;
    if (op.outputs[1].bytes() < g.planes * g.taps() * g.maskTapEntries() * 2)
        throwLoweringError(op, "argmax must hold N·C1·kh·kw·(⌈Ho·Wo/16⌉+1)·16 uint16");
    l->x = op.inputs[0].deviceAddr;
    l->y = op.outputs[0].deviceAddr;
    l->mask = op.outputs[1].deviceAddr;
    const std::uint64_t workBytes = op.inputs[0].bytes() + op.outputs[0].bytes();
    if (argmaxPoolPacking(g.dtype) == PositionPacking::BlockStrided)
        return {lowerMaxPoolWithArgmaxTik(op, chip, g, {.x = l->x, .y = l->y, .mask = l->mask}, workBytes)};
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t pb = g.positionBytes();
    // UB per band of R output rows: input (double-buffered), y (double-buffered), one compare
    // row, the taps' masks (double-buffered) and the running bits.
    auto bytesFor = [&](std::uint64_t rows) {
        const std::uint64_t entries = alignUp(rows * g.outW * 2, kUbBlockBytes);
        return 2 * ((rows - 1) * g.sh + g.kh) * g.w * pb + 2 * rows * g.outW * pb + g.outW * pb +
               2 * g.taps() * entries + 2 * entries + 1024;
    };
    l->bandRows = 1;
    if (bytesFor(l->bandRows) > placement.ubBytes) throwLoweringError(op, "one output row does not fit in UB");
    l->bandsPerPlane = ceilDiv(g.outH, l->bandRows);
    UbAllocator ub(placement.ubBytes, op.name);
    l->inHalf = alignUp(((l->bandRows - 1) * g.sh + g.kh) * g.w * pb, kUbBlockBytes);
    l->inStage = ub.allocate(2 * l->inHalf, "input rows");
    l->outHalf = alignUp(l->bandRows * g.outW * pb, kUbBlockBytes);
    l->outStage = ub.allocate(2 * l->outHalf, "y rows");
    l->compare = ub.allocate(alignUp(g.outW * pb, kUbBlockBytes), "compare row");
    const std::uint64_t entriesBytes = alignUp(l->bandRows * g.outW * 2, kUbBlockBytes);
    l->maskHalf = g.taps() * entriesBytes;
    l->maskStage = ub.allocate(2 * l->maskHalf, "tap masks");
    l->seen = ub.allocate(entriesBytes, "bits so far");
    l->notSeen = ub.allocate(entriesBytes, "complement of the bits so far");
    const std::uint64_t units = g.planes * l->bandsPerPlane;
    return {tiledVectorKernel<ArgmaxPoolTiles>(op, placement, l, workBytes, units)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolWithArgmaxV1", lowerMaxPoolWithArgmax);

}  // namespace ascendsim
