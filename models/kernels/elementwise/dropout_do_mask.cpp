// DropOutDoMask (docs/op-catalog.md, "Ops of the CNN training samples"): y = x · bit_i / keep_prob,
// the bit mask one bit per element (uint8 [⌈n/8⌉], from DropOutGenMask / DSAGenBitMask), keep_prob
// a [1] tensor. As CANN's kernel: chunks of x and their mask bytes come in by MTE2 (the mask is
// 1/32 of an fp32 chunk's bytes), the vector unit scales x by 1/keep_prob and selects it or 0 by
// the bits (vsel with a bit-mask operand), MTE3 stores y. The ISA model's Select reads its
// condition from a UB tile rather than bits: its work and the mask bytes are modelled, the
// selection pattern is not.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/leading_reads.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// Tiling words a DropOutDoMask block reads: cores used, elements per core, the tail core's, cores.
constexpr std::uint32_t kDoMaskTilingWords = 4;

struct DoMaskLayout {
    DataType dtype = DataType::Fp16, compute = DataType::Fp16;
    std::uint64_t x = 0, mask = 0, y = 0, elements = 0, chunk = 0;
    std::uint64_t xStage = 0, maskStage = 0, yStage = 0, xHalf = 0, maskHalf = 0, work = 0, zeros = 0;
};

class DoMaskTiles final : public TileSource {
public:
    DoMaskTiles(std::shared_ptr<const DoMaskLayout> l, UnitRange chunks) : l_(std::move(l)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, l_->compute, {.dst = l_->zeros}, elementsPerBlock(l_->compute), 0.0f);
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const DoMaskLayout& l = *l_;
        const std::uint64_t first = (chunks_.begin + index) * l.chunk, n = std::min(l.chunk, l.elements - first);
        const std::uint64_t eb = bytesOf(l.dtype), maskBytes = ceilDiv(n, 8);
        const std::uint64_t x = l.xStage + half * l.xHalf, y = l.yStage + half * l.xHalf;
        code.load.push_back(moveRowsToUb(l.x + first * eb, x, 1, n * eb, n * eb));
        code.load.push_back(moveRowsToUb(l.mask + first / 8, l.maskStage + half * l.maskHalf, 1, maskBytes, maskBytes));
        const bool cast = l.compute != l.dtype;
        const std::uint64_t v = cast ? l.work : x;
        if (cast) emitVectorRange(code.compute, VectorOp::Cast, l.compute, {.dst = v, .src0 = x}, n, 0.0f, l.dtype);
        // 1/keep_prob was read by the scalar unit before the first tile; its value does not change the work.
        emitVectorRange(code.compute, VectorOp::Muls, l.compute, {.dst = v, .src0 = v}, n, 2.0f);
        const std::uint64_t out = cast ? l.work : y;
        emitVectorRange(code.compute, VectorOp::Select, l.compute, {.dst = out, .src0 = v, .src1 = l.zeros, .src1IsBlock = true}, n);
        if (cast) emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = y, .src0 = out}, n, 0.0f, l.compute);
        code.store.push_back(moveRowsToGm(y, l.y + first * eb, 1, n * eb, n * eb));
    }

private:
    std::shared_ptr<const DoMaskLayout> l_;
    UnitRange chunks_;
};

std::vector<LoweredKernel> lowerDropOutDoMask(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& mask = op.inputs[1];
    if (!isFloat(x.dtype)) throwLoweringError(op, "x must be a float tensor");
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "y must have x's elements");
    if (mask.bytes() * 8 < static_cast<std::uint64_t>(x.elementCount()))
        throwLoweringError(op, "the mask must hold one bit per element of x");
    auto l = std::make_shared<DoMaskLayout>();
    l->dtype = x.dtype;
    l->compute = vectorComputeType(op, x.dtype);
    l->x = x.deviceAddr;
    l->mask = mask.deviceAddr;
    l->y = op.outputs[0].deviceAddr;
    l->elements = static_cast<std::uint64_t>(x.elementCount());
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t eb = bytesOf(l->dtype), cb = bytesOf(l->compute);
    // Per chunk element: x and y halves, mask bits (1/8 B, double-buffered), the working copy.
    const double perElement = 4.0 * static_cast<double>(eb) + 0.25 + (l->compute != l->dtype ? static_cast<double>(cb) : 0.0);
    const std::uint64_t repeat = std::max<std::uint64_t>(elementsPerRepeat(l->compute), 256);  // whole mask bytes per 32 B
    l->chunk = static_cast<std::uint64_t>(static_cast<double>(placement.ubBytes - 1024) / perElement) / repeat * repeat;
    UbAllocator ub(placement.ubBytes, op.name);
    l->xHalf = alignUp(l->chunk * eb, kUbBlockBytes);
    l->xStage = ub.allocate(2 * l->xHalf, "x chunks");
    l->yStage = ub.allocate(2 * l->xHalf, "y chunks");
    l->maskHalf = alignUp(l->chunk / 8, kUbBlockBytes);
    l->maskStage = ub.allocate(2 * l->maskHalf, "mask bytes");
    if (l->compute != l->dtype) l->work = ub.allocate(alignUp(l->chunk * cb, kUbBlockBytes), "working x");
    l->zeros = ub.allocate(kUbBlockBytes, "zero block");
    const std::uint64_t chunks = ceilDiv(l->elements, l->chunk);
    LoweredKernel kernel = tiledVectorKernel<DoMaskTiles>(op, placement, l, 2 * x.bytes(), chunks);
    // CANN's dynamic TIK kernel (tbe/impl/dynamic/drop_out_do_mask.py, CANN 8.1, read for structure;
    // docs/fidelity.md §61): every block moves the 12-word tiling record (3 blocks) and reads 4 words
    // of it, then moves keep_prob (one 32 B block) and reads 1/keep_prob back with set_as.
    std::vector<LeadingRead> reads{{.bytes = 3 * kUbBlockBytes, .scalarWords = kDoMaskTilingWords}};
    if (op.inputs.size() > 2) reads.push_back({.bytes = kUbBlockBytes, .scalarWords = 1, .inTiling = false, .gmAddr = op.inputs[2].deviceAddr});
    else reads.push_back({.bytes = kUbBlockBytes, .scalarWords = 1});
    prependLeadingReads(kernel, chip, std::move(reads));
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("DropOutDoMask", lowerDropOutDoMask);

}  // namespace ascendsim
