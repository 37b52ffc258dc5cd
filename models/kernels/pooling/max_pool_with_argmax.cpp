// MaxPoolWithArgmaxV1 on NC1HWC0 with C0 = 16 (max_pool_argmax_geometry.h). fp16 runs CANN's TIK
// kernel (max_pool_argmax_tik.h); fp32 runs the DSL's `tbe.reduce_window(x, "MAX", …, True)`
// (dynamic/max_pool_with_argmaxv1.py), whose 5HD compute (tbe/dsl/compute/reduce.py,
// _reduce_with_indices_5hd) is the PoolingWithArg pattern, scheduled by
// tbe/dsl/unify_schedule/vector/pooling_with_arg/pooling_with_arg_schedule.py (CANN 8.1.RC1):
//   x_pad [n, c1, H, W, c0]            the input rows (no padding here);
//   x_fractal [n, c1, kh·kw, F, 16, c0] img2col: tap t, output position p = 16·f + b holds
//                                       x[p / Wo · sh + t / kw, p % Wo · sw + t % kw] (F = ⌈Ho·Wo/16⌉);
//   reduce [n, c1, 1, F, 16, c0]        the max over the taps (vector_reduce_max);
//   depad → y [n, c1, Ho·Wo, c0];
//   vcmp = (x_fractal == reduce) as bits; mask = vcmp & not-yet-set (vand / vor / vnot per tap).
// On the 910B (v220) the AIV has no L1, so the tiling case is the VECTOR pattern
// (_get_tiling_patterns offers MTE1 on v100/v200 only) and its NO_SPLIT schedule
// (PoolingWithArgCommonSchedule) runs:
//   blocks: the (n, c1) planes fused and split by block_factor (blockShare: whole planes a block);
//   a UB tile: ub_fractal_factor fractals (16 output positions each, row-major over Ho·Wo) of one
//     plane; every UB tensor is bounded by max_dtype_count = (UB − UB_TEMP_BUFFER 256 B) ÷
//     _tensor_number 3 ÷ the dtype's bytes (_do_storage_bound), so the factor is the most fractals
//     whose x_fractal tile (kh·kw · factor · 16 · C0 elements, the largest) fits that bound. The C++
//     AutoTiling that picks it at run time is not public; this is the bound the schedule sets.
//     The schedule keeps one buffer per tensor (no double_buffer): a tile's loads wait for the
//     previous tile's compute.
//   MTE2: x_pad's dma_copy is emitted at axis 3 (W): one move per input row the tile's windows
//     reach, W·C0 elements each;
//   V:    img2col_vector_shl (emit attrs ho_wo_outer / wo / ho), emitted per tap and, for fp32,
//         per half of C0 (the schedule splits C0 by 8 and puts the half outside the fractal axis:
//         "emit insn support float32 adapt"), over the tile's positions, one 32 B block each. The
//         emitter's code is not public; modelled: per output row the tile touches, one instruction
//         of one block per repeat, the repeat stride stepping sw positions through the input row
//         (positions are regular only within a row), after the scalar unit has split the row's
//         first flattened position into (ho, wo) by the run-time Wo — a division and a remainder
//         (kPoolIndexDivisionCycles each; the kernel is compiled for unknown shapes,
//         kernel/config/ascend910b/max_pool_with_argmaxv1.json, shape −2). The ISA model has no
//         vector shift: a Copy of the same blocks stands in;
//         vector_reduce_max over the taps: dense Max of tap after tap into y (F·16·C0 elements);
//   MTE3: depad: the tile's y positions in one move;
//   V:    vcmp per tap over the same dense elements (the ISA model has no bit-producing compare:
//         CompareGt with the same repeats into a scratch tile stands in, the bits are not computed);
//         vector_dup of the not / or bits; per tap vand, vor, vnot over the tile's factor·256 bits
//         (factor·16 uint16; Not has no ISA op: an Int16 Copy of the same lanes stands in);
//   MTE3: vand's dma_copy is emitted at fractal_i inside the taps' loop: one move per tap.
// Every vector instruction that reads what the one before it wrote waits behind a PipeBarrier<PIPE_V>
// (hardware.md §2.4, docs/fidelity.md §62): the reduce after img2col, each Max after the previous,
// the compares after the reduce, each step of the mask chain after the step it reads.
#include <algorithm>
#include <memory>

#include "models/kernels/pooling/max_pool_argmax_geometry.h"
#include "models/kernels/pooling/max_pool_argmax_tik.h"
#include "models/kernels/pooling/pool_index_division.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// pooling_with_arg_schedule.py: UB_TEMP_BUFFER (bytes kept from UB) and _tensor_number (the
// coexisting quantity every UB tensor's buffer size is UB over).
constexpr std::uint64_t kDslUbTempBufferBytes = 256;
constexpr std::uint64_t kDslCoexistingTensors = 3;
// reduce.py FRACTAL_SIZE: output positions per fractal row.
constexpr std::uint64_t kDslFractalPositions = 16;
// The scalar divisions before each img2col row: ho and wo of the row's first position.
constexpr std::uint32_t kDslImg2colRowDivisions = 2;

