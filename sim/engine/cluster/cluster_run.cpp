#include "sim/engine/cluster/cluster_run.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "sim/engine/cluster/collective_matching.h"
#include "sim/engine/cluster/rank_ownership.h"
#include "sim/engine/phase_clock.h"
#include "sim/workload/parallel/parallel_layout.h"

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
    if (workload.pipeline.declared) v.pipelineStage = workload.parallel.ppIndex(rank);
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

// A rank kind: its variant without release times (what its simulated timeline depends on).
RankVariant kindOf(RankVariant v) {
    v.collectiveReleaseNs.clear();
    return v;
}

// Simulating a rank kind costs about this many times writing one of its rank directories: the
// 128-rank Llama step in one process (docs/performance.md, session 14) took 60.1 s of simulation
// CPU for its 4 stages and 47.4 s to write its 128 directories, 15 s against 0.37 s.
constexpr std::uint64_t kSimulationPerWrittenRank = 40;

// The process of each rank (rank_ownership.h). Both phases' costs of a kind are estimated from
// its stage's step program, known before simulating: its op count (the kernels simulated, the
// rows written); a slow factor or a late host start does not change what is simulated.
std::vector<std::uint32_t> processOfEachRank(const SimulationOptions& options, const std::vector<RankVariant>& variantOfRank,
                                             std::uint32_t processes) {
    if (processes == 1) return std::vector<std::uint32_t>(variantOfRank.size(), 0);
    std::vector<RankVariant> kinds;
    std::vector<std::uint32_t> kindOfRank;
    for (const RankVariant& v : variantOfRank) {
        auto it = std::find(kinds.begin(), kinds.end(), v);
        if (it == kinds.end()) it = kinds.insert(kinds.end(), v);
        kindOfRank.push_back(static_cast<std::uint32_t>(it - kinds.begin()));
    }
    std::map<std::uint32_t, std::uint64_t> opsOfStage;
    std::vector<RankKindCost> costs;
    for (const RankVariant& kind : kinds) {
        auto ops = opsOfStage.find(kind.pipelineStage);
        if (ops == opsOfStage.end())
            ops = opsOfStage
                      .emplace(kind.pipelineStage,
                               loadWorkload(options.workloadPath, WorkloadOverrides{options.setOverrides, kind.pipelineStage})
                                   .ops.size())
                      .first;
        costs.push_back({ops->second * kSimulationPerWrittenRank, ops->second});
    }
    return planRankOwnership(kindOfRank, costs, processes);
}

// "0-31,64-95": ascending ranks as --write-ranks spells them.
std::string rankListText(const std::vector<std::uint32_t>& ranks) {
    std::string text;
    for (std::size_t i = 0; i < ranks.size();) {
        std::size_t j = i;
        while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
        if (!text.empty()) text += ',';
        text += std::to_string(ranks[i]);
        if (j > i) text += '-' + std::to_string(ranks[j]);
        i = j + 1;
    }
    return text;
}

SimulationResult* findVariant(std::vector<SimulationResult>& pool, const RankVariant& v) {
    for (SimulationResult& s : pool)
        if (s.variant == v) return &s;
    return nullptr;
}

