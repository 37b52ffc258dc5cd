// DropOutDoMask (docs/op-catalog.md, "Ops of the CNN training samples"): y = x · bit_i / keep_prob,
// the bit mask one bit per element (uint8 [⌈n/8⌉], from DropOutGenMask / DSAGenBitMask), keep_prob
// a [1] tensor. As CANN's kernel: chunks of x and their mask bytes come in by MTE2 (the mask is
// 1/32 of an fp32 chunk's bytes), the vector unit scales x by 1/keep_prob and selects it or 0 by
// the bits (vsel with a bit-mask operand), MTE3 stores y. The ISA model's Select reads its
// condition from a UB tile rather than bits: its work and the mask bytes are modelled, the
// selection pattern is not.
//
// On coupled chips (the 910A) CANN runs the TIK kernel's CMPMASK loop instead (DoMaskCmpmaskTiles):
// tbe/impl/dynamic/drop_out_do_mask.py (CANN 8.1, read for structure, nothing copied) takes the vsel
// with a tensor mask (drop_out_do_mask_vsel) only where check_supported_vcopy() holds (the 220x);
// elsewhere `_var_update` selects 128 lanes at a time: `mov_tensor_to_cmpmask` of 16 mask bytes into
// the CMPMASK register, a one-repeat fp16 `vsel` of 1.0 / 0.0 by it, and for fp32 x a `vconv` of the
// 128 selected values to fp32 and a `vmul` of x by them (two repeats each). One x buffer of 254
// repeats (max_process_num), loaded, scaled (`vmuls`), selected and stored in turn.
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/pooling/tik_scalar_work.h"
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

// The TIK kernel's constants (drop_out_do_mask.py): x moves in runs of at most 254 repeats
// (max_repeat_num · 64 fp32 or · 128 fp16 elements); the select loop takes 128 lanes
// (ELEMENTS_VECTOR_OP_FP16) per CMPMASK load, 16 bytes of mask bits.
constexpr std::uint64_t kCmpmaskMaxRepeats = 254;
constexpr std::uint64_t kCmpmaskLanes = 128;
// The blocks' shares (the host tiling's do_num_per_core) are taken here in whole 32 B blocks of mask
// bits, so that each block's mask move starts on a byte (assumed granularity: the tiling source was not read).
constexpr std::uint64_t kMaskBlockElements = kUbBlockBytes * 8;

struct DoMaskCmpmaskLayout {
    DataType dtype = DataType::Fp32;
    std::uint64_t x = 0, mask = 0, y = 0, elements = 0, chunk = 0;
    std::uint64_t xUb = 0, maskUb = 0, zeros = 0, ones = 0, selected = 0, selectedWide = 0, cmpmask = 0;
};

class DoMaskCmpmaskTiles final : public TileSource {
public:
    // `blocks`: this block's share of the tensor in whole mask blocks (kMaskBlockElements each).
    DoMaskCmpmaskTiles(std::shared_ptr<const DoMaskCmpmaskLayout> l, UnitRange blocks)
        : l_(std::move(l)),
          begin_(blocks.begin * kMaskBlockElements),
          end_(std::min(blocks.end * kMaskBlockElements, l_->elements)) {}
    std::uint64_t tileCount() const override { return end_ > begin_ ? ceilDiv(end_ - begin_, l_->chunk) : 0; }
    std::uint32_t buffers() const override { return 1; }  // one var_ub, one mask_ub
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Fp16, {.dst = l_->zeros}, kCmpmaskLanes, 0.0f);
        if (l_->dtype == DataType::Fp32)
            emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Fp16, {.dst = l_->ones}, kCmpmaskLanes, 1.0f);
    }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const DoMaskCmpmaskLayout& l = *l_;
        const std::uint64_t first = begin_ + index * l.chunk, n = std::min(l.chunk, end_ - first);
        const std::uint64_t eb = bytesOf(l.dtype), maskBytes = ceilDiv(n, 256) * kUbBlockBytes;
        code.load.push_back(moveRowsToUb(l.x + first * eb, l.xUb, 1, n * eb, n * eb));
        code.load.push_back(moveRowsToUb(l.mask + first / 8, l.maskUb, 1, maskBytes, maskBytes));
        std::vector<Instruction>& v = code.compute;
        // 1/keep_prob was read by the scalar unit before the first tile; its value does not change the work.
        emitVectorRange(v, VectorOp::Muls, l.dtype, {.dst = l.xUb, .src0 = l.xUb}, n, 2.0f);
        // Each step reads what the one before wrote (the CMPMASK, the selected lanes, their fp32 copy),
        // and the next lanes' CMPMASK load overwrites what this select read: TIK puts a V barrier between.
        const Instruction afterWrites = Instruction::barrier(Pipe::Vector);
        for (std::uint64_t lane = 0; lane < n; lane += kCmpmaskLanes) {
            const std::uint64_t lanes = std::min(kCmpmaskLanes, n - lane), at = l.xUb + lane * eb;
            v.push_back(afterWrites);
            // The CMPMASK load: the ISA model has no such register; a one-repeat copy of the 16 mask
            // bytes stands in for it, reading the 32 B block that holds them (as the TIK pooling grad's,
            // docs/fidelity.md §62c).
            const std::uint64_t maskBlock = l.maskUb + lane / 8 / kUbBlockBytes * kUbBlockBytes;
            emitVectorRange(v, VectorOp::Copy, DataType::Int16, {.dst = l.cmpmask, .src0 = maskBlock}, kCmpmaskLanes / 16);
            v.push_back(afterWrites);
            if (l.dtype != DataType::Fp32) {
                emitVectorRange(v, VectorOp::Select, l.dtype, {.dst = at, .src0 = at, .src1 = l.zeros, .src1IsBlock = true}, lanes);
                continue;
            }
            emitVectorRange(v, VectorOp::Select, DataType::Fp16,
                            {.dst = l.selected, .src0 = l.ones, .src1 = l.zeros, .src1IsBlock = true}, kCmpmaskLanes);
            v.push_back(afterWrites);
            emitVectorRange(v, VectorOp::Cast, DataType::Fp32, {.dst = l.selectedWide, .src0 = l.selected}, kCmpmaskLanes, 0.0f,
                            DataType::Fp16);
            v.push_back(afterWrites);
            emitVectorRange(v, VectorOp::Mul, DataType::Fp32, {.dst = at, .src0 = l.selectedWide, .src1 = at}, kCmpmaskLanes);
        }
        addTikScalarWork(v);
        code.store.push_back(moveRowsToGm(l.xUb, l.y + first * eb, 1, n * eb, n * eb));
    }

