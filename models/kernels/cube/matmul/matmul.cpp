// MatMul lowering (docs/op-catalog.md): a [M,K] (or [K,M]), b [K,N] (or [N,K]), optional bias
// [N] → y [M,N]. Shared with BatchMatMul through lowerMatmulFamily.
#include <algorithm>
#include <memory>
#include <string>

#include "models/kernels/cube/matmul/matmul_epilogue_operand.h"
#include "models/kernels/cube/matmul/matmul_operands.h"
#include "models/kernels/cube/matmul/matmul_single_core_split_k.h"

namespace ascendsim {

namespace {
std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) text.push_back(',');
        text.append(std::to_string(shape[i]));
    }
    text.push_back(']');
    return text;
}

bool transposeAttr(const OpInstance& op, const char* catalogName, const char* cannName, const char* adjName) {
    return op.boolAttr(catalogName, op.boolAttr(cannName, op.boolAttr(adjName, false)));
}

// Element strides of each output batch dim in an operand with batch dims `dims` (right-aligned,
// numpy broadcasting: a missing or size-1 dim has stride 0).
std::vector<std::uint64_t> broadcastStrides(const std::vector<std::int64_t>& dims,
                                            const std::vector<std::uint64_t>& outDims,
                                            std::uint64_t matrixElements) {
    std::vector<std::uint64_t> strides(outDims.size(), 0);
    std::uint64_t stride = matrixElements;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        const std::size_t fromRight = i;  // 0 = innermost batch dim
        const std::int64_t dim = dims[dims.size() - 1 - i];
        const std::size_t outIndex = outDims.size() - 1 - fromRight;
        if (dim != 1) strides[outIndex] = stride;
        stride *= static_cast<std::uint64_t>(dim);
    }
    return strides;
}
// A batch whose B is shared by every batch (broadcast, stride 0) and whose A matrices are
// row-major and back to back is one GEMM of batch·M rows: the output [batch, M, N] is the same
// bytes as [batch·M, N]. CANN's BatchMatMul folds ND operands so (B loaded once per tile, full base
// blocks): 8192 tiny [16,16]·[16,16] products are one 131072×16·16×16 GEMM, not 8192 tiles. TBE's
// BatchMatMul of FRACTAL_NZ operands (the 910A's) keeps its batch loop and B resident instead
// (planResidentB): c1e639ee level1 rank0's AdaptiveAvgPool2d LeftBatchMatMulV2 keeps MTE3 busy 70
// cycles for each of a core's 256 batches, one 512 B store a batch, where a folded 128-row tile
// would store 4 KiB at once (docs/fidelity.md §67d, §85). That loop is a stream of small stores,
// which only a chip that posts its stores (pipes.mte3_store_issue_cycles, §79) times right: with
// each store holding MTE3 to its write the row runs 1.55× of real, folded 0.47×, with stores
// posted 0.98×. So NZ batches keep the loop where stores are posted, and fold (the stand-in) where
// they are not.
void foldBroadcastBatchIntoM(MatmulProblem& p, const ChipConfig& chip) {
    if (p.batchShape.empty() || p.transposeA || (p.aFractal && chip.mte3StoreIssueCycles > 0)) return;
    std::uint64_t contiguous = p.m * p.k;
    for (std::size_t d = p.batchShape.size(); d-- > 0;) {
        if (p.bBatchStride[d] != 0 || p.aBatchStride[d] != contiguous) return;
        contiguous *= p.batchShape[d];
    }
    p.m *= p.batchCount();
    p.batchShape.clear();
    p.aBatchStride.clear();
    p.bBatchStride.clear();
}
}  // namespace

