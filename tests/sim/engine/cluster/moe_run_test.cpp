// The expert-parallel MoE layer (workloads/moe_ep.yaml: DP8 with EP8 on one server): the token
// dispatch and combine are AllToAllVs over the expert-parallel group, and the experts compute on
// the received tokens only once the dispatch has delivered them.
#include <gtest/gtest.h>

#include <set>

#include "sim/engine/cluster/cluster_run.h"
#include "sim/engine/e2e_support.h"
#include "sim/engine/ranks/rank_records.h"

namespace ascendsim::e2e {
namespace {

TEST(MoeRun, TheExpertsWaitForTheDispatchAllToAllV) {
    const ClusterResult cluster =
        runCluster(commandOptions(sourceDir() / "workloads" / "moe_ep.yaml", fs::temp_directory_path()));
    ASSERT_EQ(cluster.classOfRank.size(), 8u);
    const RunRecord r = recordOfRank(cluster.of(5), 5);
    std::vector<const CommunicationOpRecord*> allToAll;
    for (const auto& op : r.communicationOps)
        if (op.opType == "hcom_alltoallv_") allToAll.push_back(&op);
    ASSERT_EQ(allToAll.size(), 4u);  // dispatch, combine, and their gradients
    EXPECT_EQ(allToAll.front()->rankSize, 8u);
    // The first expert GEMM (the 3rd MatMul: router, then gate_up) starts after the dispatch.
    std::vector<const KernelRecord*> gemms;
    for (const auto& k : r.kernels)
        if (k.opType == "MatMul") gemms.push_back(&k);
    ASSERT_GE(gemms.size(), 2u);
    EXPECT_LT(gemms[0]->device.endNs, allToAll.front()->startNs + 1);  // the router runs before
    EXPECT_GE(gemms[1]->device.startNs, allToAll.front()->endNs);
    // Every rank of the group sends to and receives from every other: link rows to 7 peers.
    std::set<std::uint32_t> peers;
    for (const auto& task : allToAll.front()->tasks)
        if (task.kind == HcclTaskKind::Memcpy) peers.insert(task.dstRank == 5 ? task.srcRank : task.dstRank);
    peers.erase(5);
    EXPECT_EQ(peers.size(), 7u);
}

}  // namespace
}  // namespace ascendsim::e2e
