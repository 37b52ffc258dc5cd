// Transpose (docs/op-catalog.md). After merging input dims that stay adjacent and in order, two
// forms run as one kernel:
// - the last dim stays last: output rows are input rows in another order, moved by strided MTE2
//   bursts (one DataMove per run of rows along the innermost output row dim) and a UB copy;
// - batched 2-D transpose [B, M, N] → [B, N, M]: 64×64 tiles are loaded with strided bursts,
//   transposed in UB by a Gather through an offset table built once per block, and stored with
//   strided bursts. A narrow M (< 64, e.g. the C0 rows of NCHW → NC1HWC0) keeps the tile's 4096
//   elements as M' × 4096/M' (M' = M rounded up to a 32 B block), so the Gather writes M', not 64,
//   elements per output row and the loads are 4096/M'-element bursts. A narrow N (the C0 columns of
//   NC1HWC0 → NCHW) likewise keeps 4096 elements as 4096/N' rows of N' (N' = N rounded up to a
//   32 B block): one contiguous load per tile and stores of 4096/N'-element bursts, where 64-row
//   tiles made MTE2 move 1–2 KiB per instruction at a fraction of its rate.
// On coupled chips a batch of m×n matrices far smaller than a tile is packed several to a tile
// (movesSmallPiecesInBlocks). Rows shorter than an L2 line whose two innermost row groups swap
// places move in 2-D row blocks instead (transpose_row_blocks.h).
// Any other permutation runs as two kernels through the launch workspace: a batched 2-D transpose
// that brings the input dim ending last to the end, then a row reorder (on coupled chips over rows
// merged where the first pass left groups adjacent).
#include "models/kernels/layout/transpose/transpose.h"

#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/transpose/transpose_groups.h"
#include "models/kernels/layout/transpose/transpose_offsets.h"
#include "models/kernels/layout/transpose/transpose_row_blocks.h"
#include "models/kernels/tiling/leading_reads.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

constexpr std::uint64_t kTransposeTile = 64;  // rows and columns of one 2-D tile

struct TransposeLayout {
    bool rowsOnly = false;
    DataType dtype = DataType::Fp16;
    std::uint64_t x = 0, y = 0, eb = 2;
    // rows form: output rows over outDims (all but the last), each `length` elements.
    std::vector<std::int64_t> outDims, inRowStrides;  // stride (in rows of the input) per out dim
    std::uint64_t length = 0, rows = 0, rowsPerTile = 0, pitch = 0;
    // 2-D form
    std::uint64_t batch = 0, m = 0, n = 0, tilePitch = 0;  // tilePitch: UB row pitch of the input tile
    std::uint64_t tileRows = kTransposeTile;               // input rows of a tile
    // UB row pitch of the output tile: m rounded up to a 32 B block when m is narrower than a tile
    // (an NCHW → NC1HWC0 block of C0 rows gathers C0, not 64, elements per output row); m itself
    // where the chip moves merged rows and a tile holds all m rows (lowerPass).
    std::uint64_t outPitch = 0;
    std::uint64_t inBuf = 0, inStride = 0, outBuf = 0, outStride = 0, table = 0, ramp = 0,
                  quotient = 0;
    // Channel blocking NCHW → NC1HWC0 (lowerChannelBlocking): batch = N·C1, m = C0, n = H·W;
    // x holds `channels` real channels per image, and the last block of a C that is not a multiple
    // of C0 loads fewer rows and stores zeros in the rest (0 = a plain batched transpose).
    std::uint64_t channels = 0, c1 = 0;
    // Matrices per tile when a whole m×n matrix is far smaller than a tile (the [C0][kh·kw] blocks
    // of a FRACTAL_Z weight): several are loaded, transposed and stored together (0 = one per tile).
    std::uint64_t packed = 0;
    PermutationTiles order = PermutationTiles::Pipelined;

    std::uint64_t tilesM() const { return ceilDiv(m, tileRows); }
    std::uint64_t tilesN() const { return ceilDiv(n, tilePitch); }
    std::uint64_t units() const {
        return rowsOnly ? rows : packed != 0 ? ceilDiv(batch, packed) : batch * tilesM() * tilesN();
    }
};

