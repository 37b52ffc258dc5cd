#pragma once
// Which ops of other ranks one rank's collective or p2p op meets (sim/engine/cluster/): the
// ranks' op lists differ (pipeline stages run other schedules), so ops are matched by what they
// are, not by their position. A collective over group kind G is the n-th collective over G on
// every member of the rank's G group; a Send to group rank q is the n-th Send to q, and meets the
// n-th Receive from this rank on q (a Receive likewise). A BatchSendRecv has one peer (it sends to
// it, receives from it, or both: Megatron's p2p calls) and meets the n-th BatchSendRecv with this
// rank on that peer.
#include <cstdint>
#include <vector>

#include "sim/engine/simulation.h"
#include "sim/workload/parallel/parallel_layout.h"

namespace ascendsim {

// When each of `rank`'s ops may end its wait: the latest arrival of its participants (itself
// included). Throws std::logic_error when a participant has no matching op (the ranks' programs
// do not fit together: a Send without its Receive, a collective one member skips).
std::vector<std::uint64_t> releasesOf(const ParallelLayout& layout, std::uint32_t rank,
                                      const std::vector<SimulationResult>& classes,
                                      const std::vector<std::uint32_t>& classOfRank);

// The arrivals as the processes exchange them: two numbers per op (arrival, then kind, group
// and peers packed), and back.
std::vector<std::uint64_t> packArrivals(const std::vector<CollectiveArrival>& arrivals);
std::vector<CollectiveArrival> unpackArrivals(const std::vector<std::uint64_t>& packed);

}  // namespace ascendsim