std::vector<LoweredKernel> lowerMatmulFamily(const OpInstance& op, const ChipConfig& chip, bool batched) {
    if (op.inputs.size() < 2 || op.outputs.empty())
        throwLoweringError(op, "needs inputs a, b (bias optional) and output y");
    const TensorInfo& a = op.inputs[0];
    const TensorInfo& bt = op.inputs[1];
    const TensorInfo& y = op.outputs[0];
    if (a.shape.size() < 2 || bt.shape.size() < 2 || (!batched && (a.shape.size() != 2 || bt.shape.size() != 2)))
        throwLoweringError(op, "operand ranks " + shapeText(a.shape) + " x " + shapeText(bt.shape) +
                                   (batched ? " need at least 2 dims" : " must be 2-D"));
    if (a.dtype != bt.dtype) throwLoweringError(op, "a and b dtypes differ");

    MatmulProblem p;
    p.transposeA = transposeAttr(op, "transpose_a", "transpose_x1", "adj_x1");
    p.transposeB = transposeAttr(op, "transpose_b", "transpose_x2", "adj_x2");
    const auto aRows = a.shape[a.shape.size() - 2], aCols = a.shape.back();
    const auto bRows = bt.shape[bt.shape.size() - 2], bCols = bt.shape.back();
    p.m = static_cast<std::uint64_t>(p.transposeA ? aCols : aRows);
    p.k = static_cast<std::uint64_t>(p.transposeA ? aRows : aCols);
    const auto kB = static_cast<std::uint64_t>(p.transposeB ? bCols : bRows);
    p.n = static_cast<std::uint64_t>(p.transposeB ? bRows : bCols);
    if (p.k != kB) throwLoweringError(op, "K of a (" + std::to_string(p.k) + ") != K of b (" + std::to_string(kB) + ")");
    if (p.m == 0 || p.n == 0 || p.k == 0) throwLoweringError(op, "empty matrix dimension");

    const std::vector<std::int64_t> aBatch(a.shape.begin(), a.shape.end() - 2);
    const std::vector<std::int64_t> bBatch(bt.shape.begin(), bt.shape.end() - 2);
    const std::size_t rank = std::max(aBatch.size(), bBatch.size());
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < aBatch.size() ? aBatch[aBatch.size() - 1 - i] : 1;
        const std::int64_t db = i < bBatch.size() ? bBatch[bBatch.size() - 1 - i] : 1;
        if (da != db && da != 1 && db != 1)
            throwLoweringError(op, "batch dims of " + shapeText(a.shape) + " and " + shapeText(bt.shape) + " do not broadcast");
        p.batchShape.insert(p.batchShape.begin(), static_cast<std::uint64_t>(std::max(da, db)));
    }
    p.aBatchStride = broadcastStrides(aBatch, p.batchShape, p.m * p.k);
    p.bBatchStride = broadcastStrides(bBatch, p.batchShape, p.k * p.n);
    if (static_cast<std::uint64_t>(y.elementCount()) != p.batchCount() * p.m * p.n)
        throwLoweringError(op, "output " + shapeText(y.shape) + " does not hold the product");
    p.aFractal = a.format == TensorFormat::FractalNz;
    // A fused epilogue operand is read tile by tile of the batch loop (matmul_epilogue_operand.cpp).
    if (!hasFusedElementwiseInput(op)) foldBroadcastBatchIntoM(p, chip);

    p.inputType = a.dtype;
    switch (a.dtype) {
        case DataType::Fp16: case DataType::Bf16:
            p.mmadType = a.dtype; p.accType = DataType::Fp32; break;
        // fp32 keeps its precision (f32f32f32 mmad) unless the op allows hf32: torch_npu's
        // torch.npu.matmul.allow_hf32 is False by default (aclnn cubeMathType KEEP_DTYPE), and the
        // 910B2 AlexNet sample's MatMulV2/V3 rows say "HF32 Eligible NO" (convolutions: YES).
        // An hf32 input dtype is hf32 mode already.
        case DataType::Fp32: case DataType::Hf32:
            p.mmadType = a.dtype == DataType::Hf32 || op.boolAttr("allow_hf32", false) ? DataType::Hf32 : DataType::Fp32;
            p.accType = DataType::Fp32;
            break;
        case DataType::Int8:
            p.mmadType = DataType::Int8; p.accType = DataType::Int32; break;
        default:
            throwLoweringError(op, "unsupported dtype " + std::string(dataTypeName(a.dtype)));
    }
    p.outputType = y.dtype;
    p.aFractal = a.format == TensorFormat::FractalNz;
    p.bFractal = bt.format == TensorFormat::FractalNz;
    p.yFractal = y.format == TensorFormat::FractalNz;
    p.aAddr = a.deviceAddr;
    p.bAddr = bt.deviceAddr;
    p.yAddr = y.deviceAddr;
    if (hasFusedElementwiseInput(op)) {
        if (chip.organisation != CoreOrganisation::Coupled)
            throwLoweringError(op, "a fused elementwise epilogue is modelled on coupled chips only (C through UB)");
        setEpilogueOperand(op, op.inputs[2], p);
    } else if (op.inputs.size() >= 3) {
        const TensorInfo& bias = op.inputs[2];
        if (static_cast<std::uint64_t>(bias.elementCount()) != p.n)
            throwLoweringError(op, "bias " + shapeText(bias.shape) + " is not [N=" + std::to_string(p.n) + "]");
        p.hasBias = true;
        p.biasType = bias.dtype;
        p.biasAddr = bias.deviceAddr;
    }

    // A huge K takes CANN's single-core split-K kernel (docs/fidelity.md §82).
    if (const auto splitK = singleCoreSplitKTiling(chip, p)) return {singleCoreSplitKKernel(op, chip, p, *splitK)};
    MatmulTiling tiling;
    CubeBufferPlan plan;
    planMatmul(op, chip, p, tiling, plan);
    auto operands = std::make_shared<const MatmulOperands>(p, tiling);
    return {makeCubeKernel(op, chip, operands, plan, CubeStepSizes{tiling.baseK})};
}

namespace {
std::vector<LoweredKernel> lowerMatMul(const OpInstance& op, const ChipConfig& chip) {
    return lowerMatmulFamily(op, chip, false);
}
}  // namespace

ASCENDSIM_REGISTER_KERNEL("MatMul", lowerMatMul);

}  // namespace ascendsim
