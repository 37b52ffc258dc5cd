// Padded fractal TransData (trans_data_padded.h). The fractal side is split into units — one
// 16-column strip of one matrix (FRACTAL_NZ: [..][N1][M1·16][16], contiguous there) or 16 output
// channels × a chunk of the kernel taps (FRACTAL_Z: [C1·K][Co1][16][C0], K = kh·kw: one strided
// move of 16 × C0 fractal rows per C1 block) — and blocks take runs of whole tiles of units. Per tile of units, as a vector kernel does it (vector_tiling_stream.h):
//   MTE2 moves the tile's source bytes GM → UB: the real elements (bursts as the plain side lays
//     them out: whole weight rows [C·K] per channel, or M rows of the strip's 16 columns) or the
//     padded fractals;
//   the vector unit zeroes the padded destination (Duplicate) when writing into a fractal and
//     reorders the elements with one Gather through an offset table built once per block;
//   MTE3 stores the destination: the fractal side as bursts of whole fractals, the plain side as
//     its real elements only (the padding dropped).
// Units are whole matrices (FRACTAL_NZ) or whole weights (FRACTAL_Z) when several fit in a tile,
// so a batch of small planes (8192 planes of 6×6 into one 16×16 fractal each) moves in few tiles.
// The coupled chips run CANN's DSL TransData for ND ↔ FRACTAL_NZ (docs/fidelity.md §104a, §139):
// one buffer, a block's whole share in one tile when UB holds it (dslPaddedNzUnitsPerTile), and
// the reorder as the DSL's `vor` block moves, with align_pad / remove_pad for packed rows
// (emitDslBlockReorder), not the Gather.
#include "models/kernels/layout/trans_data/trans_data_padded.h"

#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/trans_data/trans_data_dsl_buffers.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kFractalEdge = 16;  // hardware.md §2.3: 16×16 fractals
// Destination elements per tile at most (assumed: with the source, the destination and the offset
// table double-buffered this keeps a tile well inside UB for 32-bit elements).
constexpr std::uint64_t kMaxTileElements = 8192;

// `rows` bursts of `rowBytes`, `stride` bytes apart in GM.
struct GmBursts {
    std::uint64_t gm = 0, rows = 1, rowBytes = 0, stride = 0;
};

// The geometry of one conversion. The plain side is `outer` items of `rows` × `cols` elements;
// a unit is one fractal-contiguous piece of `unitFractal` elements:
// - FRACTAL_NZ: one 16-column strip of one item (unitsPerItem = N1);
// - FRACTAL_Z: (16 output channels, a chunk of kChunk kernel taps) — the item is the whole
//   weight, rows = Co, cols = C·K, unitsPerItem = Co1 × K chunks.
struct PaddedLayout {
    bool fractalZ = false;
    DataType dtype = DataType::Fp32;
    std::uint64_t eb = 4;
    bool toFractal = true;
    std::uint64_t plainGm = 0, fractalGm = 0;
    std::uint64_t outer = 1, rows = 1, cols = 1;
    std::uint64_t unitsPerItem = 1, unitCols = 1, unitFractal = 0;
    std::uint64_t c = 0, c0 = 0, c1 = 0, k = 0, co1 = 0, kChunk = 0, kChunks = 1;  // FRACTAL_Z
    std::uint64_t unitsPerTile = 1;
    std::uint64_t srcHalf = 0, dstHalf = 0, table = 0;
    bool singleBuffer = false;  // the 910A's DSL schedule (trans_data_dsl_buffers.h)
    // The reorder is the DSL's block move (`vor`) instead of the offset-table Gather (FRACTAL_NZ).
    bool dslBlockReorder = false;