class TransposeTiles final : public TileSource {
  public:
    TransposeTiles(std::shared_ptr<const TransposeLayout> l, UnitRange units)
        : l_(std::move(l)), units_(units) {}
    std::uint64_t tileCount() const override {
        return l_->rowsOnly ? ceilDiv(units_.size(), l_->rowsPerTile) : units_.size();
    }
    std::uint32_t buffers() const override { return l_->order == PermutationTiles::Pipelined ? 2 : 1; }

    void setup(TileCode& code) override {
        if (l_->rowsOnly) return;
        const TransposeLayout& l = *l_;
        if (l.packed != 0) {
            emitPackedTransposeOffsets(code.compute, l.table, l.ramp, l.quotient, l.packed * l.m * l.n, l.n, l.m, l.eb);
            return;
        }
        // Gather offsets of the tile transpose: P input columns (P = tilePitch) into rows of outPitch.
        emitTransposeOffsets(code.compute, l.table, l.ramp, l.quotient, l.tilePitch * l.outPitch,
                             l.outPitch, l.tilePitch, l.eb);
    }

    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        if (l_->rowsOnly)
            rowsTile(index, half, code);
        else if (l_->packed != 0)
            packedTile(index, half, code);
        else
            transposeTile(index, half, code);
        // TIK's loop: the next tile's work starts once this tile's stores have landed.
        if (l_->order == PermutationTiles::Serial) code.store.push_back(Instruction::barrier(Pipe::All));
    }

  private:
    void rowsTile(std::uint64_t index, std::uint32_t half, TileCode& code) {
        const TransposeLayout& l = *l_;
        const std::uint64_t first = units_.begin + index * l.rowsPerTile;
        const std::uint64_t rows = std::min(l.rowsPerTile, units_.end - first);
        const std::uint64_t rowBytes = l.length * l.eb, in = l.inBuf + half * l.inStride;
        const std::int64_t innermost = l.outDims.back();
        for (std::uint64_t k = 0; k < rows;) {
            std::uint64_t rest = first + k, inRow = 0;
            for (std::size_t d = l.outDims.size(); d-- > 0;) {
                inRow += rest % static_cast<std::uint64_t>(l.outDims[d]) *
                         static_cast<std::uint64_t>(l.inRowStrides[d]);
                rest /= static_cast<std::uint64_t>(l.outDims[d]);
            }
            const std::uint64_t run =
                std::min(rows - k, static_cast<std::uint64_t>(innermost) -
                                       (first + k) % static_cast<std::uint64_t>(innermost));
            DataMove m{
                .src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
            m.srcAddr = l.x + inRow * rowBytes;
            m.dstAddr = in + k * l.pitch * l.eb;
            m.burstCount = static_cast<std::uint32_t>(run);
            m.burstBytes = static_cast<std::uint32_t>(rowBytes);
            m.srcGapBytes = static_cast<std::uint32_t>(
                (static_cast<std::uint64_t>(l.inRowStrides.back()) - 1) * rowBytes);
            m.dstGapBytes = static_cast<std::uint32_t>((l.pitch - l.length) * l.eb);
            code.load.push_back(Instruction::move(m));
            k += run;
        }
        const std::uint64_t out = l.outBuf + half * l.outStride;
        emitVectorRange(code.compute, VectorOp::Copy, l.dtype, {.dst = out, .src0 = in},
                        rows * l.pitch);
        code.store.push_back(moveRowsToGm(out, l.y + first * rowBytes,
                                          static_cast<std::uint32_t>(rows), rowBytes,
                                          l.pitch * l.eb));
        code.scalarCycles = static_cast<std::uint32_t>(rows);
    }

    // Matrices b0 .. b0 + count − 1, contiguous in x and in y: one load, one Gather, one store.
    void packedTile(std::uint64_t index, std::uint32_t half, TileCode& code) {
        const TransposeLayout& l = *l_;
        const std::uint64_t b0 = (units_.begin + index) * l.packed;
        const std::uint64_t elements = std::min(l.packed, l.batch - b0) * l.m * l.n;
        const std::uint64_t in = l.inBuf + half * l.inStride, out = l.outBuf + half * l.outStride;
        DataMove load{.src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        load.srcAddr = l.x + b0 * l.m * l.n * l.eb;
        load.dstAddr = in;
        load.burstBytes = static_cast<std::uint32_t>(elements * l.eb);
        code.load.push_back(Instruction::move(load));
        emitVectorRange(code.compute, VectorOp::Gather, l.dtype, {.dst = out, .src0 = in, .src1 = l.table}, elements);
        code.store.push_back(moveRowsToGm(out, l.y + b0 * l.m * l.n * l.eb, 1, elements * l.eb, elements * l.eb));
    }

    void transposeTile(std::uint64_t index, std::uint32_t half, TileCode& code) {
        const TransposeLayout& l = *l_;
        const std::uint64_t unit = units_.begin + index;
        const std::uint64_t b = unit / (l.tilesM() * l.tilesN());
        const std::uint64_t i0 = unit / l.tilesN() % l.tilesM() * l.tileRows,
                            j0 = unit % l.tilesN() * l.tilePitch;
        const std::uint64_t cols = std::min(l.tilePitch, l.n - j0);
        std::uint64_t rows = std::min(l.tileRows, l.m - i0);
        std::uint64_t src = l.x + ((b * l.m + i0) * l.n + j0) * l.eb;
        const std::uint64_t in = l.inBuf + half * l.inStride, out = l.outBuf + half * l.outStride,
                            p = l.tilePitch;
        if (l.channels != 0) {  // channel block b % c1 of image b / c1: its real channels
            const std::uint64_t first = b % l.c1 * l.m;
            rows = std::min(l.m, l.channels - first);
            src = l.x + ((b / l.c1 * l.channels + first) * l.n + j0) * l.eb;
            if (rows < l.m)  // the padded channels' rows of the tile are zeros
                emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = in + rows * p * l.eb},
                                (l.m - rows) * p);
        }
        DataMove load{
            .src = MemSpace::GM, .dst = MemSpace::UB, .srcType = l.dtype, .dstType = l.dtype};
        load.srcAddr = src;
        load.dstAddr = in;
        load.burstCount = static_cast<std::uint32_t>(rows);
        load.burstBytes = static_cast<std::uint32_t>(cols * l.eb);
        load.srcGapBytes = static_cast<std::uint32_t>((l.n - cols) * l.eb);
        load.dstGapBytes = static_cast<std::uint32_t>((p - cols) * l.eb);
        code.load.push_back(Instruction::move(load));
        emitVectorRange(code.compute, VectorOp::Gather, l.dtype,
                        {.dst = out, .src0 = in, .src1 = l.table}, cols * l.outPitch);
        DataMove store{
            .src = MemSpace::UB, .dst = MemSpace::GM, .srcType = l.dtype, .dstType = l.dtype};
        store.srcAddr = out;
        store.dstAddr = l.y + ((b * l.n + j0) * l.m + i0) * l.eb;
        // Whole C0 rows when channel blocking: the padded channels are stored as zeros.
        const std::uint64_t stored = l.channels != 0 ? l.m : rows;
        store.burstCount = static_cast<std::uint32_t>(cols);
        store.burstBytes = static_cast<std::uint32_t>(stored * l.eb);
        store.srcGapBytes = static_cast<std::uint32_t>((l.outPitch - stored) * l.eb);
        store.dstGapBytes = static_cast<std::uint32_t>((l.m - stored) * l.eb);
        code.store.push_back(Instruction::move(store));
    }

    std::shared_ptr<const TransposeLayout> l_;
    UnitRange units_;
};

