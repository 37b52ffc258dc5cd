// Slice (docs/op-catalog.md, "Ops of the LLM samples"): y = x[offsets : offsets + size] per dim,
// as CANN's Slice moves it: strided GM→UB bursts of the kept part of each row, then UB→GM dense.
// It is the elementwise stream of a Copy over y's rows, reading x at x's strides from the
// offset's address (elementwise_program.h); no arithmetic, so it runs in x's own dtype.
// A slice of the last dim alone whose kept rows are shorter than one 32 B block is CANN's
// strided_slice vnchwconv mode instead (LastDimSliceStream below).
#include <memory>
#include <optional>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/program_builder.h"
#include "models/kernels/tiling/leading_reads.h"
#include "models/kernels/tiling/vector_tiling.h"

namespace ascendsim {

namespace {

// CANN's TIK strided_slice (impl/dynamic/strided_slice.py, CANN 8.1.RC1,
// `_do_only_slice_last_dim_with_vnchwconv` / `_do_with_vnchwconv_per_loop`, read for structure)
// slices the last dim alone through vnchwconv, in 16-bit units (a 32-bit element is two): a core
// takes `rows_each_core` consecutive rows in segments of `rows_each_repeat` rows, each segment a
// multiple of the rows whose output fills whole 32 B blocks. Up to 16 segments a loop: each moved
// GM → UB in one move (the segment's whole input rows), one vnchwconv turns element e of segment i
// into lane i of block e, one UB → UB copy (the vector pipe's) keeps each row's output blocks,
// a second vnchwconv turns them back, and the loop's output goes out as one dense move. The
// Qwen3 [4,24] → [4,1] fp32 rows show it (docs/fidelity.md §153): MTE2 busy 478–784 cycles (two
// small moves: the export's one-read rows take 290–390), the vector pipe ~20, MTE3 224–311 for one
// 16 B store, where the elementwise stream stored a padded burst per row.
constexpr std::uint64_t kStridedSliceReservedUbBytes = 382;  // strided_slice.py Constant.Tiling_UB_SIZE
constexpr std::uint64_t kVnchwconvLanes = 16;                // 16-bit elements in a block: vnchwconv's lanes
constexpr std::uint64_t kVnchwconvMaxRepeats = 255;          // strided_slice.py VNCHW_REPEAT_TIMES
constexpr std::uint64_t kVnchwconvMaxSegments = 16;          // a loop's segments: one a lane
// Its TilingParam.init: one read of the tiling tensor (3 + 5 words a dim of its 8, int64, in whole
// blocks), then set_as of the mode, the rank, the shape / begin / end / stride / output dims and the
// core count: 3 + 5 words a dim of the op.
constexpr std::uint64_t kStridedSliceTilingDims = 8;  // max_dim_supported
constexpr std::uint64_t kStridedSliceTilingWordBytes = 8;
constexpr std::uint8_t kSliceInputFree = 0, kSliceOutputFree = 1, kSliceLoaded = 2, kSliceComputed = 3;

struct LastDimSlice {
    std::uint64_t xGm = 0, yGm = 0;                 // x at the slice's start column, y
    std::uint64_t rows = 0;                         // y's rows
    std::uint64_t inRowBytes = 0, outRowBytes = 0;  // x's row, y's row
    std::uint64_t in16 = 0, out16 = 0, begin16 = 0; // the same in 16-bit units, and the start column
    std::uint64_t rowsEachCore = 0, rowsEachRepeat = 0;
    std::uint64_t inputUb = 0, convUb = 0;          // strided_slice's input_ub and vnchw_conv_ub
    std::uint64_t inRepeats() const { return ceilDiv(rowsEachRepeat * in16, kVnchwconvLanes); }
    std::uint64_t outRepeats() const { return ceilDiv(rowsEachRepeat * out16, kVnchwconvLanes); }
};

class LastDimSliceStream final : public TiledInstructionStream {
public:
    LastDimSliceStream(std::shared_ptr<const LastDimSlice> s, UnitRange rows) : s_(std::move(s)), rows_(rows) {}

protected:
    std::uint64_t tileCount() const override {
        return ceilDiv(ceilDiv(rows_.size(), s_->rowsEachRepeat), kVnchwconvMaxSegments);
    }