struct ArgmaxPoolDslLayout {
    ArgmaxPoolGeometry g;
    std::uint64_t x = 0, y = 0, mask = 0;
    std::uint64_t fractalsPerPlane = 0, fractalsPerTile = 0, tilesPerPlane = 0;
    std::uint64_t rows = 0, fractal = 0, reduced = 0, compare = 0, bits = 0, masked = 0, seen = 0, notSeen = 0;
    std::uint64_t tapFractalBytes() const { return fractalsPerTile * kDslFractalPositions * g.positionBytes(); }
    std::uint64_t tapBitsBytes() const { return alignUp(fractalsPerTile * kDslFractalPositions * 2, kUbBlockBytes); }
};

class ArgmaxPoolDslTiles final : public TileSource {
public:
    ArgmaxPoolDslTiles(std::shared_ptr<const ArgmaxPoolDslLayout> l, UnitRange planes) : l_(std::move(l)), planes_(planes) {}
    std::uint64_t tileCount() const override { return planes_.size() * l_->tilesPerPlane; }
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const ArgmaxPoolDslLayout& l = *l_;
        const ArgmaxPoolGeometry& g = l.g;
        const std::uint64_t plane = planes_.begin + index / l.tilesPerPlane, chunk = index % l.tilesPerPlane;
        const std::uint64_t f0 = chunk * l.fractalsPerTile, fractals = std::min(l.fractalsPerTile, l.fractalsPerPlane - f0);
        const std::uint64_t p0 = f0 * kDslFractalPositions;
        const std::uint64_t p1 = std::min((f0 + fractals) * kDslFractalPositions, g.outH * g.outW);
        const std::uint64_t pb = g.positionBytes(), firstRow = p0 / g.outW, lastRow = (p1 - 1) / g.outW;
        const std::uint64_t firstInRow = firstRow * g.sh, inRows = (lastRow - firstRow) * g.sh + g.kh;
        const std::uint64_t planeIn = l.x + plane * g.h * g.w * pb;
        for (std::uint64_t r = 0; r < inRows; ++r)
            code.load.push_back(moveRowsToUb(planeIn + (firstInRow + r) * g.w * pb, l.rows + r * g.w * pb, 1, g.w * pb, g.w * pb));
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        // img2col: per tap and output row, the row's positions of this tile, sw positions apart,
        // each emission's rows split from their flattened positions on the scalar unit.
        const std::uint64_t emissions = g.taps() * (pb / kUbBlockBytes), rowsTouched = lastRow - firstRow + 1;
        code.scalarCycles = static_cast<std::uint32_t>(emissions * rowsTouched * kDslImg2colRowDivisions * kPoolIndexDivisionCycles);
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
            const std::uint64_t i = tap / g.kw, j = tap % g.kw;
            for (std::uint64_t row = firstRow; row <= lastRow; ++row) {
                const std::uint64_t q0 = std::max(p0, row * g.outW), q1 = std::min(p1, (row + 1) * g.outW);
                const std::uint64_t src = l.rows + (((row - firstRow) * g.sh + i) * g.w + (q0 - row * g.outW) * g.sw + j) * pb;
                const std::uint64_t dst = l.fractal + tap * l.tapFractalBytes() + (q0 - p0) * pb;
                emitPositions(code.compute, VectorOp::Copy, g.dtype, {.dst = dst, .src0 = src, .src0Stride = g.sw}, q1 - q0,
                              PositionPacking::OneBlockPerRepeat);
            }
        }
        // vector_reduce_max: the taps' dense tiles into y, tap after tap.
        const std::uint64_t elements = fractals * kDslFractalPositions * kArgmaxPoolC0;
        for (std::uint64_t tap = 1; tap < g.taps(); ++tap) {
            code.compute.push_back(afterWrites);  // img2col's tiles, then the previous tap's y
            const std::uint64_t earlier = tap == 1 ? l.fractal : l.reduced;
            emitVectorRange(code.compute, VectorOp::Max, g.dtype,
                            {.dst = l.reduced, .src0 = earlier, .src1 = l.fractal + tap * l.tapFractalBytes()}, elements);
        }
        code.compute.push_back(afterWrites);  // the compares read the final y
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap)
            emitVectorRange(code.compute, VectorOp::CompareGt, g.dtype,
                            {.dst = l.compare, .src0 = l.fractal + tap * l.tapFractalBytes(), .src1 = l.reduced}, elements);
        const std::uint64_t entries = fractals * kDslFractalPositions;  // one uint16 of bits per position
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int16, {.dst = l.notSeen}, entries, -1.0f);
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int16, {.dst = l.seen}, entries, 0.0f);
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
            const std::uint64_t out = l.masked + tap * l.tapBitsBytes();
            code.compute.push_back(afterWrites);  // vand reads this tap's bits and the complement
            emitVectorRange(code.compute, VectorOp::And, DataType::Int16,
                            {.dst = out, .src0 = l.bits + tap * l.tapBitsBytes(), .src1 = l.notSeen}, entries);
            code.compute.push_back(afterWrites);  // vor reads the masked bits
            emitVectorRange(code.compute, VectorOp::Or, DataType::Int16, {.dst = l.seen, .src0 = out, .src1 = l.seen}, entries);
            code.compute.push_back(afterWrites);  // vnot reads the bits so far
            emitVectorRange(code.compute, VectorOp::Copy, DataType::Int16, {.dst = l.notSeen, .src0 = l.seen}, entries);
        }
        code.store.push_back(moveRowsToGm(l.reduced, l.y + (plane * g.outH * g.outW + p0) * pb, 1, (p1 - p0) * pb, (p1 - p0) * pb));
        for (std::uint64_t tap = 0; tap < g.taps(); ++tap) {
            const std::uint64_t gm = l.mask + ((plane * g.taps() + tap) * g.maskTapEntries() + p0) * 2;
            code.store.push_back(moveRowsToGm(l.masked + tap * l.tapBitsBytes(), gm, 1, entries * 2, entries * 2));
        }
    }

