// The Foreach ops of torch's multi-tensor optimizer paths (docs/op-catalog.md, "Ops of the LLM
// samples"; the AlexNet sample's SGD): ForeachAddList z_i = x_i + alpha·y_i and ForeachMulScalar
// z_i = x_i·s, over lists of tensors in ONE kernel, as CANN's foreach kernels do: the tensors'
// elements are cut into chunks that never cross a tensor, blocks take contiguous ranges of
// chunks (a block may span several tensors) and each chunk is a double-buffered tile.
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

struct ForeachTensor {
    std::uint64_t x = 0, y = 0, z = 0, elements = 0, firstChunk = 0;
};

struct ForeachLayout {
    bool addList = true;
    float scalar = 1.0f;  // alpha (AddList) or the scalar (MulScalar)
    DataType dtype = DataType::Fp32, compute = DataType::Fp32;
    std::uint64_t chunk = 0;
    std::vector<ForeachTensor> tensors;
    std::uint64_t xStage = 0, yStage = 0, zStage = 0, stageHalf = 0, xWork = 0, yWork = 0;
};

class ForeachTiles final : public TileSource {
public:
    ForeachTiles(std::shared_ptr<const ForeachLayout> l, UnitRange chunks) : l_(std::move(l)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const ForeachLayout& l = *l_;
        const std::uint64_t chunk = chunks_.begin + index;
        const auto it = std::upper_bound(l.tensors.begin(), l.tensors.end(), chunk,
                                         [](std::uint64_t c, const ForeachTensor& t) { return c < t.firstChunk; });
        const ForeachTensor& t = *(it - 1);
        const std::uint64_t first = (chunk - t.firstChunk) * l.chunk, n = std::min(l.chunk, t.elements - first);
        const std::uint64_t eb = bytesOf(l.dtype), off = half * l.stageHalf;
        code.load.push_back(moveRowsToUb(t.x + first * eb, l.xStage + off, 1, n * eb, n * eb));
        if (l.addList) code.load.push_back(moveRowsToUb(t.y + first * eb, l.yStage + off, 1, n * eb, n * eb));
        const bool cast = l.compute != l.dtype;
        const std::uint64_t x = cast ? l.xWork : l.xStage + off, y = cast ? l.yWork : l.yStage + off;
        const std::uint64_t z = cast ? l.xWork : l.zStage + off;
        if (cast) {
            emitVectorRange(code.compute, VectorOp::Cast, l.compute, {.dst = x, .src0 = l.xStage + off}, n, 0.0f, l.dtype);
            if (l.addList) emitVectorRange(code.compute, VectorOp::Cast, l.compute, {.dst = y, .src0 = l.yStage + off}, n, 0.0f, l.dtype);
        }
        if (l.addList) {
            if (l.scalar != 1.0f) emitVectorRange(code.compute, VectorOp::Muls, l.compute, {.dst = y, .src0 = y}, n, l.scalar);
            emitVectorRange(code.compute, VectorOp::Add, l.compute, {.dst = z, .src0 = x, .src1 = y}, n);
        } else {
            emitVectorRange(code.compute, VectorOp::Muls, l.compute, {.dst = z, .src0 = x}, n, l.scalar);
        }
        if (cast) emitVectorRange(code.compute, VectorOp::Cast, l.dtype, {.dst = l.zStage + off, .src0 = z}, n, 0.0f, l.compute);
        code.store.push_back(moveRowsToGm(l.zStage + off, t.z + first * eb, 1, n * eb, n * eb));
    }

private:
    std::shared_ptr<const ForeachLayout> l_;
    UnitRange chunks_;
};

std::vector<LoweredKernel> lowerForeach(const OpInstance& op, const ChipConfig& chip, bool addList) {
    const std::size_t lists = addList ? 2 : 1;
    const std::size_t n = op.outputs.size();
    if (n == 0 || op.inputs.size() != lists * n) throwLoweringError(op, "needs one output per list entry");
    auto l = std::make_shared<ForeachLayout>();
    l->addList = addList;
    l->scalar = static_cast<float>(op.floatAttr(addList ? "alpha" : "scalar", 1.0));
    l->dtype = op.inputs[0].dtype;
    if (!isFloat(l->dtype)) throwLoweringError(op, "needs float tensors");
    l->compute = vectorComputeType(op, l->dtype);
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t eb = bytesOf(l->dtype), cb = bytesOf(l->compute);
    // Per chunk element: x, y, z staging halves (y only for AddList) + fp32 working copies.
    const std::uint64_t perElement = 2 * eb * (lists + 1) + (l->compute != l->dtype ? cb * lists : 0);
    l->chunk = (placement.ubBytes - 1024) / perElement / elementsPerRepeat(l->compute) * elementsPerRepeat(l->compute);
    std::uint64_t chunks = 0, bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const TensorInfo& x = op.inputs[i];
        const TensorInfo& z = op.outputs[i];
        if (x.dtype != l->dtype || z.elementCount() != x.elementCount() ||
            (addList && op.inputs[n + i].elementCount() != x.elementCount()))
            throwLoweringError(op, "list entry " + std::to_string(i) + ": shapes or dtypes disagree");
        ForeachTensor t{x.deviceAddr, addList ? op.inputs[n + i].deviceAddr : 0, z.deviceAddr,
                        static_cast<std::uint64_t>(x.elementCount()), chunks};
        chunks += ceilDiv(t.elements, l->chunk);
        bytes += (lists + 1) * x.bytes();
        l->tensors.push_back(t);
    }
    UbAllocator ub(placement.ubBytes, op.name);
    l->stageHalf = alignUp(l->chunk * eb, kUbBlockBytes);
    l->xStage = ub.allocate(2 * l->stageHalf, "x chunks");
    if (addList) l->yStage = ub.allocate(2 * l->stageHalf, "y chunks");
    l->zStage = ub.allocate(2 * l->stageHalf, "output chunks");
    if (l->compute != l->dtype) {
        l->xWork = ub.allocate(l->chunk * cb, "working x");
        if (addList) l->yWork = ub.allocate(l->chunk * cb, "working y");
    }
    return {tiledVectorKernel<ForeachTiles>(op, placement, l, bytes, chunks)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ForeachAddList", [](const OpInstance& op, const ChipConfig& chip) { return lowerForeach(op, chip, true); });
ASCENDSIM_REGISTER_KERNEL("ForeachMulScalar", [](const OpInstance& op, const ChipConfig& chip) { return lowerForeach(op, chip, false); });

}  // namespace ascendsim