    void emitTile(std::uint64_t tile, ProgramBuilder& b) override {
        const LastDimSlice& s = *s_;
        const std::uint64_t first = rows_.begin + tile * kVnchwconvMaxSegments * s.rowsEachRepeat;
        const std::uint64_t count = std::min(kVnchwconvMaxSegments * s.rowsEachRepeat, rows_.end - first);
        const std::uint64_t segmentBlocks = s.inRepeats();  // a segment's input in UB, in blocks
        b.scalar(kScalarCyclesPerTile);
        if (tile > 0) b.waitFlag(Pipe::Vector, Pipe::Mte2, kSliceInputFree);
        for (std::uint64_t row = first, seg = 0; row < first + count; row += s.rowsEachRepeat, ++seg) {
            const std::uint64_t bytes = std::min(s.rowsEachRepeat, first + count - row) * s.inRowBytes;
            b.out().push_back(moveRowsToUb(s.xGm + row * s.inRowBytes, s.inputUb + seg * segmentBlocks * kUbBlockBytes,
                                           1, bytes, bytes));
        }
        b.handoff(Pipe::Mte2, Pipe::Vector, kSliceLoaded);
        if (tile > 0) b.waitFlag(Pipe::Mte3, Pipe::Vector, kSliceOutputFree);
        // Element e of segment i → lane i of block e (src blocks a segment apart, dst blocks in order).
        b.vector(conv(s.convUb, s.inputUb, s.inRepeats(), 1, 16, static_cast<std::uint8_t>(segmentBlocks), 1));
        DataMove keep{.src = MemSpace::UB, .dst = MemSpace::UB, .srcType = DataType::Fp16, .dstType = DataType::Fp16};
        keep.srcAddr = s.convUb + s.begin16 * kUbBlockBytes;
        keep.dstAddr = s.inputUb;
        keep.burstCount = static_cast<std::uint32_t>(s.rowsEachRepeat);
        keep.burstBytes = static_cast<std::uint32_t>(s.out16 * kUbBlockBytes);
        keep.srcGapBytes = static_cast<std::uint32_t>((s.in16 - s.out16) * kUbBlockBytes);
        b.move(keep);
        // Lane i of the kept blocks → segment i's outputs, outRepeats blocks a segment.
        b.vector(conv(s.convUb, s.inputUb, s.outRepeats(), static_cast<std::uint8_t>(s.outRepeats()), 1, 1, 16));
        b.setFlag(Pipe::Vector, Pipe::Mte2, kSliceInputFree);
        b.handoff(Pipe::Vector, Pipe::Mte3, kSliceComputed);
        const std::uint64_t bytes = count * s.outRowBytes;
        b.out().push_back(moveRowsToGm(s.convUb, s.yGm + first * s.outRowBytes, 1, bytes, bytes));
        b.setFlag(Pipe::Mte3, Pipe::Vector, kSliceOutputFree);
    }

    void emitEpilogue(ProgramBuilder& b) override {  // every flag set is waited for
        if (tileCount() == 0) return;
        b.waitFlag(Pipe::Vector, Pipe::Mte2, kSliceInputFree);
        b.waitFlag(Pipe::Mte3, Pipe::Vector, kSliceOutputFree);
    }

private:
    // One 16-bit vnchwconv of `repeats` repeats: dst / src block listings `blockStride` apart (the
    // second group of 8 right after the first), repeats `repeatStride` blocks apart.
    static VectorInstr conv(std::uint64_t dst, std::uint64_t src, std::uint64_t repeats, std::uint8_t dstBlockStride,
                            std::uint16_t dstRepeatStride, std::uint8_t srcBlockStride, std::uint16_t srcRepeatStride) {
        VectorInstr v{.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .srcType = DataType::Fp16};
        v.dst = dst;
        v.src0 = src;
        v.repeats = static_cast<std::uint16_t>(repeats);
        v.dstBlockStride = dstBlockStride;
        v.src0BlockStride = srcBlockStride;
        v.dstRepeatStride = dstRepeatStride;
        v.src0RepeatStride = srcRepeatStride;
        return v;
    }

