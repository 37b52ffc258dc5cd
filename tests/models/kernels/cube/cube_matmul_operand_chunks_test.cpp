// CANN's MatMulV3 tiling gives each operand its own L1 chunk depth (CalL1Tiling: half of L1 per
// operand in two slots; docs/fidelity.md §38): for its 128×256 bf16 base block A chunks are 512
// deep and B chunks 256 (128 KiB each), for 256×128 the other way round. The model loads the
// deeper operand once per two pipeline chunks into slots of its own.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "models/kernels/cube/matmul/matmul_cann_base_block.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

MatmulProblem bf16Gemm(std::uint64_t m, std::uint64_t n, std::uint64_t k) {
    MatmulProblem p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.inputType = p.mmadType = DataType::Bf16;
    p.outputType = DataType::Bf16;
    return p;
}

MatmulTiling block(std::uint32_t m, std::uint32_t n) {
    MatmulTiling t;
    t.baseM = m;
    t.baseN = n;
    t.baseK = 64;
    return t;
}

TEST(CubeMatMulOperandChunks, CannsDepthsHalveL1PerOperand) {
    const auto chip = ascend910B1();
    auto p = bf16Gemm(4096, 4096, 4096);
    const auto wideN = cannChunkDepths(chip, p, block(128, 256));
    EXPECT_EQ(wideN.a, 512u);  // stepKa 8
    EXPECT_EQ(wideN.b, 256u);  // stepKb 4
    const auto wideM = cannChunkDepths(chip, p, block(256, 128));
    EXPECT_EQ(wideM.a, 256u);
    EXPECT_EQ(wideM.b, 512u);
    // A bias table's 1 KiB no longer fits beside two full halves: the operand with fewer rows halves.
    p.hasBias = true;
    const auto withBias = cannChunkDepths(chip, p, block(128, 256));
    EXPECT_EQ(withBias.a, 256u);
    EXPECT_EQ(withBias.b, 256u);
    // Never deeper than K (rounded up to baseK).
    p.hasBias = false;
    p.k = 300;
    const auto shallowK = cannChunkDepths(chip, p, block(128, 256));
    EXPECT_EQ(shallowK.a, 320u);
    EXPECT_EQ(shallowK.b, 256u);
}

// GM→L1 loads of block 0's first tile, by tensor: bytes of each load, in issue order. Every load
// of the tile is issued before the first mmad of its last-but-one 256-deep chunk (4 steps of 64;
// each chunk's loads are preloaded one chunk ahead), and the next tile's before its last chunk.
std::map<std::string, std::vector<std::uint64_t>> firstTileLoads(const LoweredKernel& kernel, const TensorInfo& a,
                                                                 const TensorInfo& b, std::size_t mmadsPerTile) {
    std::map<std::string, std::vector<std::uint64_t>> loads;
    std::size_t mmads = 0;
    for (const auto& i : blockProgram(kernel, 0)) {
        if (i.opcode == Opcode::Mmad && ++mmads == mmadsPerTile - 7) break;
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        const bool fromA = move->srcAddr >= a.deviceAddr && move->srcAddr < a.deviceAddr + a.bytes();
        const bool fromB = move->srcAddr >= b.deviceAddr && move->srcAddr < b.deviceAddr + b.bytes();
        loads[fromA ? "a" : (fromB ? "b" : "other")].push_back(move->totalBytes());
    }
    return loads;
}

// The Qwen3 GEMM shapes (rank 0, 20 AIC): y = x · wᵀ. K = 1024 with N = 4096 takes 128×256 blocks:
// two 128 KiB A chunks and four 128 KiB B chunks per tile (before: four 320-deep chunks of A + B,
// the last 64 deep). K = 2048 with N = 1024 takes 256×128: eight A chunks of 256, four B of 512.
TEST(CubeMatMulOperandChunks, QwenGemmsLoad128KiBChunksOfEachOperand) {
    auto chip = ascend910B1();
    chip.aiCoreCount = 20;
    CubeOpHarness h(chip, 1 << 20);  // only lowering
    const auto loadsOf = [&h](std::int64_t m, std::int64_t n, std::int64_t k, std::size_t mmadsPerTile) {
        auto a = h.tensor("a", {m, k}, DataType::Bf16);
        auto b = h.tensor("b", {n, k}, DataType::Bf16);
        auto op = makeOp("MatMul", {a, b}, {h.tensor("y", {m, n}, DataType::Bf16)});
        op.attrs["transpose_b"] = true;
        return firstTileLoads(h.lower(op).at(0), a, b, mmadsPerTile);
    };
    const std::vector<std::uint64_t> two(2, 128u << 10), four(4, 128u << 10), eight(8, 128u << 10);
    auto wideN = loadsOf(4096, 4096, 1024, 1024 / 64);
    EXPECT_EQ(wideN["a"], two);
    EXPECT_EQ(wideN["b"], four);
    EXPECT_TRUE(wideN["other"].empty());
    auto wideM = loadsOf(4096, 1024, 2048, 2048 / 64);
    EXPECT_EQ(wideM["a"], eight);
    EXPECT_EQ(wideM["b"], four);
}

// The deeper operand is loaded on the first chunk its load spans, in slots of its own: between two
// of A's loads the pipeline consumes two B chunks, and the plan is CANN's (A and B apart in L1).
TEST(CubeMatMulOperandChunks, DeeperOperandLoadsOncePerTwoChunks) {
    auto chip = ascend910B1();
    chip.aiCoreCount = 20;
    CubeOpHarness h(chip, 1 << 20);
    auto a = h.tensor("a", {4096, 1024}, DataType::Bf16);
    auto b = h.tensor("b", {1024, 4096}, DataType::Bf16);
    auto op = makeOp("MatMul", {a, b}, {h.tensor("y", {4096, 4096}, DataType::Bf16)});
    std::string order;
    std::set<std::uint64_t> aPlaces, bPlaces;
    for (const auto& i : blockProgram(h.lower(op).at(0), 0)) {
        const auto* move = std::get_if<DataMove>(&i.operands);
        if (!move || move->src != MemSpace::GM || move->dst != MemSpace::L1) continue;
        const bool fromA = move->srcAddr >= a.deviceAddr && move->srcAddr < a.deviceAddr + a.bytes();
        order += fromA ? 'A' : 'B';
        (fromA ? aPlaces : bPlaces).insert(move->dstAddr);
    }
    ASSERT_GE(order.size(), 12u);
    EXPECT_EQ(order.substr(0, 12), "ABBABBABBABB");  // two tiles of K = 1024
    EXPECT_EQ(aPlaces.size(), 2u);
    EXPECT_EQ(bPlaces.size(), 2u);
    EXPECT_GE(*aPlaces.begin(), *bPlaces.rbegin() + (128u << 10));  // A's slots after B's
}

}  // namespace
}  // namespace ascendsim::test
