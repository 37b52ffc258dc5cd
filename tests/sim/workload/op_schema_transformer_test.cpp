// The shape rules of the transformer-sample ops (docs/op-catalog.md, "Ops of the LLM samples").
#include <gtest/gtest.h>

#include "tests/sim/workload/op_schema_test_support.h"

namespace ascendsim {
namespace {

using namespace schema_test;  // NOLINT

const DataType kBf16 = DataType::Bf16, kF32 = DataType::Fp32;

TEST(OpSchemaTransformer, FlashAttentionScoreGradTakesGqaAndReturnsGradientsShapedAsInputs) {
    const auto q = tensor("q", {1, 16, 4096, 128}, kBf16), kv = tensor("k", {1, 8, 4096, 128}, kBf16);
    const auto stats = tensor("m", {1, 16, 4096, 8}, kF32);
    const auto out = infer("FlashAttentionScoreGrad", {q, kv, kv, q, q, stats, stats});
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].shape, q.shape);
    EXPECT_EQ(out[1].shape, kv.shape);
    EXPECT_EQ(out[2].shape, kv.shape);
    EXPECT_EQ(problemField("FlashAttentionScoreGrad", {q, tensor("k", {1, 6, 4096, 128}, kBf16), kv, q, q, stats, stats}),
              "inputs[1]");
    EXPECT_EQ(problemField("FlashAttentionScoreGrad", {q, kv, kv, q, q, tensor("m", {1, 16, 4096, 8}, kBf16), stats}),
              "inputs[5]");
    EXPECT_EQ(problemField("FlashAttentionScoreGrad", {q, kv, kv, kv, q, stats, stats}), "inputs[3]");
}

TEST(OpSchemaTransformer, RmsNormGradGivesDxAndFp32Dgamma) {
    const auto x = tensor("x", {4096, 1, 1024}, kBf16);
    const auto out = infer("RmsNormGrad", {x, x, tensor("rstd", {4096, 1, 1}, kF32), tensor("g", {1024}, kBf16)});
    EXPECT_EQ(out[0].shape, x.shape);
    EXPECT_EQ(out[1].shape, Shape{1024});
    EXPECT_EQ(out[1].dtype, kF32);
    EXPECT_EQ(problemField("RmsNormGrad", {x, x, tensor("rstd", {4096, 1, 2}, kF32), tensor("g", {1024}, kBf16)}), "inputs[2]");
}

TEST(OpSchemaTransformer, SwiGluHalvesTheLastDimAndItsGradientRestoresIt) {
    const auto x = tensor("x", {4096, 6144}, kBf16);
    EXPECT_EQ(infer("SwiGlu", {x})[0].shape, (Shape{4096, 3072}));
    EXPECT_EQ(infer("SwiGluGrad", {tensor("dy", {4096, 3072}, kBf16), x})[0].shape, x.shape);
    EXPECT_EQ(problemField("SwiGlu", {tensor("x", {4, 7}, kBf16)}), "inputs[0]");
    EXPECT_EQ(problemField("SwiGluGrad", {tensor("dy", {4096, 6144}, kBf16), x}), "inputs[0]");
}

TEST(OpSchemaTransformer, SliceAndConcat) {
    const auto x = tensor("x", {4096, 8, 512}, kBf16);
    EXPECT_EQ(infer("Slice", {x}, {{"offsets", Shape{0, 0, 256}}, {"size", Shape{-1, -1, 128}}})[0].shape,
              (Shape{4096, 8, 128}));
    EXPECT_EQ(problemField("Slice", {x}, {{"offsets", Shape{0, 0, 400}}, {"size", Shape{-1, -1, 128}}}), "attrs.size");
    const auto a = tensor("a", {4096, 1, 8, 256}, kBf16), b = tensor("b", {4096, 1, 8, 128}, kBf16);
    EXPECT_EQ(infer("ConcatD", {a, b, b}, {{"concat_dim", std::int64_t{-1}}})[0].shape, (Shape{4096, 1, 8, 512}));
    EXPECT_EQ(problemField("ConcatD", {a, tensor("c", {4096, 1, 4, 128}, kBf16)}, {{"concat_dim", std::int64_t{3}}}),
              "inputs[1]");
}