    std::uint32_t buffers() const { return singleBuffer ? 1 : 2; }
    std::uint64_t units() const { return outer * unitsPerItem; }
    // Tiles hold whole items (unitsPerTile a multiple of unitsPerItem) or part of one item.
    bool wholeItems() const { return unitsPerTile % unitsPerItem == 0; }
    std::uint64_t tilesPerItem() const { return ceilDiv(unitsPerItem, unitsPerTile); }
    std::uint64_t tiles() const { return wholeItems() ? ceilDiv(units(), unitsPerTile) : outer * tilesPerItem(); }
    // The units [first, first + count) of tile t.
    std::pair<std::uint64_t, std::uint64_t> tileUnits(std::uint64_t t) const {
        if (wholeItems()) return {t * unitsPerTile, std::min(unitsPerTile, units() - t * unitsPerTile)};
        const std::uint64_t item = t / tilesPerItem(), within = t % tilesPerItem() * unitsPerTile;
        return {item * unitsPerItem + within, std::min(unitsPerTile, unitsPerItem - within)};
    }
};

class PaddedTiles final : public TileSource {
public:
    PaddedTiles(std::shared_ptr<const PaddedLayout> l, UnitRange tiles) : l_(std::move(l)), tiles_(tiles) {}
    std::uint64_t tileCount() const override { return tiles_.size(); }
    std::uint32_t buffers() const override { return l_->buffers(); }
    void setup(TileCode& code) override {
        if (l_->dslBlockReorder) return;
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Int32, {.dst = l_->table}, l_->unitsPerTile * l_->unitFractal);
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const PaddedLayout& l = *l_;
        const auto [first, count] = l.tileUnits(tiles_.begin + index);
        const auto plain = plainBursts(first, count), fractal = fractalBursts(first, count);
        const auto& src = l.toFractal ? plain : fractal;
        const auto& dst = l.toFractal ? fractal : plain;
        const std::uint64_t srcUb = half * l.srcHalf, dstUb = l.buffers() * l.srcHalf + half * l.dstHalf;
        std::uint64_t ub = srcUb;
        // UB rows start on 32 B blocks (a plain row of 6 fp16 takes one block).
        for (const GmBursts& b : src) {
            const std::uint64_t pitch = alignUp(b.rowBytes, kUbBlockBytes);
            code.load.push_back(moveStridedRowsToUb(b.gm, ub, static_cast<std::uint32_t>(b.rows), b.rowBytes,
                                                    std::max(b.stride, b.rowBytes), pitch));
            ub += b.rows * pitch;
        }
        const DataType words = l.eb == 4 ? DataType::Int32 : DataType::Int16;
        std::uint64_t fractalBytes = 0;
        for (const GmBursts& b : fractal) fractalBytes += b.rows * b.rowBytes;
        if (l.toFractal) emitVectorRange(code.compute, VectorOp::Duplicate, words, {.dst = dstUb}, fractalBytes / l.eb, 0.0f);
        std::uint64_t plainBytes = 0;
        for (const GmBursts& b : plain) plainBytes += b.rows * b.rowBytes;
        if (l.dslBlockReorder)
            emitDslBlockReorder(first, count, srcUb, dstUb, code);
        else
            emitVectorRange(code.compute, VectorOp::Gather, words, {.dst = dstUb, .src0 = srcUb, .src1 = l.table}, plainBytes / l.eb);
        ub = dstUb;
        for (const GmBursts& b : dst) {
            const std::uint64_t pitch = alignUp(b.rowBytes, kUbBlockBytes);
            DataMove m{.src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = ub;
            m.dstAddr = b.gm;
            m.burstCount = static_cast<std::uint32_t>(b.rows);
            m.burstBytes = static_cast<std::uint32_t>(b.rowBytes);
            m.srcGapBytes = static_cast<std::uint32_t>(pitch - b.rowBytes);
            m.dstGapBytes = static_cast<std::uint32_t>(b.rows > 1 ? b.stride - b.rowBytes : 0);
            code.store.push_back(Instruction::move(m));
            ub += b.rows * pitch;
        }
    }

private:
    // The DSL's reorder (dslBlockReorder): the real rows' 32 B blocks moved by `vor` between the
    // plain side's block-aligned rows and the fractal strips. A plain side moved as one packed run
    // (whole items whose rows are not whole blocks: COMMON_ALIGN) is first align_pad-ed (ND → NZ)
    // or afterwards remove_pad-ed (NZ → ND) through the aligned-rows buffer, a UB → UB copy of a
    // burst a row, as the NCHW ↔ NC1HWC0 form does (trans_data_nchwconv.cpp).
    void emitDslBlockReorder(std::uint64_t first, std::uint64_t count, std::uint64_t srcUb, std::uint64_t dstUb,
                             TileCode& code) const {
        const PaddedLayout& l = *l_;
        // Whole items move as one packed run (plainBursts); part of an item as rows of its strips'
        // columns, each landing on a block-aligned UB row.
        const std::uint64_t cols = l.wholeItems() ? l.cols : std::min(count * l.unitCols, l.cols - first % l.unitsPerItem * l.unitCols);
        const std::uint64_t rowBytes = cols * l.eb, alignedRow = alignUp(rowBytes, kUbBlockBytes);
        const std::uint64_t rows = (l.wholeItems() ? count / l.unitsPerItem : 1) * l.rows;
        const bool packed = l.wholeItems() && rowBytes % kUbBlockBytes != 0;
        const DataType words = l.eb == 4 ? DataType::Int32 : DataType::Int16;
        const auto repitch = [&](std::uint64_t from, std::uint64_t to, std::uint64_t fromPitch, std::uint64_t toPitch) {
            DataMove m{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = from;
            m.dstAddr = to;
            m.burstCount = static_cast<std::uint32_t>(rows);
            m.burstBytes = static_cast<std::uint32_t>(rowBytes);
            m.srcGapBytes = static_cast<std::uint32_t>(fromPitch - rowBytes);
            m.dstGapBytes = static_cast<std::uint32_t>(toPitch - rowBytes);
            code.compute.push_back(Instruction::move(m));
        };
        const std::uint64_t aligned = l.table;  // the Gather form's table room holds the aligned rows
        const std::uint64_t vorElements = rows * alignedRow / l.eb;
        if (l.toFractal) {
            std::uint64_t from = srcUb;
            if (packed) {
                repitch(srcUb, aligned, rowBytes, alignedRow);
                from = aligned;
            }
            emitVectorRange(code.compute, VectorOp::Or, words, {.dst = dstUb, .src0 = from, .src1 = from}, vorElements);
        } else {
            emitVectorRange(code.compute, VectorOp::Or, words, {.dst = packed ? aligned : dstUb, .src0 = srcUb, .src1 = srcUb}, vorElements);
            if (packed) repitch(aligned, dstUb, alignedRow, rowBytes);
        }
    }

    // The plain side's bytes of units [first, first + count).
    std::vector<GmBursts> plainBursts(std::uint64_t first, std::uint64_t count) const {
        const PaddedLayout& l = *l_;
        if (l.fractalZ) {  // one unit: the real channels of its group, each C rows of its K chunk
            const std::uint64_t group = first / l.kChunks, k0 = first % l.kChunks * l.kChunk;
            const std::uint64_t channels = std::min(kFractalEdge, l.rows - group * kFractalEdge);
            const std::uint64_t taps = std::min(l.kChunk, l.k - k0);
            return {{l.plainGm + (group * kFractalEdge * l.cols + k0) * l.eb, channels * l.c, taps * l.eb, l.k * l.eb}};
        }
        const std::uint64_t item = first / l.unitsPerItem, col = first % l.unitsPerItem * l.unitCols;
        const std::uint64_t itemBytes = l.rows * l.cols * l.eb;
        if (l.unitsPerItem == 1 || count >= l.unitsPerItem)  // whole items: contiguous
            return {{l.plainGm + item * itemBytes, 1, count / l.unitsPerItem * itemBytes, 0}};
        const std::uint64_t cols = std::min(count * l.unitCols, l.cols - col);
        return {{l.plainGm + item * itemBytes + col * l.eb, l.rows, cols * l.eb, l.cols * l.eb}};
    }
    // The fractal side's bytes of the same units.
    std::vector<GmBursts> fractalBursts(std::uint64_t first, std::uint64_t count) const {
        const PaddedLayout& l = *l_;
        if (!l.fractalZ) return {{l.fractalGm + first * l.unitFractal * l.eb, 1, count * l.unitFractal * l.eb, 0}};
        // Per C1 block: the chunk's taps, each one 16 × C0 fractal row of this channel group.
        const std::uint64_t group = first / l.kChunks, k0 = first % l.kChunks * l.kChunk;
        const std::uint64_t taps = std::min(l.kChunk, l.k - k0), fractalRow = kFractalEdge * l.c0 * l.eb;
        std::vector<GmBursts> bursts;
        for (std::uint64_t b = 0; b < l.c1; ++b)
            bursts.push_back({l.fractalGm + ((b * l.k + k0) * l.co1 + group) * fractalRow, taps, fractalRow, l.co1 * fractalRow});
        return bursts;
    }

    std::shared_ptr<const PaddedLayout> l_;
    UnitRange tiles_;
};

// The DSL's ND ↔ FRACTAL_NZ tiles (the coupled chips' single-buffered schedule). CANN's tiling
// (transdata_dsl_general.cc: OnceTiling / TwiceTiling, then "extra core can improve UB usage")
// grows a tile's factor past the 256 B packet rate until the tiles number no more than the cores,
// bounded only by what UB holds: a block takes one tile of its whole share when that fits, not
// many small ones. Here: a block's share of units in one tile, capped by the one-buffer UB layout
// (source, destination and 4 B per destination element of room for the aligned rows — the Gather
// form's offset table) and kept to whole
// items when it holds more than one.
std::uint64_t dslPaddedNzUnitsPerTile(const PaddedLayout& l, std::uint32_t blockDim, std::uint64_t ubBytes) {
    const std::uint64_t bytesPerElement = 2 * l.eb + 4;
    const std::uint64_t fitting = std::max<std::uint64_t>(1, (ubBytes - 2 * kUbBlockBytes) / bytesPerElement / l.unitFractal);
    const std::uint64_t share = ceilDiv(l.units(), blockDim);
    std::uint64_t units = std::min(fitting, share);
    if (units >= l.unitsPerItem) units = units / l.unitsPerItem * l.unitsPerItem;
    else if (share < l.unitsPerItem) units = std::min(fitting, ceilDiv(l.unitsPerItem, ceilDiv(l.unitsPerItem, share)));
    return std::max<std::uint64_t>(1, units);
}

std::vector<LoweredKernel> lowerPadded(const OpInstance& op, const ChipConfig& chip, std::shared_ptr<PaddedLayout> l) {
    const VectorPlacement placement = vectorPlacement(chip);
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    const std::uint64_t bytes = l->units() * l->unitFractal * l->eb;
    kernel.blockDim = chooseVectorBlockDim(op, placement, 2 * bytes, l->units());
    const std::uint64_t itemFractal = l->unitsPerItem * l->unitFractal;
    if (l->singleBuffer && !l->fractalZ) {
        l->unitsPerTile = dslPaddedNzUnitsPerTile(*l, kernel.blockDim, placement.ubBytes);
    } else {
        // Whole items per tile when an item is small (planes), else as many of one item's units as
        // fit (FRACTAL_Z: one, its K chunk already fills a tile).
        l->unitsPerTile = l->fractalZ ? 1
                          : itemFractal <= kMaxTileElements ? kMaxTileElements / itemFractal * l->unitsPerItem
                                                            : std::max<std::uint64_t>(1, kMaxTileElements / l->unitFractal);
        // Enough tiles for every block: whole items shrink to fewer items per tile.
        if (l->wholeItems() && l->unitsPerTile > l->unitsPerItem)
            l->unitsPerTile = std::max<std::uint64_t>(1, std::min(l->unitsPerTile / l->unitsPerItem,
                                                                  ceilDiv(l->outer, kernel.blockDim))) * l->unitsPerItem;
    }
    l->srcHalf = l->dstHalf = alignUp(l->unitsPerTile * l->unitFractal * l->eb, kUbBlockBytes);
    l->table = l->buffers() * (l->srcHalf + l->dstHalf);
    if (l->table + l->unitsPerTile * l->unitFractal * 4 > placement.ubBytes) throwLoweringError(op, "a padded tile does not fit in UB");
    const std::uint64_t tiles = l->tiles();
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const PaddedLayout> layout = l;
    kernel.program = [layout, tiles, blockDim](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        return std::make_unique<DoubleBufferedStream>(std::make_unique<PaddedTiles>(layout, blockShare(tiles, blockDim, r.blockIdx)));
    };
    return {kernel};
}

}  // namespace

