// Write-only kernels (docs/op-catalog.md, "Ops of the LLM samples"): ZerosLike, OnesLike, Fill
// and MemSet. Fill's blocks duplicate the value into one UB buffer once (vector Duplicate) and
// stream that buffer to their share of the output with MTE3 only; ZerosLike and OnesLike duplicate
// it into every tile (BroadcastFillTiles), MemSet once per chunk (MemSetTiles): the tensor is never
// read, as
// the sample's ZerosLike of 1.5 GB shows (1.89 ms at bd 40 is write-only HBM traffic,
// ef63bc64 rank_0 kernel_details.csv). Two of them first read something small from GM, each
// read waited for by the scalar unit before the work (docs/fidelity.md §25c, §49):
// - MemSet is the runtime's zeroing of atomic-add workspaces; it has no input tensor. CANN's
//   MemSet (DynamicMemSet, tbe/impl/dynamic/mem_set.py, CANN 8.1) reads its tiling before any
//   work: every block moves the 96 B header record GM → UB and reads the core count from it with
//   the scalar unit, then per tensor moves that tensor's record (24 int32) and reads it the same
//   way before it duplicates and stores. So a block starts with two serial small GM reads (one
//   cleared tensor), the MTE2 time real MemSets show while reading no tensor. (A third, of the
//   tensor's dtype word from the kernel's constant dtypes_gm table, is in the source but not
//   modelled: the model's cold small reads already cost more MTE2 than the rows show, §90.) Its
//   clearing loop is not the stream of the other fills either (MemSetTiles, §90). The coupled
//   chip (910A) runs the static TIK MemSet instead, which reads nothing (StaticMemSetTiles, §124).
// - ZerosLike and OnesLike are CANN's DSL kernels (tbe/impl/dynamic/zeros_like.py, ones_like.py,
//   CANN 8.1, read for structure): the value is `tbe.broadcast` into each tile the schedule stores,
//   so every tile is duplicated again (BroadcastFillTiles), double-buffered like any DSL elementwise
//   tile; a bf16 output has no Duplicate of its own, so the kernel broadcasts fp16, casts it to fp32
//   and rounds that to bf16 (three vector passes a tile). The rows: the Qwen3 ZerosLike fp32
//   [375815680] keeps the vector pipe 0.052 busy (a Duplicate a tile, ≈ 1 cycle a repeat against its
//   store stream), bf16 [4096,1,16,128] / [4096,1,8,128] 0.41 / 0.24 (ef63bc64 rank_0).
// - Fill is CANN's Fill(dims, value): the value is a one-element device tensor (aclnn's
//   InplaceFillScalar makes one of the scalar), which every block moves GM → UB and reads with
//   the scalar unit before its Duplicate. The real Fill rows show that read: aiv MTE2 190-200
//   cycles per launch on all three 910B sets, where OnesLike and ZerosLike (value in the binary's
//   arguments) show 1-2 (§49).
#include <algorithm>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/leading_reads.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// UB bytes of the fill buffer a block streams out (assumed: half of UB, the tile size CANN's
// Fill tiling picks when there is no input to double-buffer).
std::uint64_t fillBufferBytes(const VectorPlacement& placement) { return placement.ubBytes / 2; }

// MemSet's reads (mem_set.py, DynamicMemSet.addr_clean and compute_value_set, CANN 8.1): the
// header record (24 int32, TILING_PARAMS_NUM) for the core count (one set_as), then per cleared
// tensor its record, whose 18 fields get_tiling_data reads with set_as; each move waited for
// before its words are read (tiling/leading_reads.h).
constexpr std::uint64_t kMemSetRecordBytes = 24 * 4;
constexpr std::uint32_t kMemSetRecordFieldsRead = 18;
const std::vector<LeadingRead> kMemSetTilingReads{{.bytes = kMemSetRecordBytes, .scalarWords = 1},
                                                  {.bytes = kMemSetRecordBytes, .scalarWords = kMemSetRecordFieldsRead}};
// Fill's value tensor: one element, moved as the one 32 B block that holds it; neither the
// workload's Fill (value attribute) nor a replay row carries its address, so it is read from the
// launch's workspace: one cold line either way.
const std::vector<LeadingRead> kFillValueRead{{.bytes = kUbBlockBytes}};

struct FillLayout {
    DataType dtype = DataType::Fp32;
    std::uint64_t gmAddr = 0;
    std::uint64_t elements = 0;
    std::uint64_t chunkElements = 0;  // one store
    float value = 0.0f;
};