TEST(OpSchemaTransformer, ComparisonsGiveBoolAndMixedFloatAddPromotes) {
    EXPECT_EQ(infer("Greater", {tensor("a", {4}, kF32), tensor("b", {1}, kF32)})[0].dtype, DataType::Bool);
    const auto sum = infer("Add", {tensor("main_grad", {1024, 3072}, kF32), tensor("grad", {1024, 3072}, kBf16)});
    EXPECT_EQ(sum[0].dtype, kF32);
    EXPECT_EQ(problemField("Add", {tensor("a", {4}, kF32), tensor("b", {4}, DataType::Int32)}), "inputs[1]");
}

TEST(OpSchemaTransformer, RotaryTablesMustBroadcastOverX) {
    const auto x = tensor("x", {4096, 1, 16, 128}, kBf16), table = tensor("cos", {4096, 1, 1, 128}, kBf16);
    EXPECT_EQ(infer("RotaryPositionEmbedding", {x, table, table})[0].shape, x.shape);
    EXPECT_EQ(problemField("RotaryPositionEmbeddingGrad", {x, tensor("cos", {2048, 1, 1, 128}, kBf16), table}), "inputs[1]");
}

TEST(OpSchemaTransformer, LpNormV2GivesOneFp32Value) {
    const auto out = infer("LpNormV2", {tensor("g", {220233216}, kF32)});
    EXPECT_EQ(out[0].shape, Shape{1});
    EXPECT_EQ(problemField("LpNormV2", {tensor("g", {64}, kF32)}, {{"p", 1.0}}), "attrs.p");
}

TEST(OpSchemaTransformer, ForeachOpsGiveOneOutputPerListEntry) {
    const auto w = tensor("w", {64, 3, 11, 11}, kF32), b = tensor("b", {64}, kF32);
    const auto out = infer("ForeachAddList", {w, b, w, b});
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].shape, w.shape);
    EXPECT_EQ(out[1].shape, b.shape);
    EXPECT_EQ(infer("ForeachMulScalar", {w, b, b}).size(), 3u);
    EXPECT_EQ(problemField("ForeachAddList", {w, b, b, w}), "inputs[2]");
    EXPECT_EQ(problemField("ForeachAddList", {w, b, w}), "inputs");
}

TEST(OpSchemaTransformer, ArgMaxWithValueDropsTheReducedAxis) {
    const auto out = infer("ArgMaxWithValue", {tensor("logits", {4096, 1, 151936}, kF32)}, {{"dimension", std::int64_t{2}}});
    EXPECT_EQ(out[0].shape, (Shape{4096, 1}));
    EXPECT_EQ(out[0].dtype, DataType::Int32);
    EXPECT_EQ(out[1].dtype, kF32);
    const auto kept = infer("ArgMaxWithValue", {tensor("x", {8, 100}, kBf16)}, {{"keep_dims", true}});
    EXPECT_EQ(kept[1].shape, (Shape{8, 1}));
    EXPECT_EQ(problemField("ArgMaxWithValue", {tensor("x", {8, 100}, kF32)}, {{"dimension", std::int64_t{0}}}), "attrs.dimension");
    EXPECT_EQ(problemField("ArgMaxWithValue", {tensor("x", {8, 100}, kF32)}, {{"dimension", std::int64_t{2}}}), "attrs.dimension");
}

TEST(OpSchemaTransformer, EmbeddingDenseGradV2GivesTheTableGradient) {
    const auto grad = tensor("grad", {1, 4096, 1024}, kF32), ids = tensor("ids", {4096}, DataType::Int32);
    const auto out = infer("EmbeddingDenseGradV2", {grad, ids, tensor("pos", {4096}, DataType::Int32)}, {{"num_weights", std::int64_t{151936}}});
    EXPECT_EQ(out[0].shape, (Shape{151936, 1024}));
    EXPECT_EQ(problemField("EmbeddingDenseGradV2", {grad, ids, tensor("pos", {4095}, DataType::Int32)}, {{"num_weights", std::int64_t{8}}}),
              "inputs[2]");
    EXPECT_EQ(problemField("EmbeddingDenseGradV2", {grad, tensor("ids", {4096}, DataType::Int64), ids}, {{"num_weights", std::int64_t{8}}}),
              "inputs[1]");
    EXPECT_EQ(problemField("EmbeddingDenseGradV2", {grad, ids, ids}, {{"num_weights", std::int64_t{8}}, {"padding_idx", std::int64_t{0}}}),
              "attrs.padding_idx");
}