private:
    std::shared_ptr<const DoMaskCmpmaskLayout> l_;
    std::uint64_t begin_ = 0, end_ = 0;  // elements
};

LoweredKernel lowerCmpmaskDoMask(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    auto l = std::make_shared<DoMaskCmpmaskLayout>();
    l->dtype = x.dtype;
    l->x = x.deviceAddr;
    l->mask = op.inputs[1].deviceAddr;
    l->y = op.outputs[0].deviceAddr;
    l->elements = static_cast<std::uint64_t>(x.elementCount());
    l->chunk = kCmpmaskMaxRepeats * elementsPerRepeat(l->dtype);
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    l->xUb = ub.allocate(alignUp(l->chunk * bytesOf(l->dtype), kUbBlockBytes), "var_ub");
    l->maskUb = ub.allocate(alignUp(ceilDiv(l->chunk, 256) * kUbBlockBytes, kUbBlockBytes), "mask_ub");
    l->zeros = ub.allocate(kCmpmaskLanes * 2, "zero_ub");
    l->ones = ub.allocate(kCmpmaskLanes * 2, "one_ub");
    l->selected = ub.allocate(kCmpmaskLanes * 2, "sel_fp16_ub");
    l->selectedWide = ub.allocate(kCmpmaskLanes * 4, "sel_fp32_ub");
    l->cmpmask = ub.allocate(kUbBlockBytes, "CMPMASK stand-in");
    return tiledVectorKernel<DoMaskCmpmaskTiles>(op, placement, l, 2 * x.bytes(), ceilDiv(l->elements, kMaskBlockElements));
}

// The 220x form: CANN's drop_out_do_mask_vsel, a multi-repeat vsel reading its bits from UB.
LoweredKernel lowerVselDoMask(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    auto l = std::make_shared<DoMaskLayout>();
    l->dtype = x.dtype;
    l->compute = vectorComputeType(op, x.dtype);
    l->x = x.deviceAddr;
    l->mask = op.inputs[1].deviceAddr;
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
    return tiledVectorKernel<DoMaskTiles>(op, placement, l, 2 * x.bytes(), chunks);
}

std::vector<LoweredKernel> lowerDropOutDoMask(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 2, 1);
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& mask = op.inputs[1];
    if (!isFloat(x.dtype)) throwLoweringError(op, "x must be a float tensor");
    if (op.outputs[0].elementCount() != x.elementCount()) throwLoweringError(op, "y must have x's elements");
    if (mask.bytes() * 8 < static_cast<std::uint64_t>(x.elementCount()))
        throwLoweringError(op, "the mask must hold one bit per element of x");
    const bool cmpmaskLoop =
        chip.organisation == CoreOrganisation::Coupled && (x.dtype == DataType::Fp32 || x.dtype == DataType::Fp16);
    LoweredKernel kernel = cmpmaskLoop ? lowerCmpmaskDoMask(op, chip) : lowerVselDoMask(op, chip);
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
