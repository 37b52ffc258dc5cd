// GatherV2 (the embedding lookup on axis 0, and along inner axes) against a reference computed
// here, with int32 and int64 indices, on the FunctionalMachine with hazard checking.
#include <gtest/gtest.h>

#include "models/isa/instruction_stream.h"
#include "models/kernels/tiling/vector_tiling.h"
#include "tests/models/kernels/index_test_support.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

void checkGather(DataType tableType, DataType indexType, std::int64_t vocab, std::int64_t embed,
                 std::vector<std::int64_t> indexShape,
                 const std::vector<std::optional<std::uint32_t>>& blockDims) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDims) {
        CubeOpHarness h(chip);
        const auto table = h.tensor("table", {vocab, embed}, tableType);
        const auto indices = h.tensor("indices", indexShape, indexType);
        auto yShape = indexShape;
        yShape.push_back(embed);
        const auto y = h.tensor("y", yShape, tableType);
        const auto rows = h.fillRandom(table, -2, 2);
        h.fill(y, 77.0f);  // every element must be overwritten
        std::vector<std::int64_t> picks(static_cast<std::size_t>(indices.elementCount()));
        std::uniform_int_distribution<std::int64_t> pick(0, vocab - 1);
        for (auto& p : picks) p = pick(h.rng());
        picks.back() = vocab - 1;  // the last row of the table is reachable
        writeIndices(h, indices, picks);
        auto op = makeOp("GatherV2", {table, indices}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected;
        for (const auto p : picks)
            for (std::int64_t e = 0; e < embed; ++e)
                expected.push_back(rows[static_cast<std::size_t>(p * embed + e)]);
        expectNear(h.read(y), expected, 0.0, 0.0,
                   std::string("GatherV2 ") + std::string(dataTypeName(indexType)) + ", " +
                       blockDimName(blockDim));
    }
}

TEST(VectorGather, GatherV2CopiesTheIndexedRowsWithInt32Indices) {
    checkGather(DataType::Fp16, DataType::Int32, 1000, 64, {4, 37}, blockDimSweep());
    checkGather(DataType::Fp32, DataType::Int32, 50, 24, {300},
                {std::nullopt, 1u, 7u});  // 96 B rows: not 32 B multiples of 64
}

TEST(VectorGather, GatherV2CopiesTheIndexedRowsWithInt64Indices) {
    checkGather(DataType::Fp16, DataType::Int64, 30522, 768, {2, 128},
                blockDimSweep());  // BERT word embeddings
    checkGather(DataType::Bf16, DataType::Int64, 9, 10, {5, 3},
                {std::nullopt, 1u, 7u});  // 20 B rows
}

// GatherV2 along `axis` of a table [outer.., V, inner..] with int32 indices.
void checkGatherAxis(const std::vector<std::int64_t>& tableShape, std::int64_t axis,
                     std::vector<std::int64_t> indexShape, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    const auto rank = static_cast<std::int64_t>(tableShape.size());
    const auto at = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < tableShape.size(); ++d) {
        if (d < at) outer *= tableShape[d];
        if (d > at) inner *= tableShape[d];
    }
    const std::int64_t vocab = tableShape[at];
    std::vector<std::int64_t> yShape(tableShape.begin(),
                                     tableShape.begin() + static_cast<std::ptrdiff_t>(at));
    yShape.insert(yShape.end(), indexShape.begin(), indexShape.end());
    yShape.insert(yShape.end(), tableShape.begin() + static_cast<std::ptrdiff_t>(at) + 1,
                  tableShape.end());
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto table = h.tensor("table", tableShape, dtype);
        const auto indices = h.tensor("indices", indexShape, DataType::Int32);
        const auto y = h.tensor("y", yShape, dtype);
        const auto values = h.fillRandom(table, -2, 2);
        h.fill(y, 77.0f);
        std::vector<std::int64_t> picks(static_cast<std::size_t>(indices.elementCount()));
        std::uniform_int_distribution<std::int64_t> pick(0, vocab - 1);
        for (auto& p : picks) p = pick(h.rng());
        picks.back() = vocab - 1;
        writeIndices(h, indices, picks);
        auto op = makeOp("GatherV2", {table, indices}, {y});
        op.attrs["axis"] = axis;
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected;
        for (std::int64_t o = 0; o < outer; ++o)
            for (const auto p : picks)
                for (std::int64_t e = 0; e < inner; ++e)
                    expected.push_back(
                        values[static_cast<std::size_t>((o * vocab + p) * inner + e)]);
        expectNear(h.read(y), expected, 0.0, 0.0,
                   "GatherV2 axis " + std::to_string(axis) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorGather, GatherV2AlongAnInnerAxisIndexesEveryOuterSlice) {
    checkGatherAxis({3, 50, 24}, 1, {7, 5}, DataType::Fp32);  // 96 B rows, 35 lookups per slice
    checkGatherAxis({6, 9, 2, 5}, -2, {4}, DataType::Fp16);   // 20 B rows, tiles cut at every slice
    checkGatherAxis({4, 10}, 1, {300},
                    DataType::Fp16);  // single elements: rows of 2 B, tiles of 256 lookups
    checkGatherAxis({2, 3, 1000, 64}, 2, {40}, DataType::Bf16);  // several outer dims
    checkGatherAxis({20, 16}, 0, {9}, DataType::Fp32);           // axis 0 spelled out
}

