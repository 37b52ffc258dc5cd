#pragma once
// HCCL AllToAll and AllToAllV (expert parallel): level 0 first, then level 1 ([S] CANN HCCL user
// guide hcclug_000005: Server 内 AlltoAll(V), then Server 间 AlltoAll(V)).
//   Level 0 (mesh): each member sends each peer of its server everything bound for that peer's
//   position on any server, so that afterwards a member holds all of its server's data for its
//   own position.
//   Level 1 (pairwise, HCCL "pairwise": one peer server per step, no one-to-many): in step k the
//   member at (server s, position p) sends the member at (s + k, p) its server's data for it.
// A member's own data moves by a local copy first.
#include <cstdint>

#include "models/collective/collective_builder.h"
#include "models/collective/hccl_group_layout.h"

namespace ascendsim {

// Bytes group rank `from` sends to group rank `to` (AllToAll: request.bytes to everyone).
std::uint64_t allToAllBytes(const CollectiveRequest& request, std::uint32_t from,
                            std::uint32_t to);

// Writes the op into the builder; returns its end.
std::uint64_t planAllToAllPhases(CollectiveBuilder& b, const GroupLayout& layout,
                                 const CollectiveRequest& request);

}  // namespace ascendsim
