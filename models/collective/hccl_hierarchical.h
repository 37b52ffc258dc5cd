#pragma once
// HCCL's two-level collectives over a group spanning several servers (collective_plan.h lists
// the level order of each op): level-0 mesh phases among the members of one server, level-1
// steps (hccl_inter_server.h) among the members at one position across servers. Each function
// writes the op once into the builder (phases, and the tasks of the builder's member) and
// returns the op's end. Local copies move data between the user's buffers and HCCL's exchange
// buffer as the single-server models do.
#include <cstdint>

#include "models/collective/collective_builder.h"
#include "models/collective/hccl_group_layout.h"

namespace ascendsim {

struct HierarchicalContext {
    CollectiveBuilder& builder;
    const GroupLayout& layout;
    const CollectiveRequest& request;
    InterServerAlgorithm algorithm;
    std::uint32_t member() const { return builder.member(); }
};

std::uint64_t hierarchicalAllReduce(const HierarchicalContext& c);
std::uint64_t hierarchicalAllGather(const HierarchicalContext& c);
std::uint64_t hierarchicalReduceScatter(const HierarchicalContext& c);
std::uint64_t hierarchicalBroadcast(const HierarchicalContext& c);
std::uint64_t hierarchicalReduce(const HierarchicalContext& c);

}  // namespace ascendsim
