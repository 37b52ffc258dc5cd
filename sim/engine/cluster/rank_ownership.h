#pragma once
// Which process of an `mpirun -np N` run writes which rank directories, and so which rank kinds
// it simulates (docs/architecture.md "Distinct ranks", docs/performance.md "MPI").
//
// Writing a rank needs its kind's full record, so a process simulates (and replays in the later
// rounds) every kind of the ranks it writes. Two plans are costed with one estimate and the
// cheaper is kept:
// - contiguous: process p writes ranks [p*R/N, (p+1)*R/N), as before; a kind whose ranks straddle
//   a boundary is simulated by both processes;
// - by kind: every kind goes whole to one process, in the partition of the kinds over the
//   processes that costs least (searched exhaustively; kinds numbered by their first rank, so the
//   kind of rank 0 stays with process 0, which writes the run's report).
// A plan's cost is the most simulation any process does plus the most writing any process does:
// the two phases do not overlap (a rank's record is final only when the rounds have settled), so
// each takes as long as its slowest process. Ties keep the contiguous plan.
#include <cstdint>
#include <vector>

namespace ascendsim {

// Estimated costs of one rank kind, in one unit for both.
struct RankKindCost {
    std::uint64_t simulation = 0;      // simulating the kind once
    std::uint64_t writingPerRank = 0;  // writing one of its rank directories
};

// The process of every rank. kindOfRank: per rank an index into `kinds`, each kind first used
// in rank order (kind 0 is rank 0's). Every process gets at least one rank; throws
// std::invalid_argument when there are more processes than ranks or a kind index is out of range.
std::vector<std::uint32_t> planRankOwnership(const std::vector<std::uint32_t>& kindOfRank,
                                             const std::vector<RankKindCost>& kinds, std::uint32_t processes);

// A plan's estimated cost (see above): the largest per-process simulation plus the largest
// per-process writing.
std::uint64_t ownershipCost(const std::vector<std::uint32_t>& processOfRank,
                            const std::vector<std::uint32_t>& kindOfRank, const std::vector<RankKindCost>& kinds,
                            std::uint32_t processes);

}  // namespace ascendsim