TEST(OpSchemaTransformer, RangeCountsFromTheAttributes) {
    EXPECT_EQ(infer("Range", {}, {{"limit", 4096.0}})[0].shape, Shape{4096});
    EXPECT_EQ(infer("Range", {}, {{"start", 1.0}, {"limit", 2.0}, {"delta", 0.3}})[0].shape, Shape{4});
    EXPECT_EQ(problemField("Range", {}, {{"limit", 8.0}, {"delta", 0.0}}), "attrs.delta");
    EXPECT_EQ(problemField("Range", {}, {{"limit", -8.0}}), "attrs.limit");
    EXPECT_EQ(problemField("Range", {tensor("start", {4}, kF32)}, {{"limit", 8.0}}), "inputs[0]");
}

TEST(OpSchemaTransformer, LogicalOpsTakeBools) {
    const auto mask = tensor("mask", {4096, 1}, DataType::Bool);
    EXPECT_EQ(infer("LogicalOr", {mask, tensor("other", {1}, DataType::Bool)})[0].shape, (Shape{4096, 1}));
    EXPECT_EQ(infer("LogicalNot", {mask})[0].dtype, DataType::Bool);
    EXPECT_EQ(problemField("LogicalAnd", {mask, tensor("f", {4096, 1}, kF32)}), "inputs[1]");
}

TEST(OpSchemaTransformer, BroadcastToFollowsNumpyRules) {
    const std::vector<std::int64_t> to = {5, 32};
    EXPECT_EQ(infer("BroadcastTo", {tensor("x", {1, 32}, DataType::Int64)}, {{"shape", to}})[0].shape, (Shape{5, 32}));
    EXPECT_EQ(problemField("BroadcastTo", {tensor("x", {2, 32}, kF32)}, {{"shape", to}}), "attrs.shape");
    EXPECT_EQ(problemField("BroadcastTo", {tensor("x", {5, 1}, DataType::Int64)}, {{"shape", to}}), "inputs[0]");
    EXPECT_EQ(infer("BroadcastTo", {tensor("x", {1}, kF32)}, {{"shape", std::vector<std::int64_t>{4096}}})[0].shape, (Shape{4096}));
    EXPECT_EQ(problemField("BroadcastTo", {tensor("x", {2, 1}, kF32)}, {{"shape", std::vector<std::int64_t>{3, 2, 5}}}), "inputs[0]");
    EXPECT_EQ(problemField("BroadcastTo", {tensor("x", {1, 1}, kF32)}, {{"shape", std::vector<std::int64_t>{2, 5}}}), "inputs[0]");
}

TEST(OpSchemaTransformer, AdvancedIndexTakesOneIndexTensorPerDim) {
    const auto x = tensor("x", {4096, 151936}, kF32), i = tensor("i", {4096}, DataType::Int64);
    const auto y = infer("Index", {x, i, i});
    EXPECT_EQ(y[0].shape, Shape{4096});
    EXPECT_EQ(y[0].dtype, kF32);
    EXPECT_EQ(problemField("Index", {x, i}), "inputs[1]");
    EXPECT_EQ(problemField("Index", {x, i, tensor("i", {4095}, DataType::Int64)}), "inputs[2]");
    EXPECT_EQ(infer("IndexPutV2", {x, tensor("v", {4096}, kF32), i, i})[0].shape, x.shape);
    EXPECT_EQ(problemField("IndexPutV2", {x, tensor("v", {4096}, kBf16), i, i}), "inputs[1]");
    const auto nz = infer("NonZero", {tensor("m", {4, 8}, DataType::Bool)});
    EXPECT_EQ(nz[0].shape, (Shape{32, 2}));
    EXPECT_EQ(nz[0].dtype, DataType::Int64);
}

}  // namespace
}  // namespace ascendsim
