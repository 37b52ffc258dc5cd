#include "sim/engine/cluster/rank_ownership.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/engine/cluster/cluster_run.h"

namespace ascendsim {

namespace {

// Past this many kinds the partitions are too many to search (S(12, 6) is 1.3 million); such runs
// (host jitter gives every rank its own kind) keep the contiguous plan, which for one rank per
// kind is itself a partition of the kinds.
constexpr std::size_t kMostKindsSearched = 12;

struct KindLoad {
    std::uint64_t simulation = 0;
    std::uint64_t writing = 0;  // all its ranks
};

// The partition search: kinds 0..k-1 placed, blocks [0, opened) in use.
class KindPartitionSearch {
  public:
    KindPartitionSearch(const std::vector<KindLoad>& kinds, std::uint32_t processes, std::uint64_t bound)
        : kinds_(kinds), processes_(processes), best_(bound), blockOf_(kinds.size()), simulation_(processes),
          writing_(processes) {}

    // The best partition found whose cost is below the bound given; empty if none.
    std::vector<std::uint32_t> run() {
        place(0, 0);
        return bestBlockOf_;
    }

  private:
    std::uint64_t cost() const {
        return *std::max_element(simulation_.begin(), simulation_.end()) +
               *std::max_element(writing_.begin(), writing_.end());
    }

    void place(std::size_t kind, std::uint32_t opened) {
        if (cost() >= best_) return;  // adding kinds never lowers a maximum
        if (kind == kinds_.size()) {
            if (opened < processes_) return;  // every process needs a rank to write
            best_ = cost();
            bestBlockOf_ = blockOf_;
            return;
        }
        // Blocks still empty must each get one of the kinds left.
        if (kinds_.size() - kind < processes_ - opened) return;
        const std::uint32_t last = std::min(opened, processes_ - 1);
        for (std::uint32_t block = 0; block <= last; ++block) {
            blockOf_[kind] = block;
            simulation_[block] += kinds_[kind].simulation;
            writing_[block] += kinds_[kind].writing;
            place(kind + 1, std::max(opened, block + 1));
            simulation_[block] -= kinds_[kind].simulation;
            writing_[block] -= kinds_[kind].writing;
        }
    }

    const std::vector<KindLoad>& kinds_;
    const std::uint32_t processes_;
    std::uint64_t best_;
    std::vector<std::uint32_t> blockOf_;
    std::vector<std::uint32_t> bestBlockOf_;
    std::vector<std::uint64_t> simulation_;
    std::vector<std::uint64_t> writing_;
};

}  // namespace

std::uint64_t ownershipCost(const std::vector<std::uint32_t>& processOfRank,
                            const std::vector<std::uint32_t>& kindOfRank, const std::vector<RankKindCost>& kinds,
                            std::uint32_t processes) {
    std::vector<std::uint64_t> simulation(processes, 0), writing(processes, 0);
    std::vector<std::vector<bool>> simulates(processes, std::vector<bool>(kinds.size(), false));
    for (std::size_t r = 0; r < kindOfRank.size(); ++r) {
        const std::uint32_t p = processOfRank.at(r), k = kindOfRank[r];
        writing.at(p) += kinds.at(k).writingPerRank;
        if (!simulates[p][k]) simulation[p] += kinds[k].simulation;
        simulates[p][k] = true;
    }
    return *std::max_element(simulation.begin(), simulation.end()) +
           *std::max_element(writing.begin(), writing.end());
}

std::vector<std::uint32_t> planRankOwnership(const std::vector<std::uint32_t>& kindOfRank,
                                             const std::vector<RankKindCost>& kinds, std::uint32_t processes) {
    const auto ranks = static_cast<std::uint32_t>(kindOfRank.size());
    if (processes == 0 || processes > ranks)
        throw std::invalid_argument(std::to_string(processes) + " processes for " + std::to_string(ranks) +
                                    " ranks: every process needs a rank to write");
    std::vector<KindLoad> loads(kinds.size());
    for (std::size_t k = 0; k < kinds.size(); ++k) loads[k].simulation = kinds[k].simulation;
    for (const std::uint32_t k : kindOfRank) {
        if (k >= kinds.size())
            throw std::invalid_argument("rank kind " + std::to_string(k) + " of " + std::to_string(kinds.size()));
        loads[k].writing += kinds[k].writingPerRank;
    }
    std::vector<std::uint32_t> contiguous(ranks);
    for (std::uint32_t p = 0; p < processes; ++p) {
        const auto [first, end] = ownedRanks(ranks, p, processes);
        std::fill(contiguous.begin() + first, contiguous.begin() + end, p);
    }
    if (processes == 1 || kinds.size() < processes || kinds.size() > kMostKindsSearched) return contiguous;
    const std::vector<std::uint32_t> processOfKind =
        KindPartitionSearch(loads, processes, ownershipCost(contiguous, kindOfRank, kinds, processes)).run();
    if (processOfKind.empty()) return contiguous;
    std::vector<std::uint32_t> byKind(ranks);
    for (std::uint32_t r = 0; r < ranks; ++r) byKind[r] = processOfKind[kindOfRank[r]];
    return byKind;
}

}  // namespace ascendsim
