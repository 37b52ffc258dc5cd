#include "sim/engine/cluster/cluster_run.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include "sim/workload/parallel_layout.h"

namespace ascendsim {

namespace {

// splitmix64 (Steele, Lea, Flood 2014): a well-mixed 64-bit hash of the rank, so neighbouring
// ranks get unrelated skews.
std::uint64_t mixedRank(std::uint64_t rank) {
    std::uint64_t z = rank + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// The release times `rank` waits for: per collective, the latest arrival of its group.
std::vector<std::uint64_t> releasesOf(const Workload& workload, std::uint32_t rank,
                                      const std::vector<SimulationResult>& classes,
                                      const std::vector<std::uint32_t>& classOfRank) {
    const auto& own = classes[classOfRank[rank]].collectiveArrivals;
    std::vector<std::uint64_t> release(own.size(), 0);
    std::string lastGroup;
    std::vector<std::uint32_t> members;
    for (std::size_t k = 0; k < own.size(); ++k) {
        if (own[k].group != lastGroup) {
            members = groupMembers(workload.parallel, own[k].group, rank);
            lastGroup = own[k].group;
        }
        for (const std::uint32_t m : members) {
            const auto& theirs = classes[classOfRank[m]].collectiveArrivals;
            if (theirs.size() != own.size() || theirs[k].group != own[k].group)
                throw std::logic_error("ranks " + std::to_string(rank) + " and " + std::to_string(m) +
                                       " run different collectives");
            release[k] = std::max(release[k], theirs[k].arrivalNs);
        }
    }
    return release;
}

// Whether simulating with `next` would change anything: a collective whose release is at or before
// the rank's own arrival does not wait, whatever the release says.
bool sameWaits(const RankVariant& current, const std::vector<std::uint64_t>& next,
               const std::vector<CollectiveArrival>& arrivals) {
    for (std::size_t k = 0; k < next.size(); ++k) {
        const std::uint64_t old = k < current.collectiveReleaseNs.size() ? current.collectiveReleaseNs[k] : 0;
        if (std::max(old, arrivals[k].arrivalNs) != next[k]) return false;
    }
    return true;
}

}  // namespace

RankVariant initialVariantOf(const Workload& workload, std::uint32_t rank) {
    RankVariant v;
    const auto slow = workload.stragglers.slowRanks.find(rank);
    if (slow != workload.stragglers.slowRanks.end()) v.deviceSlowdown = slow->second;
    if (workload.stragglers.hostJitterUs > 0.0) {
        const double u = static_cast<double>(mixedRank(rank) >> 11) / 9007199254740992.0;  // 2^53
        v.hostStartNs = static_cast<std::uint64_t>(std::llround(u * workload.stragglers.hostJitterUs * 1000.0));
    }
    return v;
}

std::pair<std::uint32_t, std::uint32_t> ownedRanks(std::uint32_t ranks, std::uint32_t process, std::uint32_t processes) {
    const auto bound = [&](std::uint32_t p) {
        return static_cast<std::uint32_t>(static_cast<std::uint64_t>(ranks) * p / processes);
    };
    return {bound(process), bound(process + 1)};
}

namespace {

std::uint32_t processOfRank(std::uint32_t rank, std::uint32_t ranks, std::uint32_t processes) {
    for (std::uint32_t p = 0; p < processes; ++p)
        if (rank < ownedRanks(ranks, p, processes).second) return p;
    return processes - 1;
}

SimulationResult* findVariant(std::vector<SimulationResult>& pool, const RankVariant& v) {
    for (SimulationResult& s : pool)
        if (s.variant == v) return &s;
    return nullptr;
}

// A variant another process simulated: its arrivals (the groups are every rank's, from `like`).
SimulationResult arrivalsOnly(const RankVariant& v, const std::vector<std::uint64_t>& arrivals,
                              const SimulationResult& like) {
    if (arrivals.size() != like.collectiveArrivals.size())
        throw std::runtime_error("the processes disagree on the collectives of the run");
    SimulationResult remoteVariant;
    remoteVariant.arrivalsOnly = true;
    remoteVariant.variant = v;
    remoteVariant.ranks = like.ranks;
    remoteVariant.collectiveArrivals = like.collectiveArrivals;
    for (std::size_t k = 0; k < arrivals.size(); ++k) remoteVariant.collectiveArrivals[k].arrivalNs = arrivals[k];
    return remoteVariant;
}

}  // namespace

ClusterResult runCluster(const SimulationOptions& options) {
    SingleProcessExchange single;
    return runCluster(options, single);
}

ClusterResult runCluster(const SimulationOptions& options, RankExchange& exchange) {
    ClusterResult cluster;
    // Stragglers come only from `--set`: without them every rank is alike, and the workload is
    // loaded once, by the one simulation.
    const bool stragglers = std::any_of(options.setOverrides.begin(), options.setOverrides.end(), [](const std::string& s) {
        return s.rfind("slow_rank=", 0) == 0 || s.rfind("host_jitter=", 0) == 0;
    });
    const std::uint32_t process = exchange.processIndex(), processes = exchange.processCount();
    Workload workload;
    if (stragglers) workload = loadWorkload(options.workloadPath, WorkloadOverrides{options.setOverrides});
    if (!stragglers || workload.ranks <= 1 || !workload.stragglers.any()) {
        // Every process that owns ranks simulates the one variant itself: no exchange needed.
        cluster.classes.push_back(runSimulation(options));
        const std::uint32_t ranks = std::max<std::uint32_t>(cluster.classes.front().ranks, 1);
        if (processes > ranks)
            throw WorkloadError({"<command line>", 0, 0}, "mpirun -np",
                                std::to_string(processes) + " processes for " + std::to_string(ranks) +
                                    " ranks: every process needs a rank to write");
        cluster.classOfRank.assign(ranks, 0);
        std::tie(cluster.firstOwnedRank, cluster.endOwnedRank) = ownedRanks(ranks, process, processes);
        cluster.rounds = 1;
        cluster.simulations = 1;
        return cluster;
    }
    const std::uint32_t ranks = workload.ranks;
    if (processes > ranks)
        throw WorkloadError({"<command line>", 0, 0}, "mpirun -np",
                            std::to_string(processes) + " processes for " + std::to_string(ranks) +
                                " ranks: every process needs a rank to write");
    std::tie(cluster.firstOwnedRank, cluster.endOwnedRank) = ownedRanks(ranks, process, processes);
    std::vector<RankVariant> variantOfRank;
    for (std::uint32_t r = 0; r < ranks; ++r) variantOfRank.push_back(initialVariantOf(workload, r));
    for (;;) {
        ++cluster.rounds;
        // The distinct variants of this round, in rank order, and who needs each one in full.
        std::vector<RankVariant> needed;
        std::vector<std::uint32_t> classOfRank(ranks);
        std::vector<std::uint32_t> sender;  // the first process owning a rank of the variant
        std::vector<bool> local;            // an owned rank has it
        for (std::uint32_t r = 0; r < ranks; ++r) {
            auto it = std::find(needed.begin(), needed.end(), variantOfRank[r]);
            if (it == needed.end()) {
                it = needed.insert(needed.end(), variantOfRank[r]);
                sender.push_back(processOfRank(r, ranks, processes));
                local.push_back(false);
            }
            const auto index = static_cast<std::size_t>(it - needed.begin());
            classOfRank[r] = static_cast<std::uint32_t>(index);
            if (r >= cluster.firstOwnedRank && r < cluster.endOwnedRank) local[index] = true;
        }
        // Simulate what this process needs and has not got in full; share the arrivals of what
        // nobody had.
        std::vector<SimulationResult> classes(needed.size());
        std::vector<bool> have(needed.size(), false);
        std::vector<std::vector<std::uint64_t>> mine(needed.size());
        for (std::size_t i = 0; i < needed.size(); ++i) {
            SimulationResult* known = findVariant(cluster.classes, needed[i]);
            if (known && (!known->arrivalsOnly || !local[i])) {
                classes[i] = std::move(*known);
                known->variant.deviceSlowdown = -1.0;  // moved out: never matches again
                have[i] = true;
                continue;
            }
            if (!local[i]) continue;
            classes[i] = runSimulation(options, needed[i]);
            ++cluster.simulations;
            have[i] = true;
            if (sender[i] == process)
                for (const CollectiveArrival& a : classes[i].collectiveArrivals) mine[i].push_back(a.arrivalNs);
        }
        const std::vector<std::vector<std::uint64_t>> shared = exchange.share(mine);
        const auto reference = std::find_if(classes.begin(), classes.end(), [&](const SimulationResult& s) {
            return !s.arrivalsOnly && &s - classes.data() < static_cast<std::ptrdiff_t>(needed.size()) &&
                   have[static_cast<std::size_t>(&s - classes.data())];
        });
        for (std::size_t i = 0; i < needed.size(); ++i) {
            if (have[i]) continue;
            if (reference == classes.end()) throw std::logic_error("a process holds no simulated rank");
            classes[i] = arrivalsOnly(needed[i], shared.at(i), *reference);
        }
        cluster.classes = std::move(classes);
        cluster.classOfRank = std::move(classOfRank);

        bool changed = false;
        for (std::uint32_t r = 0; r < ranks; ++r) {
            const SimulationResult& own = cluster.of(r);
            std::vector<std::uint64_t> release = releasesOf(workload, r, cluster.classes, cluster.classOfRank);
            if (sameWaits(variantOfRank[r], release, own.collectiveArrivals)) continue;
            variantOfRank[r].collectiveReleaseNs = std::move(release);
            changed = true;
        }
        if (!changed) return cluster;
        if (cluster.rounds > cluster.of(0).collectiveArrivals.size() + 2)
            throw std::logic_error("the cluster's collective release times did not settle");
    }
}

}  // namespace ascendsim