// A variant another process simulated: only its arrivals.
SimulationResult arrivalsOnly(const RankVariant& v, const std::vector<std::uint64_t>& packed, std::uint32_t ranks) {
    SimulationResult remoteVariant;
    remoteVariant.arrivalsOnly = true;
    remoteVariant.variant = v;
    remoteVariant.ranks = ranks;
    remoteVariant.collectiveArrivals = unpackArrivals(packed);
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
    const bool pipeline = declaresPipeline(options.workloadPath);
    if (stragglers || pipeline) workload = loadWorkload(options.workloadPath, WorkloadOverrides{options.setOverrides});
    const bool distinct = workload.ranks > 1 && (workload.stragglers.any() || workload.parallel.pp > 1);
    if ((!stragglers && !pipeline) || !distinct) {
        // Every process that owns ranks simulates the one variant itself: no exchange needed.
        cluster.classes.push_back(runSimulation(options));
        const std::uint32_t ranks = std::max<std::uint32_t>(cluster.classes.front().ranks, 1);
        if (processes > ranks)
            throw WorkloadError({"<command line>", 0, 0}, "mpirun -np",
                                std::to_string(processes) + " processes for " + std::to_string(ranks) +
                                    " ranks: every process needs a rank to write");
        cluster.classOfRank.assign(ranks, 0);
        const auto [first, end] = ownedRanks(ranks, process, processes);
        for (std::uint32_t r = first; r < end; ++r) cluster.ownedRanks.push_back(r);
        cluster.rounds = 1;
        cluster.simulations = 1;
        return cluster;
    }
    const std::uint32_t ranks = workload.ranks;
    if (processes > ranks)
        throw WorkloadError({"<command line>", 0, 0}, "mpirun -np",
                            std::to_string(processes) + " processes for " + std::to_string(ranks) +
                                " ranks: every process needs a rank to write");
    std::vector<RankVariant> variantOfRank;
    for (std::uint32_t r = 0; r < ranks; ++r) variantOfRank.push_back(initialVariantOf(workload, r));
    const std::vector<std::uint32_t> processOfRank = processOfEachRank(options, variantOfRank, processes);
    for (std::uint32_t r = 0; r < ranks; ++r)
        if (processOfRank[r] == process) cluster.ownedRanks.push_back(r);
    if (processes > 1)
        spdlog::info("cluster: process {} of {} writes ranks {}", process, processes, rankListText(cluster.ownedRanks));
    Workload profiled = workload;
    applyProfilerOverrides(options, profiled);
    const bool replay = !options.simulateClusterRounds && replayable(options, profiled.profiler);
    // The simulated timeline of each rank kind this process ran (every kind of an owned rank, in
    // the first round: its variant has no release times yet).
    std::vector<std::pair<RankVariant, std::shared_ptr<const DeviceTimeline>>> timelines;
    const auto timelineOf = [&](const RankVariant& v) -> std::shared_ptr<const DeviceTimeline> {
        for (const auto& [kind, timeline] : timelines)
            if (kind == kindOf(v)) return timeline;
        return nullptr;
    };
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
                sender.push_back(processOfRank[r]);
                local.push_back(false);
            }
            const auto index = static_cast<std::size_t>(it - needed.begin());
            classOfRank[r] = static_cast<std::uint32_t>(index);
            if (processOfRank[r] == process) local[index] = true;
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
            const PhaseClock running;
            const std::uint32_t simulationsBefore = cluster.simulations;
            if (std::shared_ptr<const DeviceTimeline> timeline = replay ? timelineOf(needed[i]) : nullptr) {
                classes[i] = runSimulation(options, needed[i], DeviceRun{std::move(timeline), false});
                ++cluster.replays;
            } else {
                const bool kind = needed[i] == kindOf(needed[i]);
                classes[i] = runSimulation(options, needed[i], DeviceRun{nullptr, replay && kind});
                if (replay && kind) timelines.emplace_back(needed[i], classes[i].deviceTimeline);
                ++cluster.simulations;
            }
            const bool simulated = cluster.simulations != simulationsBefore;
            spdlog::info("cluster: {} stage {} slowdown {} in {}", simulated ? "simulated" : "replayed",
                         needed[i].pipelineStage, needed[i].deviceSlowdown, running.elapsed());
            have[i] = true;
            if (sender[i] == process) mine[i] = packArrivals(classes[i].collectiveArrivals);
        }
        const std::vector<std::vector<std::uint64_t>> shared = exchange.share(mine);
        for (std::size_t i = 0; i < needed.size(); ++i)
            if (!have[i]) classes[i] = arrivalsOnly(needed[i], shared.at(i), ranks);
        cluster.classes = std::move(classes);
        cluster.classOfRank = std::move(classOfRank);

        bool changed = false;
        for (std::uint32_t r = 0; r < ranks; ++r) {
            const SimulationResult& own = cluster.of(r);
            std::vector<std::uint64_t> release = releasesOf(workload.parallel, r, cluster.classes, cluster.classOfRank);
            if (sameWaits(variantOfRank[r], release, own.collectiveArrivals)) continue;
            variantOfRank[r].collectiveReleaseNs = std::move(release);
            changed = true;
        }
        if (!changed) {
            spdlog::info("cluster: {} distinct ranks settled after {} rounds ({} simulations and {} replays in "
                         "this process)",
                         cluster.classes.size(), cluster.rounds, cluster.simulations, cluster.replays);
            return cluster;
        }
        // The k-th op of a chain of waits is final after k rounds; no chain is longer than all
        // the distinct ranks' ops together.
        std::size_t ops = 0;
        for (const SimulationResult& c : cluster.classes) ops += c.collectiveArrivals.size();
        if (cluster.rounds > ops + 2)
            throw std::logic_error("the cluster's collective release times did not settle");
    }
}

}  // namespace ascendsim
