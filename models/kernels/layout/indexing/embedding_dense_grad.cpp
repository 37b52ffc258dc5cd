// EmbeddingDenseGradV2 (docs/op-catalog.md, "Ops of the LLM samples"): the embedding table's
// gradient, out[sort_indices[i], :] += grad[pos_idx[i], :], where sort_indices are the token ids
// sorted (the sample's preceding Sort) and pos_idx each sorted entry's token position. The output
// is accumulated into, not written: the caller zeroes it first (the sample's MemSet before the
// kernel: 811 µs for the 622 MB table against the kernel's 130 µs).
// Like CANN's fp32 kernel (hicann/ops-nn index/embedding_dense_grad_v2, ProcessForFp32, 910B):
// blocks take contiguous ranges of sorted entries and handle them one at a time, single-buffered
// (its queues hold one buffer). Per entry: MTE2 copies the position and the id (4 B each), the
// scalar unit waits for them and reads the position, MTE2 copies that grad row; the vector pipe
// adds it into an accumulator row and the scalar unit waits for it; MTE3 adds the accumulator
// into its table row (atomic add), a PIPE_ALL barrier waits for that store, and the vector pipe
// clears the accumulator, again waited for by the scalar unit. Nothing overlaps across entries:
// the real kernel's MTE2 is busy ~0.5 of its time on 4 KiB rows (docs/fidelity.md §22).
// Runs of equal ids are not summed in UB first (CANN does, up to 10 rows): every entry is one
// atomic row add (the Qwen3 sample's 4096 tokens over 151936 ids repeat little).
#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/layout/indexing/indexed_rows.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

struct EmbeddingGradLayout {
    std::uint64_t entries = 0, tableRows = 0, tokens = 0, rowBytes = 0, rowPitch = 0;
    std::uint64_t grad = 0, ids = 0, positions = 0, out = 0;
    std::uint64_t ubId = 0, ubPosition = 0, ubRow = 0, ubSum = 0;
};

// The scalar unit waits for everything `pipe` has issued (PIPE_V_S / PIPE_MTE2_S in Ascend C).
void waitForPipe(std::vector<Instruction>& out, Pipe pipe) {
    out.push_back(Instruction::setFlag(pipe, Pipe::Scalar, 0));
    out.push_back(Instruction::waitFlag(pipe, Pipe::Scalar, 0));
}

class EmbeddingGradTiles final : public TileSource {
public:
    EmbeddingGradTiles(std::shared_ptr<const EmbeddingGradLayout> l, UnitRange entries) : l_(std::move(l)), entries_(entries) {}
    std::uint64_t tileCount() const override { return entries_.size(); }
    std::uint32_t buffers() const override { return 1; }

    void setup(TileCode& code) override { clearSum(code.compute); }

    void tile(std::uint64_t index, std::uint32_t, TileCode& code) override {
        const EmbeddingGradLayout& l = *l_;
        const std::uint64_t entry = entries_.begin + index;
        code.load.push_back(moveRowsToUb(l.positions + entry * 4, l.ubPosition, 1, 4, 4));
        code.load.push_back(moveRowsToUb(l.ids + entry * 4, l.ubId, 1, 4, 4));
        waitForPipe(code.load, Pipe::Mte2);
        code.load.push_back(scalarIndexReads(1, 4));
        code.load.push_back(indexedRowMove({.toUb = true, .gm = l.grad, .ub = l.ubRow, .rowBytes = l.rowBytes,
                                            .indexAddr = l.ubPosition, .rows = l.tokens}));
        code.compute.push_back(scalarIndexReads(1, 4));  // the entry's id
        emitVectorRange(code.compute, VectorOp::Add, DataType::Fp32, {.dst = l.ubSum, .src0 = l.ubSum, .src1 = l.ubRow},
                        l.rowBytes / 4);
        waitForPipe(code.compute, Pipe::Vector);
        code.store.push_back(indexedRowMove({.toUb = false, .gm = l.out, .ub = l.ubSum, .rowBytes = l.rowBytes,
                                             .indexAddr = l.ubId, .rows = l.tableRows, .atomicAdd = true}));
        code.store.push_back(Instruction::barrier(Pipe::All));
        clearSum(code.store);
    }

private:
    void clearSum(std::vector<Instruction>& out) const {
        emitVectorRange(out, VectorOp::Duplicate, DataType::Fp32, {.dst = l_->ubSum}, l_->rowBytes / 4, 0.0f);
        waitForPipe(out, Pipe::Vector);
    }

    std::shared_ptr<const EmbeddingGradLayout> l_;
    UnitRange entries_;
};

std::vector<LoweredKernel> lowerEmbeddingDenseGrad(const OpInstance& op, const ChipConfig& chip) {
    requireOperands(op, 3, 1);
    const TensorInfo &grad = op.inputs[0], &ids = op.inputs[1], &positions = op.inputs[2], &out = op.outputs[0];
    if (grad.dtype != DataType::Fp32 || out.dtype != DataType::Fp32 || grad.shape.empty() || out.shape.size() != 2)
        throwLoweringError(op, "grad [.., E] and the output [num_weights, E] must be fp32");
    if (ids.dtype != DataType::Int32 || positions.dtype != DataType::Int32 || ids.elementCount() != positions.elementCount())
        throwLoweringError(op, "sort_indices and pos_idx must be int32 of one length");
    if (op.intAttr("padding_idx", -1) != -1 || op.boolAttr("scale_grad_by_freq", false))
        throwLoweringError(op, "only padding_idx -1 and scale_grad_by_freq false are modelled");
    auto l = std::make_shared<EmbeddingGradLayout>();
    const auto width = static_cast<std::uint64_t>(grad.shape.back());
    if (width == 0 || static_cast<std::uint64_t>(out.shape[1]) != width) throwLoweringError(op, "output rows must be grad's last dim");
    l->rowBytes = width * 4;
    l->rowPitch = alignUp(l->rowBytes, kUbBlockBytes);
    l->tokens = static_cast<std::uint64_t>(grad.elementCount()) / width;
    l->tableRows = static_cast<std::uint64_t>(out.shape[0]);
    l->entries = static_cast<std::uint64_t>(ids.elementCount());
    l->grad = grad.deviceAddr, l->ids = ids.deviceAddr, l->positions = positions.deviceAddr, l->out = out.deviceAddr;
    const VectorPlacement placement = vectorPlacement(chip);
    if (2 * l->rowPitch + 2 * kUbBlockBytes > placement.ubBytes) throwLoweringError(op, "one grad row does not fit in UB");
    UbAllocator ub(placement.ubBytes, op.name);
    l->ubId = ub.allocate(kUbBlockBytes, "the sorted id");
    l->ubPosition = ub.allocate(kUbBlockBytes, "the token position");
    l->ubRow = ub.allocate(l->rowPitch, "the grad row");
    l->ubSum = ub.allocate(l->rowPitch, "the row sum");
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    kernel.blockDim = chooseVectorBlockDim(op, placement, l->entries * l->rowBytes, std::max<std::uint64_t>(1, l->entries));
    std::shared_ptr<const EmbeddingGradLayout> layout = l;
    kernel.program = doubleBufferedBlockShares<EmbeddingGradTiles>(layout, l->entries, kernel.blockDim);
    return {kernel};
}

}  // namespace

ASCENDSIM_REGISTER_KERNEL("EmbeddingDenseGradV2", lowerEmbeddingDenseGrad);

}  // namespace ascendsim