    std::shared_ptr<const LastDimSlice> s_;
    UnitRange rows_;
};

// The vnchwconv program of a Slice of x's last dim alone whose kept row is shorter than a block,
// with its tiling as strided_slice.py computes it; nothing when the slice is not one, or its
// strides would not fit the instructions' fields (the elementwise stream then).
std::optional<LoweredKernel> lastDimSliceOf(const OpInstance& op, const ChipConfig& chip, std::uint64_t xAtStart,
                                             std::int64_t beginColumn) {
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const std::size_t rank = x.shape.size();
    const std::uint64_t eb = bytesOf(x.dtype);
    if (rank < 2 || (eb != 2 && eb != 4)) return std::nullopt;
    for (std::size_t i = 0; i + 1 < rank; ++i)
        if (x.shape[i] != y.shape[i]) return std::nullopt;
    const auto inLast = static_cast<std::uint64_t>(x.shape.back()), outLast = static_cast<std::uint64_t>(y.shape.back());
    if (outLast == 0 || outLast * eb >= kUbBlockBytes || outLast == inLast) return std::nullopt;
    LastDimSlice s;
    const std::uint64_t units = eb / 2;  // 16-bit units an element
    s.in16 = inLast * units;
    s.out16 = outLast * units;
    s.begin16 = static_cast<std::uint64_t>(beginColumn) * units;
    s.inRowBytes = inLast * eb;
    s.outRowBytes = outLast * eb;
    s.rows = static_cast<std::uint64_t>(y.elementCount()) / outLast;
    s.xGm = xAtStart - static_cast<std::uint64_t>(beginColumn) * eb;  // whole input rows are moved
    s.yGm = y.deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    if (placement.ubBytes < kStridedSliceReservedUbBytes + 4 * kVnchwconvLanes * kUbBlockBytes) return std::nullopt;
    // ub_size in 16-bit units, half of it each for input_ub and vnchw_conv_ub.
    const std::uint64_t halfUb16 = (placement.ubBytes - kStridedSliceReservedUbBytes) / kUbBlockBytes * kUbBlockBytes / 2 / 2;
    // output_32bytes_align_rows: the rows whose output fills whole blocks.
    const std::uint64_t alignRows = kVnchwconvLanes % s.out16 == 0 ? kVnchwconvLanes / s.out16
                                    : s.out16 % kVnchwconvLanes == 0 ? 1 : kVnchwconvLanes;
    const std::uint64_t room = halfUb16 > kVnchwconvLanes * kUbBlockBytes ? halfUb16 - kVnchwconvLanes * kUbBlockBytes : 0;
    const std::uint64_t maxRows = room / (s.in16 * kVnchwconvLanes) / alignRows * alignRows;
    if (maxRows == 0) return std::nullopt;
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, s.rows * s.outRowBytes, s.rows);
    const std::uint64_t cores = kernel.blockDim;
    s.rowsEachCore = alignUp(ceilDiv(s.rows, cores), alignRows);
    std::uint64_t repeats = ceilDiv(s.rowsEachCore, maxRows);
    s.rowsEachRepeat = alignUp(ceilDiv(s.rowsEachCore, repeats), alignRows);
    s.rowsEachCore = s.rowsEachRepeat * repeats;
    if (s.rowsEachCore > s.rows) {  // fewer rows than one core's aligned share
        s.rowsEachCore = s.rows;
        repeats = ceilDiv(s.rows, maxRows);
        s.rowsEachRepeat = std::min(s.rows, alignUp(ceilDiv(s.rows, repeats), alignRows));
    }
    if (s.inRepeats() > kVnchwconvMaxRepeats || s.outRepeats() > kVnchwconvMaxRepeats) return std::nullopt;
    s.inputUb = 0;
    s.convUb = halfUb16 * 2;
    auto layout = std::make_shared<const LastDimSlice>(s);
    const std::uint64_t tilingBytes =
        alignUp((3 + 5 * kStridedSliceTilingDims) * kStridedSliceTilingWordBytes, kUbBlockBytes);
    const auto tilingWords = static_cast<std::uint32_t>(3 + 5 * rank);
    kernel.program = [layout](const BlockProgramRequest& r) -> std::unique_ptr<InstructionStream> {
        return std::make_unique<LastDimSliceStream>(layout, blockFactorShare(layout->rows, layout->rowsEachCore, r.blockIdx));
    };
    prependLeadingReads(kernel, chip, {{.bytes = tilingBytes, .scalarWords = tilingWords}});
    return kernel;
}

std::vector<LoweredKernel> lowerSlice(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 1, 1);
    const TensorInfo& x = op.inputs[0];
    const TensorInfo& y = op.outputs[0];
    const std::size_t rank = x.shape.size();
    const auto offsets = op.intsAttr("offsets", std::vector<std::int64_t>(rank, 0));
    if (rank == 0 || offsets.size() != rank || y.shape.size() != rank)
        throwLoweringError(op, "offsets and y must have x's rank " + std::to_string(rank));
    if (bytesOf(x.dtype) > 4) throwLoweringError(op, "64-bit elements are not modelled");
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t i = rank; i-- > 1;) strides[i - 1] = strides[i] * x.shape[i];
    std::int64_t start = 0;
    for (std::size_t i = 0; i < rank; ++i) {
        if (offsets[i] < 0 || offsets[i] + y.shape[i] > x.shape[i])
            throwLoweringError(op, "dim " + std::to_string(i) + ": offset + size exceeds x");
        start += offsets[i] * strides[i];
    }
    // Rows are y's trailing dims from the last one y does not keep whole: a dim kept whole makes
    // the one before it contiguous in x, so both are one row (a slice that keeps every dim is
    // one run, not a burst per x row). Every other dim walks x at x's strides.
    std::size_t rowDims = 1;
    while (rowDims < rank && y.shape[rank - rowDims] == x.shape[rank - rowDims]) ++rowDims;
    std::int64_t rowLength = 1;
    for (std::size_t i = rank - rowDims; i < rank; ++i) rowLength *= y.shape[i];
    std::vector<std::int64_t> outerDims, outerStrides;
    for (std::size_t i = 0; i + rowDims < rank; ++i) {
        if (y.shape[i] == 1) continue;
        outerDims.push_back(y.shape[i]);
        outerStrides.push_back(strides[i]);
    }
    TensorInfo source = x;
    source.deviceAddr += static_cast<std::uint64_t>(start) * bytesOf(x.dtype);
    if (auto lastDim = lastDimSliceOf(op, chip, source.deviceAddr, offsets.back())) return {*lastDim};
    ElementwiseProgram program(op, x.dtype, outerDims, rowLength);
    program.store(program.elements(source, outerStrides), y);  // a move (ElementwisePlan::movesOnly)
    return {program.lower(chip)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("Slice", lowerSlice);

}  // namespace ascendsim
