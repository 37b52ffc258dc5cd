#pragma once
// A multi-rank run whose ranks are not all alike (docs/architecture.md "Distinct ranks").
//
// Ranks that run the same program with the same inputs are simulated once, as before. A rank
// that differs (a slow device, a host that starts late) is simulated on its own, and the ranks
// meet only at their collectives: a collective on a rank ends when the last rank of its group has
// arrived, plus the collective's own duration. The arrival times decide the run, so it is solved
// as a fixed point: simulate every distinct rank with the release times known so far (none at
// first), take each collective's release as its group's latest arrival, and simulate again the
// ranks whose release times changed. Arrivals at collective k depend only on the releases of
// collectives before k, so the k-th release is final after k rounds; in practice the latest rank
// is latest everywhere and three rounds settle it, but a pipeline's chain of p2p waits settles one
// link per round. Every simulation is deterministic, so the result is the same whatever process
// simulates which rank.
//
// Rounds after the first do not simulate the device again: a rank kind (its stage, slowdown and
// start) is simulated once, without waits, and later rounds replay that timeline with the new
// release times (DeviceRun::replay): the same kernels in the same order, each keeping its
// simulated duration, moved to its new submission (docs/architecture.md "Distinct ranks"). The
// host model runs again in full, so the host's records follow the device's new times.
// SimulationOptions::simulateClusterRounds simulates every round instead.
//
// Processes (mpirun -np N): each process owns some ranks and writes their directories; it
// simulates the rank kinds among them, and the processes exchange arrival times after each round
// (RankExchange). Which process owns which ranks is planned from the kinds' estimated costs
// (rank_ownership.h): whole kinds to one process each when that is cheaper than the contiguous
// ranges [p*R/N, (p+1)*R/N). Every process computes the same plan from the same workload. Ranks
// that are all alike keep the contiguous ranges (each process simulates the one kind).
#include <cstdint>
#include <vector>

#include "sim/engine/cluster/rank_exchange.h"
#include "sim/engine/simulation.h"

namespace ascendsim {

struct ClusterResult {
    // One per distinct rank. A class no owned rank uses holds only its variant and arrivals.
    std::vector<SimulationResult> classes;
    std::vector<std::uint32_t> classOfRank;  // index into classes, per global rank
    std::vector<std::uint32_t> ownedRanks;   // the ranks this process writes, ascending (rank 0 in process 0)
    std::uint32_t rounds = 0;       // fixed-point rounds run
    std::uint32_t simulations = 0;  // device simulations this process ran
    std::uint32_t replays = 0;      // runs this process replayed from a simulated timeline
    const SimulationResult& of(std::uint32_t rank) const { return classes.at(classOfRank.at(rank)); }
};

// Runs the workload's ranks. Without stragglers every rank is alike: one simulation, as before.
// Throws what runSimulation throws.
ClusterResult runCluster(const SimulationOptions& options, RankExchange& exchange);
ClusterResult runCluster(const SimulationOptions& options);  // one process

// Rank `rank`'s starting variant: its slow factor and host jitter (no release times yet).
RankVariant initialVariantOf(const Workload& workload, std::uint32_t rank);

// The contiguous ranks [first, end) of process `process` of `processes`.
std::pair<std::uint32_t, std::uint32_t> ownedRanks(std::uint32_t ranks, std::uint32_t process, std::uint32_t processes);

}  // namespace ascendsim
