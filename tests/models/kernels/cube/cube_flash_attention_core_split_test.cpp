// Which tiles each core group of a causal FlashAttentionScore runs: CANN's sparse split
// (attention_core_split.h, docs/fidelity.md §52) against the even split of tile counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "models/kernels/attention/attention_core_split.h"
#include "models/kernels/attention/flash_attention_plan.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

std::uint64_t runLoad(const std::vector<std::uint64_t>& loads, std::uint64_t first, std::uint64_t end) {
    return std::accumulate(loads.begin() + static_cast<std::ptrdiff_t>(first), loads.begin() + static_cast<std::ptrdiff_t>(end),
                           std::uint64_t{0});
}

std::uint64_t largestRun(const std::vector<std::uint64_t>& loads, const std::vector<std::uint64_t>& starts) {
    std::uint64_t largest = 0;
    for (std::size_t part = 0; part + 1 < starts.size(); ++part)
        largest = std::max(largest, runLoad(loads, starts[part], starts[part + 1]));
    return largest;
}

// The smallest largest-run load over every split of `loads` into at most `parts` contiguous runs
// (exhaustive dynamic programme, the reference the binary search must reach).
std::uint64_t optimalLargestRun(const std::vector<std::uint64_t>& loads, std::uint32_t parts) {
    const std::size_t n = loads.size();
    const std::uint64_t inf = ~std::uint64_t{0};
    std::vector<std::vector<std::uint64_t>> best(parts + 1, std::vector<std::uint64_t>(n + 1, inf));
    best[0][0] = 0;
    for (std::uint32_t k = 1; k <= parts; ++k) {
        best[k][0] = 0;
        for (std::size_t i = 1; i <= n; ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (best[k - 1][j] != inf) best[k][i] = std::min(best[k][i], std::max(best[k - 1][j], runLoad(loads, j, i)));
    }
    return best[parts][n];
}

// Causal self-attention, 128-row q blocks: q block i visits i + 1 KV blocks, head after head.
std::vector<std::uint64_t> causalLoads(std::uint64_t heads, std::uint64_t qBlocks) {
    std::vector<std::uint64_t> loads;
    for (std::uint64_t h = 0; h < heads; ++h)
        for (std::uint64_t i = 0; i < qBlocks; ++i) loads.push_back(i + 1);
    return loads;
}

TEST(AttentionCoreSplit, ContiguousRunsWithTheSmallestLargestLoad) {
    for (const auto& [heads, qBlocks, parts] : {std::tuple{2u, 8u, 3u}, std::tuple{3u, 7u, 5u}, std::tuple{4u, 6u, 7u}}) {
        const auto loads = causalLoads(heads, qBlocks);
        const auto starts = balancedRunStarts(loads, parts);
        ASSERT_EQ(starts.size(), parts + 1u);
        EXPECT_EQ(starts.front(), 0u);
        EXPECT_EQ(starts.back(), loads.size());
        EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
        EXPECT_EQ(largestRun(loads, starts), optimalLargestRun(loads, parts)) << heads << " heads, " << qBlocks << " q blocks";
    }
}

TEST(AttentionCoreSplit, EqualLoadsPackGreedilyAndSpareCoresGetNothing) {
    EXPECT_EQ(balancedRunStarts(std::vector<std::uint64_t>(10, 1), 4), (std::vector<std::uint64_t>{0, 3, 6, 9, 10}));
    EXPECT_EQ(balancedRunStarts({5, 1, 1}, 5), (std::vector<std::uint64_t>{0, 1, 3, 3, 3, 3}));
    EXPECT_EQ(balancedRunStarts({}, 2), (std::vector<std::uint64_t>{0, 0, 0}));
}

// KV blocks the AIVs of group `block` wait for (one S block per visited KV block).
std::uint64_t kvBlocksOfGroup(const LoweredKernel& kernel, std::uint32_t block) {
    std::uint64_t blocks = 0;
    forEachProgramInstruction(kernel, CoreKind::Vector, [&](const Instruction& i) {
        const auto* flag = std::get_if<CrossCoreFlag>(&i.operands);
        blocks += i.opcode == Opcode::CrossCoreWait && flag != nullptr && flag->flagId == kFlagScoresReady;
    }, block);
    return blocks;
}

// The Qwen3 sample's shape on 20 groups (docs/fidelity.md §52): 16 heads × 32 causal q blocks,
// 8448 KV block steps. Equal tile counts give the groups 325..507 steps; CANN's split 435 at most.
TEST(AttentionCoreSplit, CausalFlashAttentionGroupsGetBalancedKvBlockSteps) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("FlashAttentionScore", {h.tensor("q", {4096, 1, 2048}, DataType::Bf16),
                                             h.tensor("k", {4096, 1, 1024}, DataType::Bf16),
                                             h.tensor("v", {4096, 1, 1024}, DataType::Bf16)},
                     {h.tensor("out", {4096, 1, 2048}, DataType::Bf16)});
    op.attrs["causal"] = true;
    op.attrs["input_layout"] = std::string("SBH");
    op.attrs["head_num"] = std::int64_t{16};
    op.blockDim = 20;
    const LoweredKernel kernel = h.lower(op).at(0);
    std::uint64_t total = 0, largest = 0;
    for (std::uint32_t block = 0; block < 20; ++block) {
        const std::uint64_t steps = kvBlocksOfGroup(kernel, block);
        total += steps;
        largest = std::max(largest, steps);
    }
    EXPECT_EQ(total, 16u * 32u * 33u / 2u);
    EXPECT_EQ(largest, optimalLargestRun(causalLoads(16, 32), 20));
    EXPECT_EQ(largest, 435u);
}

// The gradient splits the same way (CANN's FlashAttentionScoreGrad spreads its valid (S1, S2)
// blocks evenly over the cores): on the Qwen3 shape its AIC issues five GEMMs per KV block step,
// and no group runs more than the 435 steps of the balanced split.
TEST(AttentionCoreSplit, CausalFlashAttentionGradGroupsGetBalancedKvBlockSteps) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("FlashAttentionScoreGrad",
                     {h.tensor("q", {1, 16, 4096, 128}, DataType::Bf16), h.tensor("k", {1, 8, 4096, 128}, DataType::Bf16),
                      h.tensor("v", {1, 8, 4096, 128}, DataType::Bf16), h.tensor("dy", {1, 16, 4096, 128}, DataType::Bf16),
                      h.tensor("o", {1, 16, 4096, 128}, DataType::Bf16), h.tensor("max", {1, 16, 4096, 8}, DataType::Fp32),
                      h.tensor("sum", {1, 16, 4096, 8}, DataType::Fp32)},
                     {h.tensor("dq", {1, 16, 4096, 128}, DataType::Bf16), h.tensor("dk", {1, 8, 4096, 128}, DataType::Bf16),
                      h.tensor("dv", {1, 8, 4096, 128}, DataType::Bf16)});
    op.attrs["causal"] = true;
    op.blockDim = 20;
    const LoweredKernel kernel = h.lower(op).at(0);
    std::uint64_t total = 0, largest = 0;
    for (std::uint32_t block = 0; block < 20; ++block) {
        std::uint64_t mmads = 0;
        forEachProgramInstruction(kernel, CoreKind::Cube, [&](const Instruction& i) { mmads += i.opcode == Opcode::Mmad; },
                                  block);
        EXPECT_EQ(mmads % 5, 0u);
        total += mmads / 5;
        largest = std::max(largest, mmads / 5);
    }
    EXPECT_EQ(total, 16u * 32u * 33u / 2u);
    EXPECT_EQ(largest, 435u);
}

}  // namespace
}  // namespace ascendsim::test
