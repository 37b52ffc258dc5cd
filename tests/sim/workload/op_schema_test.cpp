// The shape rules of docs/op-catalog.md, one rule per test.
#include "sim/workload/schema/op_schema.h"

#include <gtest/gtest.h>

#include "tests/sim/workload/op_schema_test_support.h"

namespace ascendsim {
namespace {

using namespace schema_test;  // NOLINT: the tests read as the catalog does

TEST(OpSchema, EveryCatalogTypeHasASchema) {
    for (const char* type : {"MatMul",
                             "BatchMatMul",
                             "Conv2D",
                             "Conv2DBackpropInput",
                             "Conv2DBackpropFilter",
                             "FlashAttentionScore",
                             "IncreFlashAttention",
                             "Add",
                             "Sub",
                             "Mul",
                             "RealDiv",
                             "Relu",
                             "Gelu",
                             "Swish",
                             "ReluGrad",
                             "Cast",
                             "SoftmaxV2",
                             "LayerNorm",
                             "RmsNorm",
                             "BNInfer",
                             "BNTrainingReduce",
                             "BNTrainingUpdate",
                             "BNTrainingReduceGrad",
                             "BNTrainingUpdateGrad",
                             "MaxPoolV3",
                             "MaxPoolGrad",
                             "AvgPoolV2",
                             "AdaptiveAvgPool2d",
                             "ReduceSum",
                             "ReduceMean",
                             "ReduceMax",
                             "Transpose",
                             "TransData",
                             "GatherV2",
                             "ScatterUpdate",
                             "SoftmaxCrossEntropyWithLogits",
                             "ApplyMomentum",
                             "ApplyAdamW",
                             "ApplyAdamWV2",
                             "RotaryMul",
                             "TensorMove",
                             "TopK",
                             "NonMaxSuppression",
                             "Unique",
                             "StatelessDropOutGenMask",
                             "Sort",
                             "TopKV2",
                             "TopKD",
                             "Index",
                             "IndexPutV2",
                             "NonZero",
                             "HcomAllReduce",
                             "HcomAllGather",
                             "HcomReduceScatter",
                             "HcomBroadcast",
                             "HcomReduce",
                             "HcomAllToAll",
                             "HcomAllToAllV",
                             "HcomSend",
                             "HcomReceive",
                             "HcomBatchSendRecv"}) {
        EXPECT_NE(findOpSchema(type), nullptr) << type;
    }
    EXPECT_EQ(allOpSchemas().size(), 105u);  // 53 + the transformer-sample ops (op_schema_transformer.cpp) + the CNN-training ones (op_schema_cnn_training.cpp, LogSoftmaxV2/Grad in session 9) + Sort, TopKV2, TopKD, StatelessDropOutGenMask (session 10) + Index, IndexPutV2, NonZero (session 12) + ApplyAdamWV2 (session 25)
    EXPECT_EQ(findOpSchema("Conv3D"), nullptr);
}

TEST(OpSchema, MatMulTransposesAndInt8AccumulatesInInt32) {
    auto y = infer("MatMul",
                   {tensor("a", {64, 32}, DataType::Int8), tensor("b", {16, 32}, DataType::Int8)},
                   {{"transpose_b", true}});
    EXPECT_EQ(y[0].shape, (Shape{64, 16}));
    EXPECT_EQ(y[0].dtype, DataType::Int32);
    EXPECT_EQ(problemField("MatMul", {tensor("a", {64, 32}), tensor("b", {16, 32})}), "inputs[1]");
    EXPECT_EQ(
        problemField("MatMul", {tensor("a", {64, 32}), tensor("b", {32, 16}), tensor("bias", {8})}),
        "inputs[2]");
}

// CANN's ApplyAdamWV2: var, m, v, grad of one shape and a one-element step; var, m, v out.
TEST(OpSchema, ApplyAdamWV2UpdatesVarMAndVFromGradAndAStep) {
    const auto p = [](const char* name) { return tensor(name, {128}, DataType::Fp32); };
    auto y = infer("ApplyAdamWV2", {p("var"), p("m"), p("v"), p("grad"), tensor("step", {1}, DataType::Int64)});
    ASSERT_EQ(y.size(), 3u);
    EXPECT_EQ(y[2].shape, (Shape{128}));
    EXPECT_EQ(problemField("ApplyAdamWV2", {p("var"), p("m"), p("v"), tensor("grad", {64}, DataType::Fp32),
                                            tensor("step", {1}, DataType::Int64)}),
              "inputs[3]");
    EXPECT_EQ(problemField("ApplyAdamWV2", {p("var"), p("m"), p("v"), p("grad"), tensor("step", {2}, DataType::Int64)}),
              "inputs[4]");
}

TEST(OpSchema, BatchMatMulBroadcastsBatchDimsAndA2dB) {
    auto y = infer("BatchMatMul", {tensor("a", {8, 1, 128, 64}), tensor("b", {12, 64, 32})});
    EXPECT_EQ(y[0].shape, (Shape{8, 12, 128, 32}));
    EXPECT_EQ(infer("BatchMatMul", {tensor("a", {4, 128, 64}), tensor("b", {64, 32})})[0].shape,
              (Shape{4, 128, 32}));
    EXPECT_EQ(problemField("BatchMatMul", {tensor("a", {3, 8, 4}), tensor("b", {2, 4, 8})}),
              "inputs[1]");
}

TEST(OpSchema, Conv2DOutputFollowsTheWindowRule) {
    auto y = infer("Conv2D", {tensor("x", {32, 3, 224, 224}), tensor("w", {64, 3, 7, 7})},
                   {{"strides", Shape{2, 2}}, {"pads", Shape{3, 3, 3, 3}}});
    EXPECT_EQ(y[0].shape, (Shape{32, 64, 112, 112}));
    auto dilated = infer("Conv2D", {tensor("x", {1, 8, 32, 32}), tensor("w", {8, 8, 3, 3})},
                         {{"dilations", Shape{2, 2}}});
    EXPECT_EQ(dilated[0].shape, (Shape{1, 8, 28, 28}));
    auto grouped = infer("Conv2D", {tensor("x", {1, 32, 8, 8}), tensor("w", {32, 1, 3, 3})},
                         {{"groups", std::int64_t{32}}, {"pads", Shape{1, 1, 1, 1}}});
    EXPECT_EQ(grouped[0].shape, (Shape{1, 32, 8, 8}));
    auto nhwc = infer("Conv2D", {tensor("x", {2, 16, 16, 3}, DataType::Fp16, TensorFormat::NHWC),
                                 tensor("w", {8, 3, 1, 1})});
    EXPECT_EQ(nhwc[0].shape, (Shape{2, 16, 16, 8}));
    EXPECT_EQ(problemField("Conv2D", {tensor("x", {1, 4, 8, 8}), tensor("w", {8, 3, 3, 3})}),
              "inputs[1]");
    EXPECT_EQ(problemField("Conv2D", {tensor("x", {1, 4, 2, 2}), tensor("w", {8, 4, 3, 3})}),
              "attrs.pads");
}

TEST(OpSchema, ConvolutionBackpropShapesComeFromTheSizeAttributes) {
    auto dx = infer("Conv2DBackpropInput",
                    {tensor("dy", {8, 128, 28, 28}), tensor("w", {128, 128, 3, 3})},
                    {{"input_size", Shape{8, 128, 56, 56}},
                     {"strides", Shape{2, 2}},
                     {"pads", Shape{1, 1, 1, 1}}});
    EXPECT_EQ(dx[0].shape, (Shape{8, 128, 56, 56}));
    auto dw = infer("Conv2DBackpropFilter",
                    {tensor("x", {8, 64, 56, 56}), tensor("dy", {8, 256, 56, 56})},
                    {{"filter_size", Shape{256, 64, 1, 1}}});
    EXPECT_EQ(dw[0].dtype, DataType::Fp32);
    EXPECT_EQ(problemField("Conv2DBackpropInput",
                           {tensor("dy", {8, 128, 28, 28}), tensor("w", {128, 128, 3, 3})},
                           {{"input_size", Shape{8, 128, 56, 56}}, {"pads", Shape{1, 1, 1, 1}}}),
              "inputs[0]");
}

TEST(OpSchema, AttentionKernelsCheckHeadsAndCacheLength) {
    auto out = infer("FlashAttentionScore",
                     {tensor("q", {1, 32, 128, 128}), tensor("k", {1, 32, 256, 128}),
                      tensor("v", {1, 32, 256, 128})});
    EXPECT_EQ(out[0].shape, (Shape{1, 32, 128, 128}));
    std::vector<TensorInfo> decode{tensor("q", {1, 32, 1, 128}), tensor("k", {1, 32, 64, 128}),
                                   tensor("v", {1, 32, 64, 128})};
    EXPECT_EQ(infer("IncreFlashAttention", decode, {{"kv_len", std::int64_t{64}}})[0].shape,
              (Shape{1, 32, 1, 128}));
    EXPECT_EQ(problemField("IncreFlashAttention", decode, {{"kv_len", std::int64_t{65}}}),
              "attrs.kv_len");
    // GQA: k/v heads must divide q's (32 q heads on 8 KV heads, each KV head shared by 4).
    EXPECT_EQ(infer("FlashAttentionScore", {tensor("q", {1, 32, 8, 128}), tensor("k", {1, 8, 8, 128}),
                                            tensor("v", {1, 8, 8, 128})})[0].shape,
              (Shape{1, 32, 8, 128}));
    EXPECT_EQ(problemField("FlashAttentionScore",
                           {tensor("q", {1, 32, 8, 128}), tensor("k", {1, 12, 8, 128}),
                            tensor("v", {1, 12, 8, 128})}),
              "inputs[1]");
    // SBH as the Qwen3 sample runs it: q [S,B,N·D], k/v [S,B,Nkv·D], head_num N.
    std::vector<TensorInfo> sbh{tensor("q", {4096, 1, 2048}), tensor("k", {4096, 1, 1024}), tensor("v", {4096, 1, 1024})};
    EXPECT_EQ(infer("FlashAttentionScore", sbh,
                    {{"input_layout", std::string("SBH")}, {"head_num", std::int64_t{16}}})[0].shape,
              (Shape{4096, 1, 2048}));
    EXPECT_EQ(problemField("FlashAttentionScore", sbh, {{"input_layout", std::string("SBH")}}), "attrs.input_layout");
}

TEST(OpSchema, ElementwiseBroadcastAndNormalisation) {
    EXPECT_EQ(infer("Add", {tensor("a", {8, 12, 128, 128}), tensor("m", {8, 1, 1, 128})})[0].shape,
              (Shape{8, 12, 128, 128}));
    EXPECT_EQ(problemField("Mul", {tensor("a", {4, 3}), tensor("b", {4})}), "inputs[1]");
    EXPECT_EQ(infer("Cast", {tensor("x", {4, 3})}, {{"dst_type", std::string("fp32")}})[0].dtype,
              DataType::Fp32);
    EXPECT_EQ(
        problemField("LayerNorm", {tensor("x", {4, 768}), tensor("g", {768}), tensor("b", {512})}),
        "inputs[2]");
    EXPECT_EQ(problemField("SoftmaxV2", {tensor("x", {4, 8})}, {{"axis", std::int64_t{2}}}),
              "attrs.axis");
    EXPECT_EQ(problemField("RotaryMul", {tensor("x", {1, 32, 16, 128}), tensor("c", {16, 64}),
                                         tensor("s", {16, 128})}),
              "inputs[1]");
}

TEST(OpSchema, BatchNormStatisticsArePerChannelFp32) {
    auto stats = infer("BNTrainingReduce", {tensor("x", {32, 64, 56, 56})});
    EXPECT_EQ(stats[0].shape, (Shape{64}));
    EXPECT_EQ(stats[1].dtype, DataType::Fp32);
    EXPECT_EQ(problemField("BNInfer", {tensor("x", {32, 64, 56, 56}), tensor("s", {64}),
                                       tensor("o", {64}), tensor("m", {32}), tensor("v", {64})}),
              "inputs[3]");
}

TEST(OpSchema, PoolingReductionLayoutAndLookup) {
    EXPECT_EQ(
        infer("MaxPoolV3", {tensor("x", {32, 64, 112, 112})},
              {{"ksize", Shape{3, 3}}, {"strides", Shape{2, 2}}, {"pads", Shape{1, 1, 1, 1}}})[0]
            .shape,
        (Shape{32, 64, 56, 56}));
    EXPECT_EQ(infer("AdaptiveAvgPool2d", {tensor("x", {32, 2048, 7, 7})})[0].shape,
              (Shape{32, 2048, 1, 1}));
    EXPECT_EQ(infer("ReduceSum", {tensor("x", {4, 5, 6})}, {{"axes", Shape{-1, 0}}})[0].shape,
              (Shape{5}));
    EXPECT_EQ(
        infer("ReduceMax", {tensor("x", {4, 5, 6})}, {{"axes", Shape{1}}, {"keep_dims", true}})[0]
            .shape,
        (Shape{4, 1, 6}));
    EXPECT_EQ(
        infer("Transpose", {tensor("x", {2, 3, 4, 5})}, {{"perm", Shape{0, 2, 1, 3}}})[0].shape,
        (Shape{2, 4, 3, 5}));
    EXPECT_EQ(problemField("Transpose", {tensor("x", {2, 3})}, {{"perm", Shape{0, 0}}}),
              "attrs.perm");
    auto nz =
        infer("TransData", {tensor("x", {64, 32})}, {{"dst_format", std::string("FRACTAL_NZ")}});
    EXPECT_EQ(nz[0].shape, (Shape{2, 4, 16, 16}));
    EXPECT_EQ(nz[0].format, TensorFormat::FractalNz);
    // NC1HWC0's C0 is one 32 B block, and a small C is padded to it (the AlexNet sample's fp32
    // stem TransData writes [32,1,224,224,8]).
    EXPECT_EQ(infer("TransData", {tensor("x", {32, 3, 224, 224}, DataType::Fp32)},
                    {{"dst_format", std::string("NC1HWC0")}})[0].shape,
              (Shape{32, 1, 224, 224, 8}));
    EXPECT_EQ(infer("TransData", {tensor("x", {2, 20, 5, 5})}, {{"dst_format", std::string("NC1HWC0")}})[0].shape,
              (Shape{2, 2, 5, 5, 16}));
    EXPECT_EQ(
        infer("AdaptiveAvgPool2d", {tensor("x", {2, 3, 4, 4})}, {{"output_size", Shape{6, 5}}})[0]
            .shape,
        (Shape{2, 3, 6, 5}));  // PyTorch allows outputs larger than the input
    EXPECT_EQ(problemField("AdaptiveAvgPool2d", {tensor("x", {2, 3, 4, 4})},
                           {{"output_size", Shape{0, 5}}}),
              "attrs.output_size");
    auto emb = infer("GatherV2",
                     {tensor("table", {30522, 768}), tensor("ids", {8, 128}, DataType::Int64)});
    EXPECT_EQ(emb[0].shape, (Shape{8, 128, 768}));
    auto alongAxis =
        infer("GatherV2", {tensor("table", {2, 50, 3}), tensor("ids", {4, 5}, DataType::Int32)},
              {{"axis", std::int64_t{-2}}});
    EXPECT_EQ(alongAxis[0].shape, (Shape{2, 4, 5, 3}));
    auto cache = infer("ScatterUpdate",
                       {tensor("k_cache", {1, 32, 132, 128}),
                        tensor("positions", {4}, DataType::Int64), tensor("k", {1, 32, 4, 128})},
                       {{"axis", std::int64_t{2}}});
    EXPECT_EQ(cache[0].shape, (Shape{1, 32, 132, 128}));
    EXPECT_EQ(
        problemField("ScatterUpdate",
                     {tensor("k_cache", {1, 32, 132, 128}),
                      tensor("positions", {4}, DataType::Int64), tensor("k", {1, 32, 5, 128})},
                     {{"axis", std::int64_t{2}}}),
        "inputs[2]");
    EXPECT_EQ(
        problemField("GatherV2", {tensor("table", {10, 4}), tensor("ids", {8}, DataType::Fp16)}),
        "inputs[1]");
}

TEST(OpSchema, LossOptimizerAndAiCpuOps) {
    auto loss = infer("SoftmaxCrossEntropyWithLogits", {tensor("l", {32, 1000}, DataType::Fp32),
                                                        tensor("y", {32, 1000}, DataType::Fp32)});
    EXPECT_EQ(loss[0].shape, (Shape{32}));
    EXPECT_EQ(loss[1].shape, (Shape{32, 1000}));
    EXPECT_EQ(
        problemField("ApplyMomentum", {tensor("var", {8, 4}), tensor("acc", {8, 4}),
                                       tensor("lr", {1}), tensor("g", {4, 8}), tensor("m", {1})}),
        "inputs[3]");
    auto top = infer("TopK", {tensor("x", {32, 1000})}, {{"k", std::int64_t{5}}});
    EXPECT_EQ(top[0].shape, (Shape{32, 5}));
    EXPECT_EQ(top[1].dtype, DataType::Int32);
    EXPECT_EQ(problemField("TopK", {tensor("x", {32, 4})}, {{"k", std::int64_t{5}}}), "attrs.k");
    EXPECT_EQ(infer("NonMaxSuppression", {tensor("b", {100, 4}), tensor("s", {100})},
                    {{"max_output_size", std::int64_t{10}}})[0]
                  .shape,
              (Shape{10}));
}

}  // namespace
}  // namespace ascendsim
