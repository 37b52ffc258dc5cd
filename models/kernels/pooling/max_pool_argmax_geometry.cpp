#include "models/kernels/pooling/max_pool_argmax_geometry.h"

#include <algorithm>

namespace ascendsim {

std::vector<std::int64_t> ArgmaxPoolGeometry::maskShape() const {
    return {1, static_cast<std::int64_t>(planes), static_cast<std::int64_t>(taps()),
            static_cast<std::int64_t>(maskTapEntries() / 16), 16};
}

ArgmaxPoolGeometry argmaxPoolGeometry(const OpInstance& op, const TensorInfo& x) {
    if (x.shape.size() != 4) throwLoweringError(op, "x must be [N,C,H,W]");
    if (x.shape[1] % static_cast<std::int64_t>(kArgmaxPoolC0) != 0)
        throwLoweringError(op, "C must be a multiple of 16 (NC1HWC0 with C0 = 16)");
    if (!isFloat(x.dtype) || x.dtype == DataType::Bf16) throwLoweringError(op, "x must be fp16 or fp32");
    const auto ksize = op.intsAttr("ksize", {});
    const auto strides = op.intsAttr("strides", {1, 1});
    const auto pads = op.intsAttr("pads", {0, 0, 0, 0});
    if (ksize.size() != 2 || strides.size() != 2 || ksize[0] < 1 || ksize[1] < 1 || strides[0] < 1 || strides[1] < 1)
        throwLoweringError(op, "ksize and strides must be two positive values");
    if (std::any_of(pads.begin(), pads.end(), [](std::int64_t p) { return p != 0; }))
        throwLoweringError(op, "pads are not modelled (the samples' windows are unpadded)");
    ArgmaxPoolGeometry g;
    g.dtype = x.dtype;
    g.planes = static_cast<std::uint64_t>(x.shape[0] * (x.shape[1] / static_cast<std::int64_t>(kArgmaxPoolC0)));
    g.h = static_cast<std::uint64_t>(x.shape[2]);
    g.w = static_cast<std::uint64_t>(x.shape[3]);
    g.kh = static_cast<std::uint64_t>(ksize[0]);
    g.kw = static_cast<std::uint64_t>(ksize[1]);
    g.sh = static_cast<std::uint64_t>(strides[0]);
    g.sw = static_cast<std::uint64_t>(strides[1]);
    if (g.kh > g.h || g.kw > g.w) throwLoweringError(op, "the window is larger than the image");
    g.outH = (g.h - g.kh) / g.sh + 1;
    g.outW = (g.w - g.kw) / g.sw + 1;
    if (g.taps() > 255 || g.sw * 2 > 255) throwLoweringError(op, "window or stride too large for block-strided taps");
    return g;
}

namespace {

// One position (`wholePosition`) or one 32 B block of it per repeat, the repeat stride stepping from
// position to position; a position's blocks in instructions of their own when not whole.
void emitOnePositionPerRepeat(std::vector<Instruction>& code, VectorOp op, DataType dtype, const PositionOperands& o,
                              std::uint64_t positions, bool wholePosition) {
    const std::uint64_t positionBytes = kArgmaxPoolC0 * bytesOf(dtype), blocksPerPosition = positionBytes / kUbBlockBytes;
    VectorInstr v;
    v.op = op;
    v.dtype = dtype;
    v.srcType = dtype;
    v.mask = static_cast<std::uint16_t>(wholePosition ? kArgmaxPoolC0 : elementsPerBlock(dtype));
    v.dstRepeatStride = static_cast<std::uint16_t>(o.dstStride * blocksPerPosition);
    v.src0RepeatStride = static_cast<std::uint16_t>(o.src0Stride * blocksPerPosition);
    v.src1RepeatStride = static_cast<std::uint16_t>(o.src1Stride * blocksPerPosition);
    const std::uint64_t parts = wholePosition ? 1 : blocksPerPosition;
    for (std::uint64_t part = 0; part < parts; ++part) {
        const std::uint64_t offset = part * kUbBlockBytes;
        for (std::uint64_t done = 0; done < positions;) {
            const std::uint64_t repeats = std::min<std::uint64_t>(positions - done, kMaxVectorRepeats);
            v.repeats = static_cast<std::uint16_t>(repeats);
            v.dst = o.dst + offset + positionBytes * done * o.dstStride;
            v.src0 = o.src0 + offset + positionBytes * done * o.src0Stride;
            v.src1 = o.src1 + offset + positionBytes * done * o.src1Stride;
            code.push_back(Instruction::vector(v));
            done += repeats;
        }
    }
}

}  // namespace

void emitPositions(std::vector<Instruction>& code, VectorOp op, DataType dtype, const PositionOperands& o,
                   std::uint64_t positions, PositionPacking packing) {
    if (packing != PositionPacking::BlockStrided)
        return emitOnePositionPerRepeat(code, op, dtype, o, positions, packing == PositionPacking::OnePerRepeat);
    const std::uint64_t blocksPerPosition = kArgmaxPoolC0 * bytesOf(dtype) / kUbBlockBytes;
    const std::uint32_t lanesPerBlock = elementsPerBlock(dtype);
    for (std::uint64_t part = 0; part < blocksPerPosition; ++part) {
        VectorInstr v;
        v.op = op;
        v.dtype = dtype;
        v.srcType = dtype;
        v.dstBlockStride = static_cast<std::uint8_t>(o.dstStride * blocksPerPosition);
        v.src0BlockStride = static_cast<std::uint8_t>(o.src0Stride * blocksPerPosition);
        v.src1BlockStride = static_cast<std::uint8_t>(o.src1Stride * blocksPerPosition);
        v.dstRepeatStride = static_cast<std::uint16_t>(8 * v.dstBlockStride);
        v.src0RepeatStride = static_cast<std::uint16_t>(8 * v.src0BlockStride);
        v.src1RepeatStride = static_cast<std::uint16_t>(8 * v.src1BlockStride);
        const std::uint64_t offset = part * kUbBlockBytes;
        std::uint64_t done = 0;
        while (done < positions) {
            const std::uint64_t left = positions - done;
            const std::uint64_t repeats = left >= 8 ? std::min<std::uint64_t>(left / 8, kMaxVectorRepeats) : 1;
            const std::uint64_t perRepeat = left >= 8 ? 8 : left;
            v.repeats = static_cast<std::uint16_t>(repeats);
            v.mask = static_cast<std::uint16_t>(perRepeat * lanesPerBlock);
            const std::uint64_t position = kArgmaxPoolC0 * bytesOf(dtype) * done;
            v.dst = o.dst + offset + position * o.dstStride;
            v.src0 = o.src0 + offset + position * o.src0Stride;
            v.src1 = o.src1 + offset + position * o.src1Stride;
            code.push_back(Instruction::vector(v));
            done += repeats * perRepeat;
        }
    }
}

}  // namespace ascendsim
