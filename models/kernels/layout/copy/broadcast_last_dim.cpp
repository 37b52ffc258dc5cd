// x [.., 1] → y [.., L]: rows of y over blocks; per tile of rows MTE2 brings the rows' values (one
// element each), the vector unit writes each row with a Duplicate of its value (the scalar unit
// reads it from UB, as Ascend C's GetValue before Duplicate), MTE3 stores the tile's rows in one
// burst. A row longer than a tile is cut into tiles of one row part each. The ISA model's
// Duplicate takes an immediate, not a register read from UB: the work and bytes are modelled,
// the functional model writes 1.0 instead of the row's value.
#include "models/kernels/layout/copy/broadcast_last_dim.h"

#include <algorithm>
#include <memory>

#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

struct LastDimLayout {
    DataType dtype = DataType::Fp32;
    std::uint64_t x = 0, y = 0, rows = 0, length = 0;
    std::uint64_t rowsPerTile = 0, partLength = 0, partsPerRow = 0, pitch = 0;
    std::uint64_t values = 0, valuesHalf = 0, out = 0, outHalf = 0;
    std::uint64_t units() const { return partsPerRow > 1 ? rows * partsPerRow : ceilDiv(rows, rowsPerTile); }
};

class LastDimTiles final : public TileSource {
public:
    LastDimTiles(std::shared_ptr<const LastDimLayout> l, UnitRange units) : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override { return units_.size(); }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const LastDimLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index, eb = bytesOf(l.dtype);
        std::uint64_t row0 = 0, rows = 0, first = 0, n = 0;
        if (l.partsPerRow > 1) {
            row0 = unit / l.partsPerRow, rows = 1;
            first = unit % l.partsPerRow * l.partLength, n = std::min(l.partLength, l.length - first);
        } else {
            row0 = unit * l.rowsPerTile, rows = std::min(l.rowsPerTile, l.rows - row0), n = l.length;
        }
        const std::uint64_t values = l.values + half * l.valuesHalf, out = l.out + half * l.outHalf;
        code.load.push_back(moveRowsToUb(l.x + row0 * eb, values, 1, rows * eb, rows * eb));
        for (std::uint64_t r = 0; r < rows; ++r)
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = out + r * l.pitch * eb}, n, 1.0f);
        code.store.push_back(moveRowsToGm(out, l.y + (row0 * l.length + first) * eb, static_cast<std::uint32_t>(rows), n * eb,
                                          l.pitch * eb));
    }

private:
    std::shared_ptr<const LastDimLayout> l_;
    UnitRange units_;
};

}  // namespace

bool broadcastsOnlyTheLastDim(const std::vector<std::int64_t>& x, const std::vector<std::int64_t>& y) {
    if (x.empty() || y.empty() || x.back() != 1 || y.back() == 1 || x.size() > y.size()) return false;
    const std::size_t lead = y.size() - x.size();
    for (std::size_t d = 0; d < lead; ++d)
        if (y[d] != 1) return false;
    for (std::size_t d = 0; d + 1 < x.size(); ++d)
        if (x[d] != y[lead + d]) return false;
    return true;
}

std::vector<LoweredKernel> lowerBroadcastLastDim(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    if (bytesOf(x.dtype) == 8) throwLoweringError(op, "a last-dim broadcast of 64-bit values is not modelled");
    auto l = std::make_shared<LastDimLayout>();
    l->dtype = x.dtype;
    l->x = x.deviceAddr;
    l->y = y.deviceAddr;
    l->rows = static_cast<std::uint64_t>(x.elementCount());
    l->length = static_cast<std::uint64_t>(y.shape.back());
    const VectorPlacement placement = vectorPlacement(chip);
    const std::uint64_t eb = bytesOf(l->dtype), perBlock = kUbBlockBytes / eb;
    const std::uint64_t halfBytes = (placement.ubBytes - 2 * 4096) / 2 / kUbBlockBytes * kUbBlockBytes;  // 4 KiB per values half
    l->pitch = alignUp(l->length, perBlock);
    if (l->pitch * eb <= halfBytes) {
        l->rowsPerTile = std::max<std::uint64_t>(1, std::min<std::uint64_t>({halfBytes / (l->pitch * eb), 4096 / eb, l->rows}));
        l->partsPerRow = 1;
        l->partLength = l->length;
    } else {
        l->rowsPerTile = 1;
        l->partLength = halfBytes / eb / perBlock * perBlock;
        l->partsPerRow = ceilDiv(l->length, l->partLength);
        l->pitch = l->partLength;
    }
    UbAllocator ub(placement.ubBytes, op.name);
    l->valuesHalf = 4096;
    l->values = ub.allocate(2 * l->valuesHalf, "row values");
    l->outHalf = halfBytes;
    l->out = ub.allocate(2 * l->outHalf, "output rows");
    return {tiledVectorKernel<LastDimTiles>(op, placement, l, y.bytes(), l->units())};
}

}  // namespace ascendsim