// The tiling walk of CANN's dynamic TIK Transpose on the 220x parts (docs/fidelity.md §61;
// tbe/impl/dynamic/transpose.py, CANN 8.1, `_decode_tiling_head`, `compute_tiling`,
// `_do_tiling_common`, read for structure): every block moves the tiling head (5 int64 words,
// 2 blocks) and reads its 5 words, then the fixed part (the head again and fixed_len words) and
// its own per-core part at head + fixed_len + block · per_core_len, each read waited for and its
// words read with set_as. The part sizes are those of scenario 7, the general (borrow-axis) one,
// whose tables hold TRANSPOSE_MAX_AXIS_NUM = 8 axes: fixed 5 + 7·8 = 61 words, per core
// 11 + 5·8 = 51 words (TilingParamS7). The 910A's transpose row shows no such walk (Transpose
// [32,5] int64, 32 blocks: 311 MTE2 and 178 scalar cycles a block in all), so it stays off there.
constexpr std::uint32_t kTransposeHeadWords = 5;       // TILING_HEAD_LEN
constexpr std::uint32_t kTransposeFixedWords = 61;     // scenario 7's fixed part
constexpr std::uint32_t kTransposePerCoreWords = 51;   // scenario 7's per-core part
constexpr std::uint64_t kTransposeWordBytes = 8;       // int64 tiling words