std::vector<LoweredKernel> lowerPaddedFractalZ(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo &x = op.inputs[0], &y = op.outputs[0];
    const bool toFractal = x.format != TensorFormat::FractalZ;
    const TensorInfo& nchw = toFractal ? x : y;
    const TensorInfo& fz = toFractal ? y : x;
    if (nchw.shape.size() != 4 || fz.shape.size() != 4 || fz.shape[2] != static_cast<std::int64_t>(kFractalEdge))
        throwLoweringError(op, "FRACTAL_Z conversion needs a [Co, C, kh, kw] weight and a [C1·kh·kw, Co1, 16, C0] tensor");
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t co = u(nchw.shape[0]), c = u(nchw.shape[1]), k = u(nchw.shape[2] * nchw.shape[3]);
    const std::uint64_t c0 = u(fz.shape[3]), co1 = u(fz.shape[1]);
    const std::uint64_t c1 = ceilDiv(c, c0);
    if (u(fz.shape[0]) != c1 * k || co1 != ceilDiv(co, kFractalEdge))
        throwLoweringError(op, "FRACTAL_Z must hold ⌈C/C0⌉·kh·kw × ⌈Co/16⌉ fractals of the weight");
    auto l = std::make_shared<PaddedLayout>();
    l->dtype = x.dtype;
    l->eb = bytesOf(x.dtype);
    l->toFractal = toFractal;
    l->plainGm = nchw.deviceAddr;
    l->fractalGm = fz.deviceAddr;
    l->fractalZ = true;
    l->rows = co;  // channels out, each a row of C·K
    l->cols = c * k;
    l->c = c;
    l->c0 = c0;
    l->c1 = c1;
    l->k = k;
    l->co1 = co1;
    l->kChunk = std::max<std::uint64_t>(1, std::min(k, kMaxTileElements / (c1 * kFractalEdge * c0)));
    l->kChunks = ceilDiv(k, l->kChunk);
    l->unitsPerItem = co1 * l->kChunks;
    l->unitFractal = c1 * l->kChunk * kFractalEdge * c0;
    return lowerPadded(op, chip, l);
}

