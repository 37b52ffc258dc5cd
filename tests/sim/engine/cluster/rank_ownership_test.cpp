// Which process writes which ranks under mpirun (sim/engine/cluster/rank_ownership.h): whole rank
// kinds to one process when that is cheaper than the contiguous ranges, never a process without a
// rank, rank 0 with process 0.
#include "sim/engine/cluster/rank_ownership.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

namespace ascendsim {
namespace {

// `kinds` kinds of `ranksPerKind` consecutive ranks each (pipeline stages in Megatron's order).
std::vector<std::uint32_t> stagesOf(std::uint32_t kinds, std::uint32_t ranksPerKind) {
    std::vector<std::uint32_t> kindOfRank;
    for (std::uint32_t k = 0; k < kinds; ++k) kindOfRank.insert(kindOfRank.end(), ranksPerKind, k);
    return kindOfRank;
}

std::vector<std::uint32_t> contiguousOf(std::uint32_t ranks, std::uint32_t processes) {
    // Process p writes [p*R/N, (p+1)*R/N).
    std::vector<std::uint32_t> plan;
    for (std::uint32_t p = 0; p < processes; ++p)
        while (plan.size() < std::uint64_t{ranks} * (p + 1) / processes) plan.push_back(p);
    return plan;
}

// The processes that write a rank of each kind.
std::vector<std::set<std::uint32_t>> writersOfKinds(const std::vector<std::uint32_t>& plan,
                                                    const std::vector<std::uint32_t>& kindOfRank, std::size_t kinds) {
    std::vector<std::set<std::uint32_t>> writers(kinds);
    for (std::size_t r = 0; r < plan.size(); ++r) writers[kindOfRank[r]].insert(plan[r]);
    return writers;
}

TEST(RankOwnership, EqualStagesKeepTheContiguousRanges) {
    const auto kindOfRank = stagesOf(4, 8);
    const std::vector<RankKindCost> kinds(4, RankKindCost{400, 10});
    EXPECT_EQ(planRankOwnership(kindOfRank, kinds, 2), contiguousOf(32, 2));
}

TEST(RankOwnership, TwoCostlyStagesGoToDifferentProcesses) {
    // Stages 0 and 1 cost ten times stages 2 and 3: the ranges would give process 0 both.
    const auto kindOfRank = stagesOf(4, 8);
    const std::vector<RankKindCost> kinds = {{1000, 10}, {1000, 10}, {100, 10}, {100, 10}};
    const auto plan = planRankOwnership(kindOfRank, kinds, 2);
    EXPECT_EQ(ownershipCost(contiguousOf(32, 2), kindOfRank, kinds, 2), 2000u + 160u);
    EXPECT_EQ(ownershipCost(plan, kindOfRank, kinds, 2), 1100u + 160u);
    const auto writers = writersOfKinds(plan, kindOfRank, 4);
    for (const auto& w : writers) EXPECT_EQ(w.size(), 1u);  // each kind whole, simulated once
    EXPECT_EQ(*writers[0].begin(), 0u);                      // rank 0 stays with process 0
    EXPECT_NE(*writers[0].begin(), *writers[1].begin());
    EXPECT_NE(*writers[2].begin(), *writers[3].begin());
}

TEST(RankOwnership, WritingCountsAsMuchAsSimulating) {
    // Two kinds of equal simulation, one of 30 ranks and one of 2 ranks, three processes: by kind
    // one process would write 30 directories; the ranges split them and simulate a kind twice.
    std::vector<std::uint32_t> kindOfRank(30, 0);
    kindOfRank.push_back(1);
    kindOfRank.push_back(1);
    const std::vector<RankKindCost> kinds = {{100, 50}, {100, 50}};
    EXPECT_EQ(planRankOwnership(kindOfRank, kinds, 3), contiguousOf(32, 3));  // fewer kinds than processes
    const auto plan = planRankOwnership(kindOfRank, kinds, 2);
    // By kind: 100 + 30 x 50; the ranges: 100 + 16 x 50 on process 0, 200 + 16 x 50 on process 1.
    EXPECT_EQ(plan, contiguousOf(32, 2));
    EXPECT_EQ(ownershipCost(plan, kindOfRank, kinds, 2), 200u + 800u);
}

TEST(RankOwnership, ASlowRankOfItsOwnIsPlacedAndEveryProcessWrites) {
    // Stage 0 with one slow rank (kind 1, rank 3), four stages of 8 ranks, three processes; the
    // simulation dominates: the kinds spread 2-2-1 instead of the ranges' 3-2-2 simulations.
    std::vector<std::uint32_t> kindOfRank = {0, 0, 0, 1, 0, 0, 0, 0};
    for (std::uint32_t k = 2; k <= 4; ++k) kindOfRank.insert(kindOfRank.end(), 8, k);
    const std::vector<RankKindCost> kinds(5, RankKindCost{1000, 1});
    const auto plan = planRankOwnership(kindOfRank, kinds, 3);
    EXPECT_LT(ownershipCost(plan, kindOfRank, kinds, 3), ownershipCost(contiguousOf(32, 3), kindOfRank, kinds, 3));
    EXPECT_EQ(plan[0], 0u);
    const std::set<std::uint32_t> processes(plan.begin(), plan.end());
    EXPECT_EQ(processes, (std::set<std::uint32_t>{0, 1, 2}));
    for (const auto& w : writersOfKinds(plan, kindOfRank, 5)) EXPECT_EQ(w.size(), 1u);
}

TEST(RankOwnership, ManyKindsKeepTheRangesAndBadCountsThrow) {
    // Host jitter gives every rank its own kind: too many partitions to search.
    std::vector<std::uint32_t> kindOfRank;
    std::vector<RankKindCost> kinds;
    for (std::uint32_t r = 0; r < 16; ++r) {
        kindOfRank.push_back(r);
        kinds.push_back({r == 0 ? 5000u : 10u, 1});
    }
    EXPECT_EQ(planRankOwnership(kindOfRank, kinds, 2), contiguousOf(16, 2));
    EXPECT_THROW(planRankOwnership(stagesOf(1, 2), {RankKindCost{}}, 3), std::invalid_argument);
    EXPECT_THROW(planRankOwnership({0, 2}, {RankKindCost{}, RankKindCost{}}, 1), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