class FillTiles final : public TileSource {
public:
    FillTiles(std::shared_ptr<const FillLayout> layout, UnitRange chunks) : l_(std::move(layout)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void setup(TileCode& code) override {
        if (tileCount() == 0) return;
        // Duplicate has b16/b32 forms: 1-byte outputs (bool) are zeroed as fp16 pairs.
        emitVectorRange(code.compute, VectorOp::Duplicate, l_->dtype, {.dst = 0}, l_->chunkElements, l_->value);
    }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const std::uint64_t chunk = chunks_.begin + index;
        const std::uint64_t first = chunk * l_->chunkElements;
        const std::uint64_t count = std::min(l_->chunkElements, l_->elements - first);
        const std::uint64_t eb = bytesOf(l_->dtype);
        code.store.push_back(moveRowsToGm(0, l_->gmAddr + first * eb, 1, count * eb, count * eb));
    }

private:
    std::shared_ptr<const FillLayout> l_;
    UnitRange chunks_;
};

// How DynamicMemSet clears one tensor (mem_set.py, get_tiling_data's fields as the host tiling
// sets them; compute_value_set_ele_size): every core only when the 32 B-aligned tensor is larger
// than cores × 256 B (MAX_MASK_BYTE), else one core; a core's share is the aligned size ÷ cores,
// rounded up to 32 B, the last core the rest. A share is cleared in chunks of one full
// vector_dup, 255 repeats × 256 B: each chunk is duplicated again into the one dup buffer and
// then stored, so the dup waits for the previous chunk's store and the store for the dup; the
// tail after full chunks is stored from the buffer as it is (duplicated only when the share has
// no full chunk).
constexpr std::uint64_t kMemSetAllCoresBytesPerCore = 256;
constexpr std::uint64_t kMemSetChunkBytes = 255 * 256;

// Bytes of code a block of DynamicMemSet's binary runs through (KernelTask::codeBytes, docs/fidelity.md
// §116). mem_set.py (CANN 8.1, compute_value_set) emits, for every cleared tensor, the whole clearing
// code (front-core and last-core chunk loops, tail, data_move_pad) once per entry of its dtypes_map
// (8 dtypes), each copy behind its own if_scope on the tensor's dtype word; the ifs are sequential,
// so every block tests them all in turn and its fetch spans the copies, more fill units than the
// elementwise binaries' 10 KiB image (icache.kernel_code_bytes). The real rows show it: cold MemSets
// miss the ICache at 0.39-0.44 on both 910B exports (e5a31957 text/level2 rank0; ef63bc64 st/level2
// rank_0: 0.43) where the export's other cold vector kernels miss at 0.14-0.25. [D] swept 12 / 14 /
// 16 / 18 KiB over the cold MemSets of the AlexNet 910B2 text export (8 rows; not the NLLLoss
// MemSet, whose time is three records' reads, §98) and Qwen3 rank_0 (1 row): sum |log sim/real|
// 1.79 at 10 KiB, least at 16 KiB (0.715); the DB export and Qwen3 rank_2 held out. Split chips only, as §102's reduce binaries (the
// 910A's MemSet rows were not fitted: they keep the chip's image).
constexpr std::uint32_t kMemSetCodeBytes = 16384;

struct ByteRange {
    std::uint64_t begin = 0;
    std::uint64_t end = 0;
};

ByteRange memSetShare(std::uint64_t alignedBytes, std::uint32_t cores, std::uint32_t core) {
    if (alignedBytes <= static_cast<std::uint64_t>(cores) * kMemSetAllCoresBytesPerCore)
        return core == 0 ? ByteRange{0, alignedBytes} : ByteRange{};
    const std::uint64_t share = alignUp(alignedBytes / cores, kUbBlockBytes);
    const std::uint64_t begin = std::min(alignedBytes, core * share);
    return {begin, std::min(alignedBytes, begin + share)};
}

class MemSetTiles final : public TileSource {
public:
    MemSetTiles(std::shared_ptr<const FillLayout> layout, ByteRange share) : l_(std::move(layout)), share_(share) {}
    std::uint64_t tileCount() const override { return ceilDiv(share_.end - share_.begin, kMemSetChunkBytes); }
    std::uint32_t buffers() const override { return 1; }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const std::uint64_t first = share_.begin + index * kMemSetChunkBytes;
        const std::uint64_t bytes = std::min(kMemSetChunkBytes, share_.end - first);
        const bool fullChunks = share_.end - share_.begin >= kMemSetChunkBytes;
        const std::uint64_t eb = bytesOf(l_->dtype);
        if (bytes == kMemSetChunkBytes || !fullChunks)
            emitVectorRange(code.compute, VectorOp::Duplicate, l_->dtype, {.dst = 0}, ceilDiv(bytes, eb), l_->value);
        // The last core's tail is moved with data_move_pad: the tensor's own bytes, not the 32 B-aligned size.
        const std::uint64_t stored = std::min(first + bytes, l_->elements * eb) - first;
        code.store.push_back(moveRowsToGm(0, l_->gmAddr + first, 1, stored, stored));
    }

