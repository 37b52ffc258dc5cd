// Megatron-LM's process groups from a `parallel:` block: members in its rank order and torch's
// group numbering, checked against the real samples' parallel_group_info.
#include <gtest/gtest.h>

#include <map>

#include "sim/workload/parallel/straggler_options.h"
#include "sim/workload/parallel/parallel_layout.h"

namespace ascendsim {
namespace {

std::map<std::string, ParallelGroup> byName(const ParallelLayout& layout, std::uint32_t rank) {
    std::map<std::string, ParallelGroup> groups;
    for (const ParallelGroup& g : parallelGroupsOf(layout, rank)) groups[g.name] = g;
    return groups;
}

ParallelLayout layout(std::uint32_t tp, std::uint32_t pp, std::uint32_t dp, std::uint32_t ep = 1) {
    ParallelLayout l;
    l.tp = tp;
    l.pp = pp;
    l.dp = dp;
    l.ep = ep;
    l.declared = true;
    return l;
}

using Ranks = std::vector<std::uint32_t>;

// msinsight/91d1c4ec profiler_metadata.json: TP2 PP2 DP2, rank 0.
TEST(ParallelLayout, MembersFollowMegatronsRankOrder) {
    const auto groups = byName(layout(2, 2, 2), 0);
    EXPECT_EQ(groups.at("default_group").globalRanks, (Ranks{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(groups.at("tp").globalRanks, (Ranks{0, 1}));
    EXPECT_EQ(groups.at("dp").globalRanks, (Ranks{0, 2}));
    EXPECT_EQ(groups.at("pp").globalRanks, (Ranks{0, 4}));
    EXPECT_EQ(groups.at("mp").globalRanks, (Ranks{0, 1, 4, 5}));
    EXPECT_EQ(groups.at("embd").globalRanks, (Ranks{0, 4}));
}

// msinsight/ef63bc64 rank_{1,2}_ascend_pt/profiler_metadata.json: TP1 PP2 DP2.
TEST(ParallelLayout, GroupKeysAreTorchsCreationNumbers) {
    const ParallelLayout l = layout(1, 2, 2);
    const auto rank2 = byName(l, 2);
    EXPECT_EQ(rank2.at("default_group").key, "group_name_0");
    EXPECT_EQ(rank2.at("dp").key, "group_name_3");
    EXPECT_EQ(rank2.at("dp_cp").key, "group_name_7");
    EXPECT_EQ(rank2.at("mp").key, "group_name_13");
    EXPECT_EQ(rank2.at("tp").key, "group_name_17");
    EXPECT_EQ(rank2.at("pp").key, "group_name_19");
    EXPECT_EQ(rank2.at("embd").key, "group_name_20");
    EXPECT_EQ(rank2.at("pp").groupRank, 1u);
    EXPECT_EQ(rank2.at("dp").groupRank, 0u);
    const auto rank1 = byName(l, 1);
    EXPECT_EQ(rank1.at("mp").key, "group_name_14");
    EXPECT_EQ(rank1.at("tp").key, "group_name_16");
    EXPECT_EQ(rank1.at("pp").key, "group_name_22");
    EXPECT_EQ(rank1.at("embd").key, "group_name_23");
    EXPECT_EQ(rank1.at("pp").globalRanks, (Ranks{1, 3}));
}

TEST(ParallelLayout, ExpertGroupsSplitEachDataParallelGroup) {
    const ParallelLayout l = layout(2, 1, 4, 2);
    EXPECT_EQ(groupMembers(l, "dp", 3), (Ranks{1, 3, 5, 7}));
    EXPECT_EQ(groupMembers(l, "ep", 3), (Ranks{1, 3}));
    EXPECT_EQ(groupMembers(l, "ep", 5), (Ranks{5, 7}));
    EXPECT_EQ(groupMembers(l, "dp_modulo_exp", 3), (Ranks{3, 7}));
}

TEST(ParallelLayout, CollectiveGroupsOfOneKindShareAKeyAndOthersDoNot) {
    const ParallelLayout l = layout(2, 1, 2);
    EXPECT_EQ(collectiveGroupKey(l, "tp", 0), collectiveGroupKey(l, "tp", 1));
    EXPECT_NE(collectiveGroupKey(l, "tp", 0), collectiveGroupKey(l, "tp", 2));
    EXPECT_EQ(collectiveGroupKey(l, "dp", 0), collectiveGroupKey(l, "dp", 2));
    EXPECT_EQ(collectiveGroupKey(l, "world", 3), "group_name_0");
    EXPECT_EQ(collectiveGroupKey(ParallelLayout{}, "world", 3), "hccl_world_group");
    EXPECT_NE(communicatorHash(collectiveGroupKey(l, "tp", 0)), communicatorHash(collectiveGroupKey(l, "dp", 0)));
    EXPECT_THROW(groupMembers(l, "tp", 4), std::invalid_argument);
}

// HCCL's hash of the process-group name, as the real ef63bc64 communication.json keys show it
// (and msprof-analyze's double_hash maps back to parallel_group_info).
TEST(ParallelLayout, CommunicatorNamesAreHcclsHashOfTheGroupName) {
    EXPECT_EQ(communicatorHash("group_name_0"), "5862276093215481612");
    EXPECT_EQ(communicatorHash("group_name_5"), "5862276114690318097");
    EXPECT_EQ(communicatorHash("group_name_19"), "3985310405473756128");
    EXPECT_EQ(collectiveGroupKey(layout(1, 2, 2), "dp", 0), "group_name_5");
}

TEST(Stragglers, SlowRanksAndJitterParseOrSayWhatIsWrong) {
    StragglerOptions s;
    parseSlowRanks("3:1.2,5:2", s);
    EXPECT_DOUBLE_EQ(s.slowRanks.at(3), 1.2);
    EXPECT_DOUBLE_EQ(s.slowRanks.at(5), 2.0);
    EXPECT_THROW(parseSlowRanks("3", s), std::invalid_argument);
    EXPECT_THROW(parseSlowRanks("x:1.2", s), std::invalid_argument);
    EXPECT_THROW(parseSlowRanks("3:0.5", s), std::invalid_argument);
    EXPECT_DOUBLE_EQ(parseHostJitter("200"), 200.0);
    EXPECT_THROW(parseHostJitter("-1"), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