std::vector<LeadingRead> transposeTilingReads() {
    const auto blocksOf = [](std::uint64_t words) { return alignUp(words * kTransposeWordBytes, kUbBlockBytes); };
    return {{.bytes = 2 * kUbBlockBytes, .scalarWords = kTransposeHeadWords},
            {.bytes = blocksOf(kTransposeHeadWords + kTransposeFixedWords), .scalarWords = kTransposeFixedWords},
            {.bytes = blocksOf(kTransposePerCoreWords), .scalarWords = kTransposePerCoreWords, .perBlock = true}};
}

std::vector<LoweredKernel> lowerTranspose(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    // On the 220x parts CANN runs the dynamic TIK Transpose (tbe/impl/dynamic/transpose.py, CANN 8.1):
    // its loops have no ping-pong (no thread_num) and keep TIK's own synchronisation, so one tile
    // follows the previous one's stores (docs/fidelity.md §98: the AlexNet 910B2 rows' pipes add up
    // to 0.83-1.00 of their time, §61's table).
    const bool tik = chip.organisation == CoreOrganisation::Split;
    std::vector<LoweredKernel> kernels = lowerPermutation(op, chip, op.inputs[0].shape, op.intsAttr("perm", {}),
                                                          PermutationTarget::Output,
                                                          tik ? PermutationTiles::Serial : PermutationTiles::Pipelined);
    if (tik) prependLeadingReads(kernels.front(), chip, transposeTilingReads());
    return kernels;
}