std::vector<LoweredKernel> lowerPaddedFractalNz(const OpInstance& op, const ChipConfig& chip) {
    const TensorInfo &x = op.inputs[0], &y = op.outputs[0];
    const bool toFractal = y.format == TensorFormat::FractalNz;
    const TensorInfo& nd = toFractal ? x : y;
    const TensorInfo& nz = toFractal ? y : x;
    if (nd.shape.size() < 2) throwLoweringError(op, "the ND side must have rank ≥ 2");
    const auto u = [](std::int64_t v) { return static_cast<std::uint64_t>(v); };
    const std::uint64_t m = u(nd.shape[nd.shape.size() - 2]), n = u(nd.shape.back());
    const std::uint64_t n1 = ceilDiv(n, kFractalEdge), m1 = ceilDiv(m, kFractalEdge);
    const std::uint64_t outer = u(nd.elementCount()) / std::max<std::uint64_t>(1, m * n);
    if (u(nz.elementCount()) != outer * n1 * m1 * kFractalEdge * kFractalEdge)
        throwLoweringError(op, "FRACTAL_NZ must hold ⌈N/16⌉ × ⌈M/16⌉ fractals per matrix");
    auto l = std::make_shared<PaddedLayout>();
    l->dtype = x.dtype;
    l->eb = bytesOf(x.dtype);
    if (bytesOf(y.dtype) != l->eb) throwLoweringError(op, "x and y must have one element size");
    l->toFractal = toFractal;
    l->plainGm = nd.deviceAddr;
    l->fractalGm = nz.deviceAddr;
    l->outer = outer;
    l->rows = m;
    l->cols = n;
    l->unitsPerItem = n1;  // one 16-column strip
    l->unitCols = kFractalEdge;
    l->unitFractal = m1 * kFractalEdge * kFractalEdge;
    l->singleBuffer = dslTransDataIsSingleBuffered(chip);  // the DSL's ND ↔ FRACTAL_NZ (§104a)
    l->dslBlockReorder = l->singleBuffer;
    return lowerPadded(op, chip, l);
}

}  // namespace ascendsim
