// Elementwise ops on int64 words (int64_elementwise.h). One double-buffered program: each block
// streams its share of the elements in chunks; per chunk MTE2 loads the dense inputs, the vector
// unit runs the op's word-level steps (or the scalar unit its per-element loop), MTE3 stores.
#include "models/kernels/elementwise/int64_elementwise.h"

#include <algorithm>
#include <memory>

#include "models/kernels/elementwise/elementwise_broadcast.h"
#include "models/kernels/tiling/vector_tiling_stream.h"

namespace ascendsim {

namespace {

// One vector instruction range per chunk: `lanes` elements of `dtype` per int64 element (2 for
// an int32 word pair, 1 once one lane per pair is left).
struct WordStep {
    VectorOp op = VectorOp::Add;
    DataType dtype = DataType::Int32;
    std::uint32_t lanes = 2;
    DataType srcType = DataType::Int32;  // Cast: the source dtype
};

// Scalar cycles per element of int64 Mul (int64_elementwise.h: assumed; the Qwen3 rank 2 sample's
// int64 Mul [4096,1] at bd 8 shows 0.704 × 70249 / 8 cycles of scalar per 512 elements = 12.1).
constexpr std::uint32_t kInt64MulScalarCyclesPerElement = 12;

struct Int64Layout {
    std::vector<std::uint64_t> denseInputs;  // GM addresses of inputs streamed per chunk
    std::vector<std::uint32_t> denseInputBytes;
    bool hasScalarInput = false;
    std::uint64_t scalarInputGm = 0;
    std::uint64_t outputGm = 0;
    std::uint32_t outputBytes = 8;
    std::uint64_t elements = 0;
    std::uint64_t chunkElements = 0;
    std::uint64_t halfBytes = 0;  // one ping-pong half: inputs, output, scratch
    std::uint64_t scalarUb = 0;   // after both halves
    std::vector<WordStep> steps;
    std::uint32_t scalarCyclesPerElement = 0;
};

class Int64Tiles final : public TileSource {
public:
    Int64Tiles(std::shared_ptr<const Int64Layout> layout, UnitRange chunks) : l_(std::move(layout)), chunks_(chunks) {}
    std::uint64_t tileCount() const override { return chunks_.size(); }
    void setup(TileCode& code) override {
        if (l_->hasScalarInput && tileCount() > 0)
            code.load.push_back(moveRowsToUb(l_->scalarInputGm, l_->scalarUb, 1, kUbBlockBytes, kUbBlockBytes));
    }
    void tile(std::uint64_t index, std::uint32_t half, TileCode& code) override {
        const std::uint64_t first = (chunks_.begin + index) * l_->chunkElements;
        const std::uint64_t count = std::min(l_->chunkElements, l_->elements - first);
        std::uint64_t ub = half * l_->halfBytes;
        std::vector<std::uint64_t> inputUb;
        for (std::size_t i = 0; i < l_->denseInputs.size(); ++i) {
            const std::uint64_t bytes = count * l_->denseInputBytes[i];
            code.load.push_back(moveRowsToUb(l_->denseInputs[i] + first * l_->denseInputBytes[i], ub, 1, bytes, bytes));
            inputUb.push_back(ub);
            ub += alignUp(l_->chunkElements * l_->denseInputBytes[i], kUbBlockBytes);
        }
        const std::uint64_t outUb = ub;
        const std::uint64_t scratch = outUb + alignUp(l_->chunkElements * l_->outputBytes, kUbBlockBytes);
        const bool scalarSecond = l_->hasScalarInput;
        for (std::size_t s = 0; s < l_->steps.size(); ++s) {
            const WordStep& step = l_->steps[s];
            // Each word step reads the one before it from UB: the vector pipe overlaps independent
            // instructions, so a dependent one waits behind PipeBarrier<PIPE_V> (hardware.md §2.4).
            if (s > 0) code.compute.push_back(Instruction::barrier(Pipe::Vector));
            VectorRange r{.dst = scratch, .src0 = inputUb.empty() ? l_->scalarUb : inputUb[0]};
            r.src1 = scalarSecond || inputUb.size() < 2 ? l_->scalarUb : inputUb[1];
            r.src1IsBlock = scalarSecond;
            if (step.op == VectorOp::Gather) r.src1 = scratch, r.src1IsBlock = false;  // vreduce's pattern
            emitVectorRange(code.compute, step.op, step.dtype, r, count * step.lanes, 0.0f, step.srcType);
        }
        code.scalarCycles = static_cast<std::uint32_t>(count * l_->scalarCyclesPerElement);
        const std::uint64_t outBytes = count * l_->outputBytes;
        code.store.push_back(moveRowsToGm(outUb, l_->outputGm + first * l_->outputBytes, 1, outBytes, outBytes));
    }

private:
    std::shared_ptr<const Int64Layout> l_;
    UnitRange chunks_;
};

bool isCompare(const std::string& type) {
    return type == "Less" || type == "Greater" || type == "GreaterEqual" || type == "LessEqual" || type == "Equal" ||
           type == "NotEqual";
}

// The word-level steps of CANN's int64 forms (int64_elementwise.h). A 32-bit lane unit needs the
// low and high words as separate vectors for the carry and the word-wise compares: each dense
// int64 input is split by two vreduces (Gather of one lane per pair); a scalar x2's words are
// scalar registers. Results are interleaved back into pairs by one gather.
std::vector<WordStep> splitWords(std::size_t denseInputs) {
    return std::vector<WordStep>(2 * denseInputs, WordStep{VectorOp::Gather, DataType::Int32, 1});
}

std::vector<WordStep> stepsOf(const OpInstance& op, std::size_t denseInputs) {
    const DataType from = op.inputs[0].dtype, to = op.outputs[0].dtype;
    if (op.type == "Add" || op.type == "Sub") {
        const VectorOp arith = op.type == "Add" ? VectorOp::Add : VectorOp::Sub;
        std::vector<WordStep> steps = splitWords(denseInputs);
        // low words, carry (borrow) by an unsigned compare and a select, high words plus the carry
        for (const VectorOp v : {arith, VectorOp::CompareGt, VectorOp::Select, arith, VectorOp::Add})
            steps.push_back({v, DataType::Int32, 1});
        steps.push_back({VectorOp::Gather, DataType::Int32, 2});
        return steps;
    }
    if (op.type == "Mul") return {};
    if (isCompare(op.type)) {
        std::vector<WordStep> steps = splitWords(denseInputs);
        // high words both ways, low words (unsigned), the two selects combining them
        for (const VectorOp v : {VectorOp::CompareGt, VectorOp::CompareGt, VectorOp::CompareGt, VectorOp::Select,
                                 VectorOp::Select})
            steps.push_back({v, DataType::Int32, 1});
        steps.push_back({VectorOp::Cast, DataType::Fp16, 1, DataType::Int32});
        steps.push_back({VectorOp::Cast, DataType::Uint8, 1, DataType::Fp16});
        return steps;
    }
    // Cast.
    if (from == DataType::Int64) {
        std::vector<WordStep> steps{{VectorOp::Gather, DataType::Int32, 1}};  // the low words
        if (to == DataType::Fp32) steps.push_back({VectorOp::Cast, DataType::Fp32, 1, DataType::Int32});
        else if (to != DataType::Int32) throwLoweringError(op, "int64 casts only to int32 or fp32");
        return steps;
    }
    std::vector<WordStep> steps;
    if (from == DataType::Bool || from == DataType::Uint8 || from == DataType::Int8) {
        steps.push_back({VectorOp::Cast, DataType::Fp16, 1, DataType::Uint8});
        steps.push_back({VectorOp::Cast, DataType::Int32, 1, DataType::Fp16});
    } else if (from != DataType::Int32) {
        steps.push_back({VectorOp::Cast, DataType::Int32, 1, vectorComputeType(op, from)});
    }
    if (from == DataType::Int32 || isFloat(from)) steps.push_back({VectorOp::CompareGt, DataType::Int32, 1});  // sign word
    steps.push_back({VectorOp::Gather, DataType::Int32, 2});  // interleave low and high words
    return steps;
}

bool isScalarOf(const TensorInfo& t, std::int64_t outElements) { return t.elementCount() == 1 && outElements > 1; }

}  // namespace

bool isInt64Elementwise(const OpInstance& op) {
    if (op.outputs.empty() || op.inputs.empty()) return false;
    const bool known = op.type == "Add" || op.type == "Sub" || op.type == "Mul" || op.type == "Cast" || isCompare(op.type);
    const bool wide = op.inputs[0].dtype == DataType::Int64 || op.outputs[0].dtype == DataType::Int64;
    return known && wide;
}

std::vector<LoweredKernel> lowerInt64Elementwise(const OpInstance& op, const ChipConfig& chip) {
    const std::size_t inputs = op.type == "Cast" ? 1 : 2;
    requireOperands(op, inputs, 1);
    DataType target{};
    const std::string dstType = op.stringAttr("dst_type", "");
    if (op.type == "Cast" && (!parseDataType(dstType, target) || target != op.outputs[0].dtype))
        throwLoweringError(op, "dst_type '" + dstType + "' must name y's dtype");
    const TensorInfo& out = op.outputs[0];
    const std::int64_t elements = out.elementCount();
    if (elements <= 0) throwLoweringError(op, "the output must not be empty");
    auto layout = std::make_shared<Int64Layout>();
    layout->scalarCyclesPerElement = op.type == "Mul" ? kInt64MulScalarCyclesPerElement : 0;
    std::uint64_t perElement = 0;
    for (std::size_t i = 0; i < inputs; ++i) {
        const TensorInfo& in = op.inputs[i];
        if (inputs == 2 && in.dtype != DataType::Int64) throwLoweringError(op, "both inputs must be int64");
        if (isScalarOf(in, elements)) {
            if (layout->hasScalarInput || i == 0) throwLoweringError(op, "only x2 may be one value for the whole op");
            layout->hasScalarInput = true;
            layout->scalarInputGm = in.deviceAddr;
            continue;
        }
        if (in.elementCount() != elements) throwLoweringError(op, "inputs must have y's element count or be one value");
        layout->denseInputs.push_back(in.deviceAddr);
        layout->denseInputBytes.push_back(static_cast<std::uint32_t>(bytesOf(in.dtype)));
        perElement += bytesOf(in.dtype);
    }
    layout->steps = stepsOf(op, layout->denseInputs.size());
    layout->outputGm = out.deviceAddr;
    layout->outputBytes = static_cast<std::uint32_t>(bytesOf(out.dtype));
    perElement += layout->outputBytes + 2 * sizeof(std::int32_t);  // output and a word-pair scratch
    layout->elements = static_cast<std::uint64_t>(elements);
    const VectorPlacement placement = vectorPlacement(chip);
    // Two halves and the scalar block; chunks of whole 32-element groups (32 B of bool output).
    const std::uint64_t budget = (placement.ubBytes - kUbBlockBytes) / 2;
    const std::uint64_t fit = std::max<std::uint64_t>(32, budget / (perElement + 1) / 32 * 32);
    // The elements split over the blocks first (CANN's elementwise tiling), then into UB chunks.
    LoweredKernel kernel;
    kernel.type = placement.taskType;
    if (op.type != "Cast") kernel.codeBytes = dynamicBinaryCodeBytes(chip, kInt64BroadcastBinaryCodeBytes);  // Cast: one case
    kernel.blockDim = chooseVectorBlockDim(op, placement, layout->elements * perElement, ceilDiv(layout->elements, 32));
    layout->chunkElements = std::min({layout->elements, fit, alignUp(ceilDiv(layout->elements, kernel.blockDim), 32)});
    std::uint64_t half = 0;
    for (const std::uint32_t bytes : layout->denseInputBytes) half += alignUp(layout->chunkElements * bytes, kUbBlockBytes);
    half += alignUp(layout->chunkElements * layout->outputBytes, kUbBlockBytes) +
            alignUp(layout->chunkElements * 2 * sizeof(std::int32_t), kUbBlockBytes);
    layout->halfBytes = half;
    layout->scalarUb = 2 * half;
    const std::uint64_t chunks = ceilDiv(layout->elements, layout->chunkElements);
    kernel.program = doubleBufferedBlockShares<Int64Tiles>(std::shared_ptr<const Int64Layout>(layout), chunks,
                                                            kernel.blockDim);
    return {kernel};
}

}  // namespace ascendsim