private:
    std::shared_ptr<const FillLayout> l_;
    ByteRange share_;
};

// The coupled chip's MemSet is CANN's static TIK kernel (tbe/impl/mem_set.py, class MemSet, CANN 8.1;
// the 910A's PyTorch runs compile static kernels): the host splits the tensor at build time, so a
// block reads no tiling. Every block first duplicates one 48 KiB fp16 zero buffer (gen_value_ub:
// MEMORY_CLEAR_UB_ZERO_BUFF, 192 repeats of 256 B) whatever its share, then stores its segment from
// it in 48 KiB data_moves (no data_move_pad on the 910A: whole 32 B blocks). A segment
// is the tensor's 32 B blocks ÷ cores, rounded up to whole 48 KiB buffers (each_core_size_aligned),
// so the launch has ⌈size ÷ segment⌉ blocks: the 910A's rows show exactly those block dims
// (c1e639ee rank0: [576,2,16,16] fp32 25 with GE's padded size, [108,24,16,16] 28, [256,2,16,16] 11,
// [63,2,16,16] 3, [1,4096] 1), where DynamicMemSet would launch all 32 cores.
constexpr std::uint64_t kStaticMemSetBufferBytes = 48 * 1024;

bool memSetIsStaticTikKernel(const ChipConfig& chip) { return chip.organisation == CoreOrganisation::Coupled; }

std::uint64_t staticMemSetSegmentBytes(std::uint64_t bytes, std::uint32_t cores) {
    const std::uint64_t perCore = ceilDiv(ceilDiv(bytes, kUbBlockBytes), std::uint64_t{cores}) * kUbBlockBytes;
    return alignUp(std::max<std::uint64_t>(perCore, 1), kStaticMemSetBufferBytes);
}

class StaticMemSetTiles final : public TileSource {
public:
    StaticMemSetTiles(std::shared_ptr<const FillLayout> layout, ByteRange segment) : l_(std::move(layout)), segment_(segment) {}
    std::uint64_t tileCount() const override { return ceilDiv(segment_.end - segment_.begin, kStaticMemSetBufferBytes); }
    void setup(TileCode& code) override {
        emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Fp16, {.dst = 0},
                        kStaticMemSetBufferBytes / bytesOf(DataType::Fp16), 0.0f);
    }
    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const std::uint64_t first = segment_.begin + index * kStaticMemSetBufferBytes;
        // The chip stores whole 32 B blocks into GE's padded allocation; the model stores the tensor's
        // own bytes (same bursts, and no neighbour overwritten in functional runs).
        const std::uint64_t stored = std::min(kStaticMemSetBufferBytes, segment_.end - first);
        code.store.push_back(moveRowsToGm(0, l_->gmAddr + first, 1, stored, stored));
    }

private:
    std::shared_ptr<const FillLayout> l_;
    ByteRange segment_;
};

// The DSL broadcast's tiles (ZerosLike, OnesLike): each tile duplicated into its own half and stored.
struct BroadcastFillLayout {
    DataType dtype = DataType::Fp32;  // the stored dtype (bf16: through fp16 and fp32)
    std::uint64_t gmAddr = 0, elements = 0, chunkElements = 0;
    std::uint64_t outStage = 0, outHalf = 0, fp16Stage = 0, fp16Half = 0, fp32Stage = 0, fp32Half = 0;
    float value = 0.0f;
};