// Whether the chip's CANN kernels move small layout pieces in whole blocks. The 910A (coupled
// DaVinci) sample's FRACTAL_Z conversions run 3x faster than the 910B2 sample's on the same
// weights, with scalar 0.13-0.24 of their time against 0.42-0.63 (msinsight c1e639ee level1 and
// e5a31957 level2: e.g. [256,384,3,3] fp32 NCHW -> FRACTAL_Z 19.9 us vs 51.8 us): the 910B's
// kernels issue an instruction per C0 row or kh·kw run, which the row-by-row passes model, while
// the 910A's pack several small matrices into one tile and move merged rows (docs/fidelity.md §10).
bool movesSmallPiecesInBlocks(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

// Where one pass reads and writes: tensor addresses, or offsets into the launch workspace.
struct PassEnds {
    std::uint64_t x = 0, y = 0;
    bool xInWorkspace = false, yInWorkspace = false;
};

// One kernel moving x to y in a form the tiles do directly (keepsLastDim or isBatched2D).
LoweredKernel lowerPass(const OpInstance& op, const ChipConfig& chip, const GroupedPermutation& g,
                        const PassEnds& ends, std::uint64_t workspaceBytes,
                        std::uint64_t blockedChannels = 0,
                        PermutationTiles tiles = PermutationTiles::Pipelined) {
    const VectorPlacement placement = vectorPlacement(chip);
    UbAllocator ub(placement.ubBytes, op.name);
    auto l = std::make_shared<TransposeLayout>();
    l->dtype = op.inputs[0].dtype, l->eb = bytesOf(l->dtype), l->x = ends.x, l->y = ends.y;
    l->order = tiles;
    const std::vector<std::int64_t>& sizes = g.sizes;
    const std::vector<std::size_t>& order = g.order;
    const std::size_t count = order.size();
    if (swapsTwoRowGroups(order)) {
        RowBlockSwap swap{.a = static_cast<std::uint64_t>(sizes[count - 2]),
                          .c = static_cast<std::uint64_t>(sizes[count - 3]),
                          .rowBytes = static_cast<std::uint64_t>(sizes[count - 1]) * l->eb,
                          .x = ends.x, .y = ends.y,
                          .xInWorkspace = ends.xInWorkspace, .yInWorkspace = ends.yInWorkspace};
        for (std::size_t o = 0; o + 3 < count; ++o) swap.batch *= static_cast<std::uint64_t>(sizes[o]);
        if (auto kernel = lowerRowBlockSwap(op, chip, swap, workspaceBytes)) return *kernel;
    }
    if (keepsLastDim(order)) {
        l->rowsOnly = true;
        l->length = count == 0 ? 1 : static_cast<std::uint64_t>(sizes.back());
        std::vector<std::int64_t> inSizes(count);  // group sizes in input order
        for (std::size_t o = 0; o < count; ++o) inSizes[order[o]] = sizes[o];
        for (std::size_t o = 0; o + 1 < count; ++o) {
            std::int64_t stride = 1;  // in input rows
            for (std::size_t k = order[o] + 1; k + 1 < count; ++k) stride *= inSizes[k];
            l->outDims.push_back(sizes[o]);
            l->inRowStrides.push_back(stride);
        }
        if (l->outDims.empty()) l->outDims = {1}, l->inRowStrides = {1};
        l->rows = static_cast<std::uint64_t>(g.elementCount()) / l->length;
        l->pitch = alignUp(l->length, kUbBlockBytes / l->eb);
        const std::uint64_t perRow = 4 * l->pitch * l->eb;
        if (perRow + 64 > placement.ubBytes) throwLoweringError(op, "a row does not fit in UB");
        l->rowsPerTile = std::min<std::uint64_t>((placement.ubBytes - 64) / perRow, l->rows);
        l->inStride = l->outStride = alignUp(l->rowsPerTile * l->pitch * l->eb, kUbBlockBytes);
    } else if (isBatched2D(order)) {
        l->m = static_cast<std::uint64_t>(sizes[count - 1]);  // input rows become output columns
        l->n = static_cast<std::uint64_t>(sizes[count - 2]);
        l->batch = static_cast<std::uint64_t>(g.elementCount()) / (l->m * l->n);
        // A narrow m keeps the tile's 64×64 elements: outPitch rows of 64·64 / outPitch columns,
        // so the loads are long bursts of the input rows.
        const std::uint64_t block = kUbBlockBytes / l->eb;
        l->outPitch = std::min(kTransposeTile, alignUp(l->m, block));
        l->tilePitch = kTransposeTile * kTransposeTile / l->outPitch;
        if (l->outPitch == kTransposeTile && l->n < kTransposeTile) {  // narrow N: tall tiles
            l->tilePitch = alignUp(l->n, block);
            l->tileRows = l->outPitch = kTransposeTile * kTransposeTile / l->tilePitch / block * block;
        }
        const std::uint64_t tileBytes = kTransposeTile * kTransposeTile;
        l->table = ub.allocate(tileBytes * 4, "transpose offsets");
        l->ramp = ub.allocate(tileBytes * 4, "index ramp");
        l->quotient = ub.allocate(tileBytes * 4, "index quotient");
        l->inStride = l->outStride = alignUp(tileBytes * l->eb, kUbBlockBytes);
        if (blockedChannels != 0) {
            l->channels = blockedChannels;
            l->c1 = ceilDiv(blockedChannels, l->m);
        }
        const std::uint64_t matrix = l->m * l->n;
        if (movesSmallPiecesInBlocks(chip) && blockedChannels == 0 && l->batch > 1 && l->tilesM() == 1 && l->tilesN() == 1 &&
            matrix * l->eb % kUbBlockBytes == 0 && 2 * matrix <= tileBytes)
            l->packed = std::min(l->batch, tileBytes / matrix);
        // Where the chip's kernels move merged rows, a tile holding all m input rows has the
        // Gather write its output rows back to back (none padded to a block), and the store is
        // one run: the tile's output rows are contiguous in y. Padded rows would be stored as a
        // burst each of m elements, which the 910A's DMA pays per burst (docs/fidelity.md §104).
        if (movesSmallPiecesInBlocks(chip) && blockedChannels == 0 && l->packed == 0 && l->tilesM() == 1)
            l->outPitch = l->m;
    } else {
        throwLoweringError(op, "a transpose pass must keep the last dim or swap the last two");
    }

    l->inBuf = ub.allocate(2 * l->inStride, "input tile");
    l->outBuf = ub.allocate(2 * l->outStride, "output tile");

    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, 2 * op.inputs[0].bytes(), l->units());
    kernel.workspaceBytes = workspaceBytes;
    const std::uint32_t blockDim = kernel.blockDim;
    std::shared_ptr<const TransposeLayout> shared = l;
    kernel.program = [shared, blockDim, ends](
                         const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
        std::shared_ptr<const TransposeLayout> layout = shared;
        if (ends.xInWorkspace || ends.yInWorkspace) {
            auto placed = std::make_shared<TransposeLayout>(*shared);
            if (ends.xInWorkspace) placed->x += request.workspaceAddr;
            if (ends.yInWorkspace) placed->y += request.workspaceAddr;
            layout = std::move(placed);
        }
        return std::make_unique<DoubleBufferedStream>(std::make_unique<TransposeTiles>(
            layout, blockShare(layout->units(), blockDim, request.blockIdx)));
    };
    return kernel;
}

}  // namespace