TEST(VectorGather, IndexOutsideTheTableIsRejectedByTheFunctionalModel) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto table = h.tensor("table", {8, 16}, DataType::Fp16);
    const auto indices = h.tensor("indices", {4}, DataType::Int32);
    const auto y = h.tensor("y", {4, 16}, DataType::Fp16);
    writeIndices(h, indices, {0, 3, 8, 1});
    EXPECT_THROW(h.run(makeOp("GatherV2", {table, indices}, {y})), std::exception);
}

TEST(VectorGather, RunsOnVectorCoresOfSplitChipsAndTheAiCoreOfCoupledChips) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        CubeOpHarness h(chip);
        const auto op = makeOp(
            "GatherV2",
            {h.tensor("t", {100, 256}, DataType::Fp16), h.tensor("i", {4096}, DataType::Int32)},
            {h.tensor("y", {4096, 256}, DataType::Fp16)});
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        EXPECT_EQ(kernels[0].type, chip.organisation == CoreOrganisation::Split
                                       ? TaskType::AiVectorCore
                                       : TaskType::AiCore);
        EXPECT_GT(kernels[0].blockDim, 1u);
        // One indexed row move per lookup of the block's share, each reading a table row.
        auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = 0});
        std::vector<Instruction> chunk;
        std::uint64_t indexedMoves = 0;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                if (instruction.opcode != Opcode::DataMove) continue;
                const auto& move = std::get<DataMove>(instruction.operands);
                if (!move.indexed()) continue;
                ++indexedMoves;
                EXPECT_EQ(move.indexedRowBytes, 512u);
                EXPECT_EQ(move.indexedRows, 100u);
            }
            chunk.clear();
        }
        EXPECT_EQ(indexedMoves, blockShare(4096, kernels[0].blockDim, 0).size());
    }
}

// Qwen3's embedding lookup as CANN 8.1's DSL gather schedule runs it (docs/fidelity.md §177): bf16
// [151936, 1024] by int64 [1, 4096] on 40 blocks. GatherDsl's tiling gives each block
// ceil(4096 / 40) = 103 lookups (the last block the 79 left); the double-buffered schedule's gather
// buffer holds 38 rows of 2 KiB (UB / 5 rounded to 32 B, halved, times 32 B / 8 B), so a block's
// 103 rows go as UB tiles of 35, 35 and 33: one indices load, one indexed row move per lookup and
// one store of the tile's rows from the buffer they were gathered into (no vector copy).
TEST(VectorGather, EmbeddingLookupRunsTheDslGatherScheduleTiling) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("GatherV2",
                     {h.tensor("table", {151936, 1024}, DataType::Bf16),
                      h.tensor("ids", {1, 4096}, DataType::Int64)},
                     {h.tensor("y", {1, 4096, 1024}, DataType::Bf16)});
    op.blockDim = 40u;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].blockDim, 40u);
    const auto blockMoves = [&](std::uint32_t block) {
        std::vector<std::uint64_t> stores;  // rows per store
        std::uint64_t rowMoves = 0, indexLoads = 0, vectorOps = 0;
        auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = block});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                if (instruction.opcode == Opcode::Vector) ++vectorOps;
                if (instruction.opcode != Opcode::DataMove) continue;
                const auto& move = std::get<DataMove>(instruction.operands);
                if (move.indexed()) ++rowMoves;
                else if (move.dst == MemSpace::GM) stores.push_back(move.totalBytes() / 2048);
                else ++indexLoads;
            }
            chunk.clear();
        }
        EXPECT_EQ(vectorOps, 0u) << "block " << block;
        EXPECT_EQ(indexLoads, stores.size()) << "block " << block;
        return std::make_pair(rowMoves, stores);
    };
    const auto [firstRows, firstStores] = blockMoves(0);
    EXPECT_EQ(firstRows, 103u);
    EXPECT_EQ(firstStores, (std::vector<std::uint64_t>{35, 35, 33}));
    const auto [lastRows, lastStores] = blockMoves(39);
    EXPECT_EQ(lastRows, 79u);
    EXPECT_EQ(lastStores, (std::vector<std::uint64_t>{35, 35, 9}));
}

}  // namespace
}  // namespace ascendsim::test