class BroadcastFillTiles final : public TileSource {
public:
    BroadcastFillTiles(std::shared_ptr<const BroadcastFillLayout> layout, UnitRange chunks) : l_(std::move(layout)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const BroadcastFillLayout& l = *l_;
        const std::uint64_t first = (chunks_.begin + index) * l.chunkElements;
        const std::uint64_t count = std::min(l.chunkElements, l.elements - first);
        const std::uint64_t eb = bytesOf(l.dtype), out = l.outStage + half * l.outHalf;
        if (l.dtype == DataType::Bf16) {
            const std::uint64_t fp16 = l.fp16Stage + half * l.fp16Half, fp32 = l.fp32Stage + half * l.fp32Half;
            emitVectorRange(code.compute, VectorOp::Duplicate, DataType::Fp16, {.dst = fp16}, count, l.value);
            emitVectorRange(code.compute, VectorOp::Cast, DataType::Fp32, {.dst = fp32, .src0 = fp16}, count, 0.0f, DataType::Fp16);
            emitVectorRange(code.compute, VectorOp::Cast, DataType::Bf16, {.dst = out, .src0 = fp32}, count, 0.0f, DataType::Fp32);
        } else {
            emitVectorRange(code.compute, VectorOp::Duplicate, l.dtype, {.dst = out}, count, l.value);
        }
        code.store.push_back(moveRowsToGm(out, l.gmAddr + first * eb, 1, count * eb, count * eb));
    }

private:
    std::shared_ptr<const BroadcastFillLayout> l_;
    UnitRange chunks_;
};

// How a fill kernel walks its output: the stream of one duplicated buffer (Fill), the DSL
// broadcast's tiles (ZerosLike, OnesLike) or DynamicMemSet's chunks.
enum class FillSchedule { OneDuplicateStream, BroadcastTiles, MemSetChunks };

// The DSL broadcast's kernel: per tile element the output's two halves, and for bf16 the fp16 and
// fp32 halves it is made through; tiles of whole repeats of the widest buffer.
LoweredKernel lowerBroadcastFill(const OpInstance& op, const ChipConfig& chip, const TensorInfo& out, DataType dtype,
                                 std::uint64_t elements, float value) {
    const VectorPlacement placement = vectorPlacement(chip);
    auto l = std::make_shared<BroadcastFillLayout>();
    l->dtype = dtype;
    l->gmAddr = out.deviceAddr;
    l->elements = elements;
    l->value = value;
    const bool throughFp32 = dtype == DataType::Bf16;
    const std::uint64_t perElement = 2 * (bytesOf(dtype) + (throughFp32 ? bytesOf(DataType::Fp16) + bytesOf(DataType::Fp32) : 0));
    const std::uint64_t repeat = elementsPerRepeat(throughFp32 ? DataType::Fp32 : dtype);
    const std::uint64_t fit = (placement.ubBytes - kUbBlockBytes) / perElement / repeat * repeat;
    l->chunkElements = std::min(fit, alignUp(elements, repeat));
    UbAllocator ub(placement.ubBytes, op.name);
    l->outHalf = alignUp(l->chunkElements * bytesOf(dtype), kUbBlockBytes);
    l->outStage = ub.allocate(2 * l->outHalf, "output tiles");
    if (throughFp32) {
        l->fp16Half = alignUp(l->chunkElements * bytesOf(DataType::Fp16), kUbBlockBytes);
        l->fp16Stage = ub.allocate(2 * l->fp16Half, "fp16 broadcast");
        l->fp32Half = alignUp(l->chunkElements * bytesOf(DataType::Fp32), kUbBlockBytes);
        l->fp32Stage = ub.allocate(2 * l->fp32Half, "fp32 copy");
    }
    const std::uint64_t chunks = ceilDiv(elements, l->chunkElements);
    return tiledVectorKernel<BroadcastFillTiles>(op, placement, l, elements * bytesOf(dtype), chunks);
}

