// fp32 sums into an atomically cleaned output (the 910A's ReduceSumD after its atomic_memset,
// docs/fidelity.md §54): blocks split the leading reduced axis and add their partial sums into y.
#include <gtest/gtest.h>

#include <set>

#include "models/kernels/cube/matmul/matmul_split_k.h"
#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct ReduceCase {
    std::vector<std::int64_t> shape, axes;
    std::int64_t kept;                 // y's element count
    std::size_t leading = 1, tail = 1;  // R1 and R2 of the [R1, A, R2] view
};

std::vector<double> sumOverLeadingAndTrailing(const std::vector<float>& x, const ReduceCase& c, bool mean) {
    const auto kept = static_cast<std::size_t>(c.kept);
    std::vector<double> out(kept, 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) out[i / c.tail % kept] += x[i];
    if (mean)
        for (double& v : out) v /= static_cast<double>(c.leading * c.tail);
    return out;
}

OpInstance reduceOp(CubeOpHarness& h, const ReduceCase& c, const std::string& type, bool cleaned) {
    auto op = makeOp(type, {h.tensor("x", c.shape, DataType::Fp32)}, {h.tensor("y", {c.kept}, DataType::Fp32)});
    op.attrs["axes"] = c.axes;
    if (cleaned) op.attrs[kAccumulatesAtomicallyAttr] = true;
    return op;
}

const std::vector<ReduceCase>& cases() {
    static const std::vector<ReduceCase> all{{{32, 1000}, {0}, 1000, 32, 1},       // a bias gradient, [R, A]
                                             {{6, 5, 300}, {0, 2}, 5, 6, 300},     // [R1, A, R2]
                                             {{2, 24, 3025}, {0, 2}, 24, 2, 3025},  // A in several chunks
                                             {{3, 40, 1}, {0}, 40, 3, 1}};
    return all;
}

TEST(VectorReduceAtomic, SumsIntoTheCleanedOutputForEveryBlockDim) {
    const ChipConfig chip = ascend910B1();
    for (const ReduceCase& c : cases())
        for (const std::string type : {"ReduceSum", "ReduceMean"})
            for (const auto& blockDim : blockDimSweep()) {
                CubeOpHarness h(chip);
                auto op = reduceOp(h, c, type, true);
                op.blockDim = blockDim;
                const auto in = h.fillRandom(op.inputs[0], -2, 2);
                h.fill(op.outputs[0], 0.0f);  // the atomic clean
                h.run(op);
                expectNear(h.read(op.outputs[0]), sumOverLeadingAndTrailing(in, c, type == "ReduceMean"), 1e-4, 1e-5,
                           type + " " + std::to_string(c.shape[0]) + ", " + blockDimName(blockDim));
            }
}

// What every block of a lowered kernel moves: the x rows it loads (by leading index) and its stores.
struct BlockMoves {
    std::set<std::uint64_t> leadingIndices;
    std::uint64_t stores = 0, atomicStores = 0;
};

std::vector<BlockMoves> movesPerBlock(const LoweredKernel& kernel, std::uint64_t xAddr, std::uint64_t leadingBytes) {
    std::vector<BlockMoves> blocks(kernel.blockDim);
    for (std::uint32_t b = 0; b < kernel.blockDim; ++b) {
        auto stream = kernel.program(BlockProgramRequest{.blockIdx = b});
        std::vector<Instruction> chunk;
        while (stream->next(chunk)) {
            for (const auto& instruction : chunk) {
                const auto* move = std::get_if<DataMove>(&instruction.operands);
                if (move == nullptr) continue;
                if (move->src == MemSpace::GM) blocks[b].leadingIndices.insert((move->srcAddr - xAddr) / leadingBytes);
                if (move->dst == MemSpace::GM) {
                    ++blocks[b].stores;
                    if (move->atomicAdd) ++blocks[b].atomicStores;
                }
            }
            chunk.clear();
        }
    }
    return blocks;
}

TEST(VectorReduceAtomic, EachBlockReadsItsOwnLeadingRowsWholeAndAddsThemWithAtomicStores) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    // [32, 1000] over axis 0 at 32 blocks: block b reads row b (all 1000 columns, one move) and adds it
    // into y with one atomic store, as the 910A's ReduceSumD [32,1000] (MTE2 ≈ MTE3 ≈ one row a block).
    const ReduceCase rows = cases()[0];
    auto op = reduceOp(h, rows, "ReduceSum", true);
    op.blockDim = 32;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    const auto blocks = movesPerBlock(kernels[0], op.inputs[0].deviceAddr, 1000 * 4);
    for (std::uint32_t b = 0; b < 32; ++b) {
        EXPECT_EQ(blocks[b].leadingIndices, std::set<std::uint64_t>{b}) << "block " << b;
        EXPECT_EQ(blocks[b].stores, 1u) << "block " << b;
        EXPECT_EQ(blocks[b].atomicStores, 1u) << "block " << b;
    }
}

// Every move of every block, as text: two lowerings that move the same data the same way match.
std::vector<std::string> movesOf(const std::vector<LoweredKernel>& kernels) {
    std::vector<std::string> moves;
    for (const LoweredKernel& kernel : kernels)
        for (std::uint32_t b = 0; b < kernel.blockDim; ++b) {
            auto stream = kernel.program(BlockProgramRequest{.blockIdx = b});
            std::vector<Instruction> chunk;
            while (stream->next(chunk)) {
                for (const auto& instruction : chunk)
                    if (const auto* m = std::get_if<DataMove>(&instruction.operands))
                        moves.push_back(std::to_string(b) + ':' + std::to_string(m->srcAddr) + '>' + std::to_string(m->dstAddr) +
                                        'x' + std::to_string(m->burstCount) + '*' + std::to_string(m->burstBytes) +
                                        (m->atomicAdd ? "+" : ""));
                chunk.clear();
            }
        }
    return moves;
}

TEST(VectorReduceAtomic, OnlyFp32SumsOfALeadingReducedRunAccumulateAtomically) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto cleanChangesNothing = [&h](OpInstance op) {
        op.blockDim = 8;
        const auto plain = movesOf(h.lower(op));
        op.attrs[kAccumulatesAtomicallyAttr] = true;
        return movesOf(h.lower(op)) == plain;
    };
    EXPECT_TRUE(cleanChangesNothing(reduceOp(h, cases()[3], "ReduceMax", false)));  // a maximum has no atomic add
    auto fp16 = makeOp("ReduceSum", {h.tensor("x16", {32, 1000}, DataType::Fp16)}, {h.tensor("y16", {1000}, DataType::Fp16)});
    fp16.attrs["axes"] = std::vector<std::int64_t>{0};
    EXPECT_TRUE(cleanChangesNothing(fp16));
    auto trailing = makeOp("ReduceSum", {h.tensor("xt", {32, 1000}, DataType::Fp32)}, {h.tensor("yt", {32}, DataType::Fp32)});
    trailing.attrs["axes"] = std::vector<std::int64_t>{1};
    EXPECT_TRUE(cleanChangesNothing(trailing));  // no leading reduced run
    EXPECT_FALSE(cleanChangesNothing(reduceOp(h, cases()[0], "ReduceSum", false)));
}

}  // namespace
}  // namespace ascendsim::test
