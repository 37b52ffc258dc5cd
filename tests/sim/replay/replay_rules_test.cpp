// Rebuilding catalog ops from real rows (inferred transposes, strides, pads, axes, permutations,
// private formats) and the statistics maths.
#include <gtest/gtest.h>

#include <cmath>

#include "models/kernels/cube/conv/conv2d_geometry.h"
#include "models/kernels/cube/matmul/matmul_tbe_kernel.h"
#include "sim/replay/rules/replay_op_rules.h"
#include "tests/sim/replay/real_row.h"
#include "sim/replay/report/replay_statistics.h"

namespace ascendsim {
namespace {

using test::row;

TEST(ReplayRules, MatMul_TransposesFromShapesAndRealBlockDim) {
    const OpInstance op = replayOp(row("MatMulV3", "4096,1024;6144,1024", "DT_BF16;DT_BF16", "ND;ND", "4096,6144", "DT_BF16", "ND"));
    EXPECT_EQ(op.type, "MatMul");
    EXPECT_FALSE(op.boolAttr("transpose_a", true));
    EXPECT_TRUE(op.boolAttr("transpose_b", false));
    EXPECT_EQ(op.blockDim, 20u);
    EXPECT_EQ(op.inputs[0].dtype, DataType::Bf16);
    const OpInstance wgrad = replayOp(row("MatMulV3", "4096,1024;4096,3072", "DT_BF16;DT_BF16", "ND;ND", "1024,3072", "DT_BF16", "ND"));
    EXPECT_TRUE(wgrad.boolAttr("transpose_a", false));
    EXPECT_FALSE(wgrad.boolAttr("transpose_b", true));
}

// A MatMulV2 row is TBE's binary kernel (matmul_tbe_kernel.h, docs/fidelity.md §125): the replay
// marks it so its stores follow the cube; MatMulV3 (Ascend C) and the 910A's MatMul are not marked.
TEST(ReplayRules, MatMulV2_IsMarkedTbesKernel) {
    const OpInstance v2 = replayOp(row("MatMulV2", "32,1000;32,4096", "FLOAT;FLOAT", "ND;ND", "1000,4096", "FLOAT", "ND"));
    EXPECT_EQ(v2.type, "MatMul");
    EXPECT_TRUE(v2.boolAttr(kTbeKernelAttr, false));
    EXPECT_TRUE(v2.boolAttr("transpose_a", false));
    const OpInstance v3 = replayOp(row("MatMulV3", "32,4096;32,9216", "FLOAT;FLOAT", "ND;ND", "4096,9216", "FLOAT", "ND"));
    EXPECT_FALSE(v3.boolAttr(kTbeKernelAttr, false));
    const OpInstance nz = replayOp(row("MatMul", "256,2,16,16;256,2,16,16", "FLOAT16;FLOAT16", "FRACTAL_NZ;FRACTAL_NZ",
                                       "256,256,16,16", "FLOAT16", "FRACTAL_NZ", 32));
    EXPECT_FALSE(nz.boolAttr(kTbeKernelAttr, false));
}

TEST(ReplayRules, FractalNzMatMul_LogicalShapesAndBias) {
    // 910A: x [32,9216] as NZ [576,2,16,16], W [4096,9216] as NZ [576,256,16,16] → y NZ [256,2,16,16].
    const OpInstance op = replayOp(row("MatMul", "576,2,16,16;576,256,16,16;4096", "FLOAT16;FLOAT16;FLOAT",
                                       "FRACTAL_NZ;FRACTAL_NZ;ND", "256,2,16,16", "FLOAT", "FRACTAL_NZ", 32));
    EXPECT_EQ(op.inputs[0].shape, (std::vector<std::int64_t>{32, 9216}));
    EXPECT_EQ(op.inputs[1].shape, (std::vector<std::int64_t>{4096, 9216}));
    EXPECT_EQ(op.outputs[0].shape, (std::vector<std::int64_t>{32, 4096}));
    EXPECT_TRUE(op.boolAttr("transpose_b", false));
    ASSERT_EQ(op.inputs.size(), 3u);  // bias [N]
    // The fractal formats stay: the lowering moves these tensors as they lie in GM (§50).
    EXPECT_EQ(op.inputs[0].format, TensorFormat::FractalNz);
    EXPECT_EQ(op.inputs[1].format, TensorFormat::FractalNz);
    EXPECT_EQ(op.inputs[2].format, TensorFormat::ND);
    EXPECT_EQ(op.outputs[0].format, TensorFormat::FractalNz);
}

TEST(ReplayRules, Conv2D_StridePadAndKernelFromPrivateFormats) {
    // AlexNet conv1 on 910B2: x NC1HWC0 fp32 (C0 8), weight FRACTAL_Z [C1·11·11, Co/16, 16, 8].
    const OpInstance op = replayOp(row("Conv2D", "32,1,224,224,8;121,4,16,8;64", "FLOAT;FLOAT;FLOAT",
                                       "NC1HWC0;FRACTAL_Z;NCHW", "32,8,55,55,8", "FLOAT", "NC1HWC0", 16));
    EXPECT_EQ(op.inputs[0].shape, (std::vector<std::int64_t>{32, 8, 224, 224}));  // C padded to C0
    EXPECT_EQ(op.inputs[1].shape, (std::vector<std::int64_t>{64, 8, 11, 11}));
    EXPECT_EQ(op.intsAttr("strides", {}), (std::vector<std::int64_t>{4, 4}));
    EXPECT_EQ(op.intsAttr("pads", {}), (std::vector<std::int64_t>{2, 2, 2, 2}));
    EXPECT_EQ(op.intAttr(kConvOutputC0Attr, 0), 8);  // y stored NC1HWC0 as recorded (§133f)
    EXPECT_EQ(op.outputs[0].format, TensorFormat::NCHW);  // its logical NCHW for the functional data
    const OpInstance same = replayOp(row("Conv2D", "32,24,13,13,8;216,24,16,8;384", "FLOAT;FLOAT;FLOAT",
                                         "NC1HWC0;FRACTAL_Z;NCHW", "32,48,13,13,8", "FLOAT", "NC1HWC0", 16));
    EXPECT_EQ(same.intsAttr("strides", {}), (std::vector<std::int64_t>{1, 1}));
    EXPECT_EQ(same.intsAttr("pads", {}), (std::vector<std::int64_t>{1, 1, 1, 1}));
    const OpInstance dw = replayOp(row("Conv2DBackpropFilter", "32,24,13,13,8;4;32,48,13,13,8", "FLOAT;INT32;FLOAT",
                                       "NC1HWC0;NCHW;NC1HWC0", "216,24,16,8", "FLOAT", "FRACTAL_Z", 24));
    EXPECT_EQ(dw.intsAttr("filter_size", {}), (std::vector<std::int64_t>{384, 192, 3, 3}));
    EXPECT_EQ(dw.intAttr(kConvOutputC0Attr, 0), 0);  // dw is FRACTAL_Z, not 5HD
    const OpInstance dx = replayOp(row("Conv2DBackpropInput", "4;216,24,16,8;32,48,13,13,8", "INT32;FLOAT;FLOAT",
                                       "NCHW;FRACTAL_Z;NC1HWC0", "32,24,13,13,8", "FLOAT", "NC1HWC0", 24));
    EXPECT_EQ(dx.intAttr(kConvOutputC0Attr, 0), 8);
}

TEST(ReplayRules, ReduceAxesTransposePermAndCastDtype) {
    const OpInstance sum = replayOp(row("ReduceSum", "32,384,169;2", "FLOAT;INT64", "ND;ND", "384", "FLOAT", "ND"));
    EXPECT_EQ(sum.intsAttr("axes", {}), (std::vector<std::int64_t>{0, 2}));
    EXPECT_FALSE(sum.boolAttr("keep_dims", true));
    ASSERT_EQ(sum.inputs.size(), 1u);  // the axes tensor is not an input of the catalog op
    const OpInstance keep = replayOp(row("ReduceSum", "32,1000;1", "FLOAT;INT64", "ND;ND", "1,1000", "FLOAT", "ND"));
    EXPECT_EQ(keep.intsAttr("axes", {}), (std::vector<std::int64_t>{0}));
    EXPECT_TRUE(keep.boolAttr("keep_dims", false));
    const OpInstance all = replayOp(row("ReduceSum", "4096;1", "FLOAT;INT64", "ND;ND", "", "FLOAT", "ND"));
    EXPECT_EQ(all.intsAttr("axes", {}), (std::vector<std::int64_t>{0}));
    const OpInstance t = replayOp(row("Transpose", "32,256,1,6,6;5", "FLOAT;INT64", "FORMAT_ND;FORMAT_ND", "32,1,6,6,256", "FLOAT", "FORMAT_ND"));
    EXPECT_EQ(t.intsAttr("perm", {}), (std::vector<std::int64_t>{0, 2, 3, 4, 1}));
    const OpInstance cast = replayOp(row("Cast", "77791232", "FLOAT", "ND", "77791232", "DT_BF16", "ND"));
    EXPECT_EQ(cast.stringAttr("dst_type", ""), "bf16");
    const OpInstance td = replayOp(row("TransData", "32,8,55,55,8", "FLOAT", "NC1HWC0", "32,64,55,55", "FLOAT", "NCHW"));
    EXPECT_EQ(td.inputs[0].format, TensorFormat::NC1HWC0);
    EXPECT_EQ(td.inputs[0].shape, (std::vector<std::int64_t>{32, 64, 55, 55}));
    EXPECT_EQ(td.stringAttr("dst_format", ""), "NCHW");
    EXPECT_EQ(td.intAttr("c0", 0), 8);  // the NC1HWC0 side's C0 as recorded
    const OpInstance wide = replayOp(row("TransData", "32,64,55,55", "FLOAT", "NCHW", "32,4,55,55,16", "FLOAT", "NC1HWC0:1"));
    EXPECT_EQ(wide.intAttr("c0", 0), 16);  // the MaxPool kernels' fp32 NC1HWC0:1: 16 channels a cell
    const OpInstance fz = replayOp(row("TransData", "256,384,3,3", "FLOAT", "NCHW", "432,16,16,8", "FLOAT", "FRACTAL_Z", 43));
    EXPECT_EQ(fz.intAttr("c0", 0), 0);  // no NC1HWC0 side
}

TEST(ReplayRules, UnexpressibleRowsSayWhy) {
    EXPECT_THROW(replayOp(row("IndexPutV2", "64,2048", "DT_BF16", "ND", "64,2048", "DT_BF16", "ND")), UnreplayableKernel);
    EXPECT_THROW(replayOp(row("Add", "4,4;4,4", "DOUBLE;DOUBLE", "ND;ND", "4,4", "DOUBLE", "ND")), UnreplayableKernel);
    try {
        replayOp(row("MatMulV2", "4,8;9,5", "FLOAT;FLOAT", "ND;ND", "4,5", "FLOAT", "ND"));
        FAIL();
    } catch (const UnreplayableKernel& e) {
        EXPECT_NE(std::string(e.what()).find("no transpose of 4,8 x 9,5 gives 4,5"), std::string::npos);
    }
    EXPECT_EQ(familyOf("MatMulV3"), "MatMul");
    EXPECT_EQ(familyOf("DSAGenBitMask"), "DSAGenBitMask");  // no rule: its own family
}

TEST(ReplayStatistics, MedianGeomeanBandAndPipeErrors) {
    EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 2.0, 3.0}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0.0);
    EXPECT_NEAR(geometricMean({0.5, 2.0}), 1.0, 1e-12);
    const FidelityStats s = fidelityStats({
        {10.0, 10.0, {{"aic_mac_ratio", 0.5}}, {{"aic_mac_ratio", 0.7}}},  // ratio 1.0
        {10.0, 5.0, {{"aic_mac_ratio", 0.5}}, {{"aic_mac_ratio", 0.4}}},   // 0.5
        {10.0, 12.0, {{"aiv_vec_ratio", 0.2}}, {}},                         // 1.2: on the band edge
        {10.0, 40.0, {}, {}},                                               // 4.0
    });
    EXPECT_EQ(s.kernels, 4u);
    EXPECT_NEAR(s.medianAbsError, 0.35, 1e-12);  // errors 0, 0.5, 0.2, 3.0
    EXPECT_NEAR(s.geomeanRatio, std::pow(1.0 * 0.5 * 1.2 * 4.0, 0.25), 1e-12);
    EXPECT_DOUBLE_EQ(s.withinBandShare, 0.5);
    EXPECT_NEAR(s.meanAbsPipeError.at("aic_mac_ratio"), 0.15, 1e-12);
    EXPECT_EQ(s.meanAbsPipeError.count("aiv_vec_ratio"), 0u);  // simulated side did not report it
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

// The Qwen3 sample's attention rows (SBH layout, 16 q heads over 8 KV heads, causal mask).
TEST(ReplayRules, FlashAttention_SbhLayoutHeadsFromSoftmaxTensorsAndCausalMask) {
    RealKernel fwd;
    fwd.type = "FlashAttentionScore";
    fwd.acceleratorCore = "MIX_AIC";
    fwd.blockDim = 20;
    fwd.inputShapes = "4096,1,2048;4096,1,1024;4096,1,1024;;;;2048,2048;;;;;;;;";
    fwd.inputDtypes = "DT_BF16;DT_BF16;DT_BF16;DT_BF16;UINT8;DT_BF16;BOOL;INT64;INT64;INT64;INT64;INT64;FLOAT;FLOAT;FLOAT";
    fwd.inputFormats = "NCL;NCL;NCL;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND";
    fwd.outputShapes = "1,16,4096,8;1,16,4096,8;;4096,1,2048";
    fwd.outputDtypes = "FLOAT;FLOAT;DT_BF16;DT_BF16";
    fwd.outputFormats = "ND;ND;ND;ND";
    const OpInstance f = replayOp(fwd);
    EXPECT_EQ(f.inputs[0].shape, (std::vector<std::int64_t>{1, 16, 4096, 128}));
    EXPECT_EQ(f.inputs[1].shape, (std::vector<std::int64_t>{1, 8, 4096, 128}));
    EXPECT_TRUE(f.boolAttr("causal", false));

    RealKernel grad = fwd;
    grad.type = "FlashAttentionScoreGrad";
    grad.inputShapes = "4096,1,2048;4096,1,1024;4096,1,1024;4096,1,2048;2048,2048;1,16,4096,8;1,16,4096,8;;4096,1,2048;;;;;;";
    grad.inputDtypes = "DT_BF16;DT_BF16;DT_BF16;DT_BF16;BOOL;FLOAT;FLOAT;DT_BF16;DT_BF16;INT64;FLOAT;FLOAT;FLOAT;FLOAT;FLOAT";
    grad.inputFormats = "ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND;ND";
    grad.outputShapes = "4096,1,2048;4096,1,1024;4096,1,1024;;;";
    grad.outputDtypes = "DT_BF16;DT_BF16;DT_BF16;DT_BF16;DT_BF16;DT_BF16";
    grad.outputFormats = "ND;ND;ND;ND;ND;ND";
    const OpInstance g = replayOp(grad);
    ASSERT_EQ(g.inputs.size(), 7u);  // q, k, v, dy, attention_in, softmax_max, softmax_sum
    EXPECT_EQ(g.inputs[4].name, "attention_in");
    EXPECT_EQ(g.inputs[5].shape, (std::vector<std::int64_t>{1, 16, 4096, 8}));
    ASSERT_EQ(g.outputs.size(), 3u);
    EXPECT_EQ(g.outputs[1].shape, (std::vector<std::int64_t>{1, 8, 4096, 128}));
    EXPECT_TRUE(g.boolAttr("causal", false));
}

}  // namespace
}  // namespace ascendsim
