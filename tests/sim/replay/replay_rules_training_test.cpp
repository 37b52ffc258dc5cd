// Rebuilding the CNN training samples' rows (optimizer list updates, AxpyV2, pooling with argmax,
// dropout, losses) as catalog ops: rows as the 910B2 / 910A AlexNet exports record them.
#include <gtest/gtest.h>

#include "models/kernels/cube/matmul/matmul_epilogue_operand.h"
#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "sim/replay/input/memset_owner.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "tests/sim/replay/real_row.h"

namespace ascendsim {
namespace {

using Shape = std::vector<std::int64_t>;

using test::row;

TEST(ReplayRulesTraining, ForeachListsSplitByTheOutputCountAndScalarIsNotOne) {
    // Two entries (weight, bias) of each list, then the alpha scalar; outputs flattened.
    const OpInstance add = replayOp(row("ForeachAddList", "64,3,11,11;64;64,3,11,11;64;", "FLOAT;FLOAT;FLOAT;FLOAT;FLOAT",
                                        "NCHW;FORMAT_ND;NCHW;FORMAT_ND;FORMAT_ND", "23232;64", "FLOAT;FLOAT", "NCHW;FORMAT_ND"));
    ASSERT_EQ(add.inputs.size(), 4u);
    ASSERT_EQ(add.outputs.size(), 2u);
    EXPECT_EQ(add.inputs[2].shape, (Shape{64, 3, 11, 11}));
    EXPECT_EQ(add.outputs[0].elementCount(), add.inputs[0].elementCount());
    EXPECT_NE(add.floatAttr("alpha", 1.0), 1.0);
    const OpInstance mul = replayOp(row("ForeachMulScalar", "4096,9216;4096;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND",
                                        "37748736;4096", "FLOAT;FLOAT", "ND;ND"));
    EXPECT_EQ(mul.inputs.size(), 2u);
    EXPECT_EQ(mul.outputs.size(), 2u);
    EXPECT_THROW(replayOp(row("ForeachAddList", "64;64;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND", "64;64", "FLOAT;FLOAT", "ND;ND")),
                 UnreplayableKernel);
}

TEST(ReplayRulesTraining, AxpyV2KeepsTheAlphaTensor) {
    const OpInstance op = replayOp(row("AxpyV2", "4096,9216;4096,9216;", "FLOAT;FLOAT;FLOAT", "ND;ND;ND", "4096,9216",
                                       "FLOAT", "ND", 32));
    ASSERT_EQ(op.inputs.size(), 3u);
    EXPECT_EQ(op.inputs[2].shape, (Shape{1}));
    EXPECT_EQ(op.blockDim, 32u);
    EXPECT_EQ(familyOf("AxpyV2"), "optimizer");
}

TEST(ReplayRulesTraining, MaxPoolWithArgmaxWindowFromTheMaskAndShapes) {
    // 910B2: fp32 NC1HWC0 with C0 16, 55 → 27 with a 3×3 stride-2 window.
    const OpInstance op = replayOp(row("MaxPoolWithArgmaxV1", "32,4,55,55,16", "FLOAT", "NC1HWC0:1", "32,4,27,27,16;32,4,9,47,16",
                                       "FLOAT;UINT16", "NC1HWC0:1;NC1HWC0:1", 43));
    EXPECT_EQ(op.inputs[0].shape, (Shape{32, 64, 55, 55}));
    EXPECT_EQ(op.outputs[1].shape, (Shape{32, 4, 9, 47, 16}));
    EXPECT_EQ(op.outputs[1].dtype, DataType::Int16);
    EXPECT_EQ(op.intsAttr("ksize", {}), (Shape{3, 3}));
    EXPECT_EQ(op.intsAttr("strides", {}), (Shape{2, 2}));
    EXPECT_EQ(familyOf("MaxPoolWithArgmaxV1"), "pooling");
    // The grad's 910B2 argmax extent is not what the kernel reads: rebuilt as the forward's.
    const OpInstance grad = replayOp(row("MaxPoolGradWithArgmaxV1", "32,4,55,55,16;32,4,27,27,16;32,64,9,9,47,16",
                                         "FLOAT;FLOAT;UINT16", "NC1HWC0:1;NC1HWC0:1;NC1HWC0", "32,4,55,55,16", "FLOAT",
                                         "NC1HWC0:1", 256));
    ASSERT_EQ(grad.inputs.size(), 3u);
    EXPECT_EQ(grad.inputs[2].shape, (Shape{32, 4, 9, 47, 16}));
    EXPECT_EQ(grad.intsAttr("strides", {}), (Shape{2, 2}));
    EXPECT_EQ(grad.blockDim, 256u);
    EXPECT_THROW(replayOp(row("MaxPoolWithArgmaxV1", "32,4,55,55,16", "FLOAT16", "NC1HWC0", "32,4,27,27,16;32,4,8,47,16",
                              "FLOAT16;UINT16", "NC1HWC0;NC1HWC0")),
                 UnreplayableKernel);  // 8 taps: no square window
}

TEST(ReplayRulesTraining, DropOutDoMaskKeepsTheMaskBytes) {
    const OpInstance op = replayOp(row("DropOutDoMask", "32,9216;36864;1", "FLOAT;UINT8;FLOAT", "FORMAT_ND;FORMAT_ND;FORMAT_ND",
                                       "32,9216", "FLOAT", "FORMAT_ND", 48));
    ASSERT_EQ(op.inputs.size(), 3u);
    EXPECT_EQ(op.inputs[1].dtype, DataType::Uint8);
    EXPECT_EQ(op.inputs[1].bytes() * 8, static_cast<std::uint64_t>(op.inputs[0].elementCount()));
}

TEST(ReplayRulesTraining, NllLossRowsKeepTheirScalarsAsOneElementTensors) {
    const OpInstance loss = replayOp(row("NLLLoss", "32,1000;32;1000", "FLOAT;INT64;FLOAT", "ND;ND;ND", ";", "FLOAT;FLOAT", "ND;ND", 48));
    ASSERT_EQ(loss.outputs.size(), 2u);
    EXPECT_EQ(loss.outputs[0].shape, (Shape{1}));
    EXPECT_EQ(loss.inputs[1].dtype, DataType::Int64);
    const OpInstance grad = replayOp(row("NLLLossGrad", "32,1000;;32;1000;", "FLOAT;FLOAT;INT32;FLOAT;FLOAT", "ND;ND;ND;ND;ND",
                                         "32,1000", "FLOAT", "ND", 32));
    ASSERT_EQ(grad.inputs.size(), 5u);
    EXPECT_EQ(grad.inputs[1].shape, (Shape{1}));
    EXPECT_EQ(familyOf("NLLLossGrad"), "reduction");
}

TEST(ReplayRulesTraining, LogSoftmaxRowsReplayAsTheCatalogOps) {
    const OpInstance forward = replayOp(row("LogSoftmaxV2", "32,1000", "FLOAT", "FORMAT_ND", "32,1000", "FLOAT", "FORMAT_ND", 32));
    EXPECT_EQ(forward.type, "LogSoftmaxV2");
    ASSERT_EQ(forward.inputs.size(), 1u);
    const OpInstance grad = replayOp(row("LogSoftmaxGrad", "32,1000;32,1000", "FLOAT;FLOAT", "FORMAT_ND;FORMAT_ND", "32,1000",
                                         "FLOAT", "FORMAT_ND", 32));
    ASSERT_EQ(grad.inputs.size(), 2u);
    EXPECT_EQ(grad.outputs[0].shape, (Shape{32, 1000}));
    EXPECT_EQ(familyOf("LogSoftmaxGrad"), "normalization");
}

TEST(ReplayRulesTraining, AdaptiveAvgPool3dGradTakesDyFirst) {
    const OpInstance op = replayOp(row("AdaptiveAvgPool3dGrad", "1,6,6,8192;32,256,1,6,6", "FLOAT;FLOAT", "NCHW;FORMAT_ND", "1,6,6,8192",
                                       "FLOAT", "NCHW", 48));
    ASSERT_EQ(op.inputs.size(), 2u);
    EXPECT_EQ(op.inputs[0].shape, (Shape{1, 6, 6, 8192}));
    EXPECT_EQ(familyOf("AdaptiveAvgPool3d"), "pooling");
}

TEST(ReplayRulesTraining, TransDataToAndFromFractalZKeepsTheRecordedFractalShape) {
    const OpInstance to = replayOp(row("TransData", "256,384,3,3", "FLOAT", "NCHW", "432,16,16,8", "FLOAT", "FRACTAL_Z", 43));
    EXPECT_EQ(to.stringAttr("dst_format", ""), "FRACTAL_Z");
    EXPECT_EQ(to.outputs[0].shape, (Shape{432, 16, 16, 8}));
    const OpInstance from = replayOp(row("TransData", "432,16,16,8", "FLOAT", "FRACTAL_Z", "256,384,3,3", "FLOAT", "NCHW", 43));
    EXPECT_EQ(from.inputs[0].format, TensorFormat::FractalZ);
    EXPECT_EQ(from.stringAttr("dst_format", ""), "NCHW");
}

// A MemSet row without tensors takes its owner's first output (the kernel named after it that
// follows); an unnamed one (the 910A's atomic_memset) stays without and the rule says why.
TEST(ReplayRulesTraining, MemSetZeroesItsOwnersOutput) {
    auto memset = [](const std::string& name) {
        RealKernel k = row("MemSet", "N/A", "N/A", "N/A", "N/A", "N/A", "N/A", 40);
        k.name = name;
        return k;
    };
    RealKernel owner = row("EmbeddingDenseGradV2", "1,4096,1024;4096;4096", "FLOAT;INT32;INT32", "ND;ND;ND", "151936,1024",
                           "FLOAT", "ND", 40);
    owner.name = "aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_EmbeddingDenseGradV2";
    RealKernel other = row("Add", "8;8", "FLOAT;FLOAT", "ND;ND", "8", "FLOAT", "ND");
    RealKernel nonzero = row("NonZero", "4096", "BOOL", "ND", "1,4096;1", "INT64;INT64", "ND;ND");
    nonzero.name = "aclnnNonzeroV2_NonzeroAiCore_NonZero";
    RealKernel atomic = memset("atomic_memset-1_271");
    atomic.outputShapes = "\"\"";
    atomic.outputDtypes = "UNDEFINED";
    std::vector<RealKernel> rows{memset("aclnnEmbeddingDenseBackward_EmbeddingDenseGradV2_MemSet"), other, owner,
                                 memset("aclnnNonzeroV2_NonzeroAiCore_MemSet"), nonzero, atomic, other};
    attributeMemSetTensors(rows);
    EXPECT_EQ(rows[0].outputShapes, "151936,1024");
    EXPECT_EQ(rows[0].outputDtypes, "FLOAT");
    // The owner writes into the tensor its MemSet cleared (l2_timeline.h); the kernel between does not.
    EXPECT_TRUE(rows[2].outputClearedByMemSet);
    EXPECT_FALSE(rows[1].outputClearedByMemSet);
    const OpInstance zero = replayOp(rows[0]);
    EXPECT_EQ(zero.type, "MemSet");
    EXPECT_EQ(zero.outputs[0].shape, (Shape{151936, 1024}));
    const OpInstance wide = replayOp(rows[3]);  // an int64 [1,4096] is zeroed as int32 [1,8192]
    EXPECT_EQ(wide.outputs[0].dtype, DataType::Int32);
    EXPECT_EQ(wide.outputs[0].shape, (Shape{1, 8192}));
    EXPECT_EQ(rows[5].outputShapes, "N/A");
    try {
        replayOp(rows[5]);
        ADD_FAILURE() << "an ownerless MemSet was replayed";
    } catch (const UnreplayableKernel& e) {
        EXPECT_NE(std::string(e.what()).find("names no owner"), std::string::npos) << e.what();
    }
}

// The 910A's atomic_memset names no owner: it zeroes the output of the next kernel on its stream
// that adds into fp32 with atomics (a0: MemSet → Cast, TransData, ..., MatMul28), skipping kernels
// that do not accumulate and kernels of other streams; a scalar output is one element.
TEST(ReplayRulesTraining, AtomicMemSetZeroesTheNextAccumulatorsOutput) {
    auto atomic = [](const std::string& name, const std::string& stream) {
        RealKernel k = row("MemSet", "\"\"", "UNDEFINED", "NULL", "\"\"", "UNDEFINED", "NULL", 11);
        k.name = name;
        k.stream = stream;
        return k;
    };
    RealKernel cast = row("Cast", "4096,9216", "FLOAT", "ND", "4096,9216", "FLOAT16", "ND");
    cast.stream = "1";
    RealKernel otherStream = row("MatMul", "64,64;64,64", "FLOAT16;FLOAT16", "ND;ND", "64,64", "FLOAT", "ND");
    otherStream.stream = "2";
    RealKernel matmul = row("MatMul", "576,2,16,16;576,256,16,16", "FLOAT16;FLOAT16", "FRACTAL_NZ;FRACTAL_NZ",
                            "256,2,16,16", "FLOAT", "FRACTAL_NZ", 32);
    matmul.stream = "1";
    RealKernel nll = row("NLLLoss", "32,1000;32;1000", "FLOAT;INT32;FLOAT", "ND;ND;ND", ";", "FLOAT;FLOAT", "ND;ND");
    nll.stream = "1";
    std::vector<RealKernel> rows{atomic("atomic_memset-1_271", "1"), cast, otherStream, matmul,
                                 atomic("atomic_memset-1_394_0", "1"), nll};
    attributeMemSetTensors(rows);
    EXPECT_EQ(rows[0].outputShapes, "256,2,16,16");
    EXPECT_EQ(rows[0].outputDtypes, "FLOAT");
    const OpInstance zero = replayOp(rows[0]);
    EXPECT_EQ(zero.type, "MemSet");
    EXPECT_EQ(zero.outputs[0].bytes(), 256 * 2 * 16 * 16 * 4);
    EXPECT_EQ(rows[4].outputShapes, "1");
    EXPECT_EQ(replayOp(rows[4]).outputs[0].elementCount(), 1);
    // The owner accumulates into the zeroed output across blocks (the MatMul lowering splits K for
    // it, docs/fidelity.md §46); the kernels skipped do not.
    EXPECT_TRUE(rows[3].accumulatesAtomically);
    EXPECT_TRUE(rows[3].outputClearedByMemSet);
    EXPECT_TRUE(replayOp(rows[3]).boolAttr(kAccumulatesAtomicallyAttr, false));
    EXPECT_FALSE(rows[1].accumulatesAtomically);
    EXPECT_FALSE(rows[2].accumulatesAtomically);
    EXPECT_FALSE(replayOp(rows[2]).boolAttr(kAccumulatesAtomicallyAttr, false));
}

// Index / IndexPutV2 rows: the host-built indexed_sizes and indexed_strides are dropped, the index
// tensors follow x (and values).
TEST(ReplayRulesTraining, AdvancedIndexKeepsTheIndexTensors) {
    const OpInstance put = replayOp(row("IndexPutV2", "4096,151936;4096;2;2;4096;4096", "FLOAT;FLOAT;INT64;INT64;INT64;INT64",
                                        "ND;ND;ND;ND;ND;ND", "4096,151936", "FLOAT", "ND", 40));
    ASSERT_EQ(put.inputs.size(), 4u);
    EXPECT_EQ(put.inputs[1].shape, (Shape{4096}));
    EXPECT_EQ(put.inputs[3].dtype, DataType::Int64);
    const OpInstance index = replayOp(row("Index", "4096,151936;2;1;4096;4096", "FLOAT;INT64;INT64;INT64;INT64",
                                          "ND;ND;ND;ND;ND", "4096", "FLOAT", "ND", 40));
    EXPECT_EQ(index.inputs.size(), 3u);
}

// The 910A's fused AdaptiveAvgPool2d24RightBatchMatMulV2...Mul (c1e639ee level1 rank0): a third
// input of C's dtype holding one output matrix is the fused Mul's operand (matmul_epilogue_operand.h),
// kept with the attribute; a 1-D third input stays the bias, and one of another dtype is dropped.
TEST(ReplayRulesTraining, BatchMatMulKeepsAFusedElementwiseOperand) {
    const OpInstance fused = replayOp(row("BatchMatMulV2", "32,256,1,1,16,16;1,1,16,16;1,1,16,16", "FLOAT16;FLOAT16;FLOAT",
                                          "FRACTAL_NZ;FRACTAL_NZ;FRACTAL_NZ", "32,256,1,1,16,16", "FLOAT", "FRACTAL_NZ", 32));
    ASSERT_EQ(fused.inputs.size(), 3u);
    EXPECT_TRUE(fused.boolAttr(kFusedElementwiseInputAttr, false));
    EXPECT_EQ(fused.inputs[2].elementCount(), 256);
    EXPECT_EQ(fused.inputs[2].format, TensorFormat::FractalNz);
    const OpInstance bias = replayOp(row("BatchMatMulV2", "32,256,1,1,16,16;1,1,16,16;16", "FLOAT16;FLOAT16;FLOAT",
                                         "FRACTAL_NZ;FRACTAL_NZ;ND", "32,256,1,1,16,16", "FLOAT", "FRACTAL_NZ", 32));
    ASSERT_EQ(bias.inputs.size(), 3u);
    EXPECT_FALSE(bias.boolAttr(kFusedElementwiseInputAttr, false));
    const OpInstance otherDtype = replayOp(row("BatchMatMulV2", "32,256,1,1,16,16;1,1,16,16;1,1,16,16",
                                               "FLOAT16;FLOAT16;FLOAT16", "FRACTAL_NZ;FRACTAL_NZ;FRACTAL_NZ",
                                               "32,256,1,1,16,16", "FLOAT", "FRACTAL_NZ", 32));
    EXPECT_EQ(otherDtype.inputs.size(), 2u);
}

}  // namespace
}  // namespace ascendsim