private:
    std::shared_ptr<const ArgmaxPoolDslLayout> l_;
    UnitRange planes_;
};

std::vector<LoweredKernel> lowerMaxPoolWithArgmax(const OpInstance& op, const ChipConfig& chip) {
    if (op.inputs.size() != 1 || op.outputs.size() != 2) throwLoweringError(op, "needs x and the outputs y, argmax");
    const ArgmaxPoolGeometry g = argmaxPoolGeometry(op, op.inputs[0]);
    if (op.outputs[1].bytes() < g.planes * g.taps() * g.maskTapEntries() * 2)
        throwLoweringError(op, "argmax must hold N·C1·kh·kw·(⌈Ho·Wo/16⌉+1)·16 uint16");
    const std::uint64_t x = op.inputs[0].deviceAddr, y = op.outputs[0].deviceAddr, mask = op.outputs[1].deviceAddr;
    const std::uint64_t workBytes = op.inputs[0].bytes() + op.outputs[0].bytes();
    if (argmaxPoolPacking(g.dtype) == PositionPacking::BlockStrided)
        return {lowerMaxPoolWithArgmaxTik(op, chip, g, {.x = x, .y = y, .mask = mask}, workBytes)};
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<ArgmaxPoolDslLayout>();
    l->g = g;
    l->x = x;
    l->y = y;
    l->mask = mask;
    const std::uint64_t pb = g.positionBytes(), fractalBytes = kDslFractalPositions * pb;
    if (placement.ubBytes <= kDslUbTempBufferBytes) throwLoweringError(op, "UB is too small");
    const std::uint64_t tensorBytes = (placement.ubBytes - kDslUbTempBufferBytes) / kDslCoexistingTensors;
    l->fractalsPerPlane = ceilDiv(g.outH * g.outW, kDslFractalPositions);
    l->fractalsPerTile = std::min(l->fractalsPerPlane, tensorBytes / (g.taps() * fractalBytes));
    if (l->fractalsPerTile == 0) throwLoweringError(op, "one fractal of every tap does not fit in a UB tensor");
    l->tilesPerPlane = ceilDiv(l->fractalsPerPlane, l->fractalsPerTile);
    // The most input rows a tile's windows reach: its positions span at most
    // ⌈(factor·16 − 1) / Wo⌉ + 1 output rows.
    const std::uint64_t outRowsSpanned =
        std::min(g.outH, ceilDiv(l->fractalsPerTile * kDslFractalPositions - 1, g.outW) + 1);
    const std::uint64_t rowBytes = ((outRowsSpanned - 1) * g.sh + g.kh) * g.w * pb;
    UbAllocator ub(placement.ubBytes, op.name);
    l->rows = ub.allocate(rowBytes, "input rows");
    l->fractal = ub.allocate(g.taps() * l->tapFractalBytes(), "img2col fractals");
    l->reduced = ub.allocate(l->tapFractalBytes(), "window maxima");
    l->compare = ub.allocate(l->tapFractalBytes(), "compare scratch");
    l->bits = ub.allocate(g.taps() * l->tapBitsBytes(), "compare bits");
    l->masked = ub.allocate(g.taps() * l->tapBitsBytes(), "tap masks");
    l->seen = ub.allocate(l->tapBitsBytes(), "bits so far");
    l->notSeen = ub.allocate(l->tapBitsBytes(), "complement of the bits so far");
    return {tiledVectorKernel<ArgmaxPoolDslTiles>(op, placement, l, workBytes, g.planes)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("MaxPoolWithArgmaxV1", lowerMaxPoolWithArgmax);

}  // namespace ascendsim