LoweredKernel lowerFillTensor(const OpInstance& op, const ChipConfig& chip, const TensorInfo& out, float value,
                              const std::vector<LeadingRead>& leading, FillSchedule schedule) {
    if (out.elementCount() <= 0) throwLoweringError(op, "the output must not be empty");
    if (bytesOf(out.dtype) > 4) throwLoweringError(op, "64-bit outputs have no vector Duplicate form");
    const VectorPlacement placement = vectorPlacement(chip);
    auto layout = std::make_shared<FillLayout>();
    layout->dtype = bytesOf(out.dtype) == 1 ? DataType::Fp16 : out.dtype;
    layout->gmAddr = out.deviceAddr;
    const std::uint64_t bytes = static_cast<std::uint64_t>(out.elementCount()) * bytesOf(out.dtype);
    layout->elements = ceilDiv(bytes, bytesOf(layout->dtype));
    if (bytesOf(out.dtype) == 1 && (value != 0.0f || bytes % 2 != 0))
        throwLoweringError(op, "a 1-byte dtype is filled as 16-bit pairs: only zeros of an even byte count are modelled");
    layout->value = value;
    if (schedule == FillSchedule::BroadcastTiles) return lowerBroadcastFill(op, chip, out, layout->dtype, layout->elements, value);
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    std::uint64_t bufferBytes = 0;
    if (schedule == FillSchedule::MemSetChunks && memSetIsStaticTikKernel(chip)) {
        const std::uint64_t segment = staticMemSetSegmentBytes(bytes, placement.coreCount);
        bufferBytes = kStaticMemSetBufferBytes;
        kernel.blockDim = op.blockDim ? chooseVectorBlockDim(op, placement, bytes, 1) : static_cast<std::uint32_t>(ceilDiv(bytes, segment));
        kernel.program = [layout = std::shared_ptr<const FillLayout>(layout), bytes,
                          segment](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
            const std::uint64_t begin = std::min(bytes, request.blockIdx * segment);
            return std::make_unique<DoubleBufferedStream>(
                std::make_unique<StaticMemSetTiles>(layout, ByteRange{begin, std::min(bytes, begin + segment)}));
        };
    } else if (schedule == FillSchedule::MemSetChunks) {
        const std::uint64_t alignedBytes = alignUp(bytes, kUbBlockBytes);
        bufferBytes = std::min(kMemSetChunkBytes, alignedBytes);
        // The host tiling launches every core or one (a replayed row brings its own block dim).
        const bool allCores = alignedBytes > static_cast<std::uint64_t>(placement.coreCount) * kMemSetAllCoresBytesPerCore;
        kernel.blockDim = op.blockDim ? chooseVectorBlockDim(op, placement, bytes, 1) : (allCores ? placement.coreCount : 1);
        kernel.codeBytes = dynamicBinaryCodeBytes(chip, kMemSetCodeBytes);
        kernel.program = [layout = std::shared_ptr<const FillLayout>(layout), alignedBytes,
                          cores = kernel.blockDim](const BlockProgramRequest& request) -> std::unique_ptr<InstructionStream> {
            return std::make_unique<DoubleBufferedStream>(
                std::make_unique<MemSetTiles>(layout, memSetShare(alignedBytes, cores, request.blockIdx)));
        };
    } else {
        bufferBytes = std::min(fillBufferBytes(placement), alignUp(bytes, kUbBlockBytes));
        layout->chunkElements = bufferBytes / bytesOf(layout->dtype);
        const std::uint64_t chunks = ceilDiv(layout->elements, layout->chunkElements);
        kernel.blockDim = chooseVectorBlockDim(op, placement, bytes, chunks);
        kernel.program = doubleBufferedBlockShares<FillTiles>(std::shared_ptr<const FillLayout>(layout), chunks, kernel.blockDim);
    }
    // Every block reads them, also one that then has nothing to fill; they land after the buffer.
    prependLeadingReads(kernel, chip, leading, alignUp(bufferBytes, kUbBlockBytes));
    return kernel;
}

std::vector<LoweredKernel> lowerLike(const OpInstance& op, const ChipConfig& chip, float value) {
    requireOperands(op, 1, 1);
    if (op.outputs[0].elementCount() != op.inputs[0].elementCount()) throwLoweringError(op, "y must have x's shape");
    return {lowerFillTensor(op, chip, op.outputs[0], value, {}, FillSchedule::BroadcastTiles)};
}

std::vector<LoweredKernel> lowerOutputOnly(const OpInstance& op, const ChipConfig& chip, float value,
                                           const std::vector<LeadingRead>& leading, FillSchedule schedule) {
    if (op.outputs.empty()) throwLoweringError(op, "needs an output tensor");
    return {lowerFillTensor(op, chip, op.outputs[0], value, leading, schedule)};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("ZerosLike", [](const OpInstance& op, const ChipConfig& chip) { return lowerLike(op, chip, 0.0f); });
ASCENDSIM_REGISTER_KERNEL("OnesLike", [](const OpInstance& op, const ChipConfig& chip) { return lowerLike(op, chip, 1.0f); });
ASCENDSIM_REGISTER_KERNEL("Fill", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerOutputOnly(op, chip, static_cast<float>(op.floatAttr("value", 0.0)), kFillValueRead,
                           FillSchedule::OneDuplicateStream);
});
ASCENDSIM_REGISTER_KERNEL("MemSet", [](const OpInstance& op, const ChipConfig& chip) {
    return lowerOutputOnly(op, chip, 0.0f, memSetIsStaticTikKernel(chip) ? std::vector<LeadingRead>{} : kMemSetTilingReads,
                           FillSchedule::MemSetChunks);
});

}  // namespace ascendsim
