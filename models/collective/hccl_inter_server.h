#pragma once
// HCCL's level-1 (inter-server) algorithms: each runs among the members at one local position on
// every server (`inter`: index k is the member on the group's k-th server), each over its own NIC
// (RDMA). Every step is a mesh phase of the builder: handshakes, one transfer per member, the
// step ending when the slowest transfer does.
//   Ring:            S - 1 steps to the next server, each one block (reduce-scatter, all-gather);
//                    a broadcast or reduce passes the whole buffer down the chain.
//   HalvingDoubling: log2 S steps with the partner at distance S/2, S/4, ... moving half, a
//                    quarter, ... of the data (reduce-scatter), then the reverse (all-gather); a
//                    binomial tree for broadcast and reduce. A non-power-of-2 count first folds
//                    the servers past the largest power of 2 into their partner and unfolds them
//                    at the end (one whole-buffer step each way).
#include <cstdint>

#include "models/collective/collective_builder.h"

namespace ascendsim {

// Every member ends with the sum of all members' `blockBytes * S` buffers' own block (ring: S - 1
// steps of one block; halving: S/2, S/4, ... 1 blocks). Returns the end.
std::uint64_t interReduceScatter(CollectiveBuilder& b, const SubGroup& inter,
                                 std::uint64_t startNs, InterServerAlgorithm algorithm,
                                 std::uint64_t blockBytes);

// Every member ends with every member's block.
std::uint64_t interAllGather(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t blockBytes);

// Every member ends with the sum of all members' `bytes` buffers.
std::uint64_t interAllReduce(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t bytes);

// The member at index `root` sends its `bytes` to every member.
std::uint64_t interBroadcast(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                             InterServerAlgorithm algorithm, std::uint64_t bytes,
                             std::uint32_t root);

// The member at index `root` ends with the sum of all members' `bytes` buffers.
std::uint64_t interReduce(CollectiveBuilder& b, const SubGroup& inter, std::uint64_t startNs,
                          InterServerAlgorithm algorithm, std::uint64_t bytes, std::uint32_t root);

bool isPowerOfTwo(std::uint32_t n);

}  // namespace ascendsim