std::vector<LoweredKernel> lowerPermutation(const OpInstance& op, const ChipConfig& chip,
                                            const std::vector<std::int64_t>& shape,
                                            const std::vector<std::int64_t>& perm,
                                            PermutationTarget target, PermutationTiles tiles) {
    TensorInfo x = op.inputs[0];
    x.shape = shape;
    if (x.elementCount() != op.inputs[0].elementCount() ||
        op.outputs[0].elementCount() != x.elementCount())
        throwLoweringError(op, "input and output element counts differ");
    const GroupedPermutation g = groupPermutation(op, shape, perm);
    const std::uint64_t bytes = op.outputs[0].bytes();
    const bool toWorkspace = target == PermutationTarget::Workspace;
    const PassEnds direct{.x = op.inputs[0].deviceAddr,
                          .y = toWorkspace ? 0 : op.outputs[0].deviceAddr,
                          .yInWorkspace = toWorkspace};
    if (keepsLastDim(g.order) || isBatched2D(g.order))
        return {lowerPass(op, chip, g, direct, toWorkspace ? bytes : 0, 0, tiles)};

    // Any other permutation in two passes through the workspace: a batched 2-D transpose
    // [B, M, N] → [B, N, M] moves the input group that ends last (M) to the end, then the rows of
    // that intermediate are reordered with the last dim kept.
    const std::size_t count = g.order.size(), last = g.order.back();
    std::vector<std::int64_t> inSizes(count);  // group sizes in input order
    for (std::size_t o = 0; o < count; ++o) inSizes[g.order[o]] = g.sizes[o];
    std::int64_t before = 1, after = 1;
    for (std::size_t i = 0; i < last; ++i) before *= inSizes[i];
    for (std::size_t i = last + 1; i < count; ++i) after *= inSizes[i];
    const GroupedPermutation moveLast{.sizes = {before, after, inSizes[last]}, .order = {0, 2, 1}};
    GroupedPermutation reorderRows{.sizes = g.sizes,
                                   .order = g.order};  // over the intermediate's groups
    for (auto& position : reorderRows.order)
        position = position == last ? count - 1 : position > last ? position - 1 : position;
    if (movesSmallPiecesInBlocks(chip)) reorderRows = mergeAdjacentGroups(reorderRows);
    const std::uint64_t intermediate = toWorkspace ? alignUp(bytes, 512) : 0;
    const std::uint64_t workspaceBytes = intermediate + bytes;
    PassEnds first{.x = op.inputs[0].deviceAddr, .y = intermediate, .yInWorkspace = true};
    PassEnds second = direct;
    second.x = intermediate, second.xInWorkspace = true;
    return {lowerPass(op, chip, moveLast, first, workspaceBytes, 0, tiles),
            lowerPass(op, chip, reorderRows, second, workspaceBytes, 0, tiles)};
}

std::vector<LoweredKernel> lowerChannelBlocking(const OpInstance& op, const ChipConfig& chip,
                                                std::int64_t channels, std::int64_t planeElements,
                                                std::int64_t c0) {
    const std::int64_t images = op.inputs[0].elementCount() / (channels * planeElements);
    const std::int64_t c1 = (channels + c0 - 1) / c0;
    if (op.outputs[0].elementCount() != images * c1 * c0 * planeElements)
        throwLoweringError(op, "y must hold N·C1·H·W·C0 = " + std::to_string(images * c1 * c0 * planeElements) + " elements, not " + std::to_string(op.outputs[0].elementCount()));
    if (c0 > static_cast<std::int64_t>(kTransposeTile)) throwLoweringError(op, "C0 exceeds a transpose tile");
    const GroupedPermutation g{.sizes = {images * c1, planeElements, c0}, .order = {0, 2, 1}};
    const PassEnds ends{.x = op.inputs[0].deviceAddr, .y = op.outputs[0].deviceAddr};
    return {lowerPass(op, chip, g, ends, 0, static_cast<std::uint64_t>(channels))};
}

ASCENDSIM_REGISTER_KERNEL("Transpose", lowerTranspose);

}  // namespace ascendsim
