#pragma once
// How the processes of one cluster run share what each simulated (sim/engine/cluster): one
// process shares with nobody; under mpirun (sim/mpi/mpi_rank_exchange.h) the processes exchange
// the ranks' collective arrival times.
#include <cstdint>
#include <vector>

namespace ascendsim {

class RankExchange {
  public:
    virtual ~RankExchange() = default;
    virtual std::uint32_t processIndex() const = 0;
    virtual std::uint32_t processCount() const = 0;
    // Every process passes one entry per variant of the round, non-empty for the variants it is
    // the sender of; all processes get back every sender's entries. Collective: every process
    // calls it the same number of times.
    virtual std::vector<std::vector<std::uint64_t>> share(const std::vector<std::vector<std::uint64_t>>& mine) = 0;
    // Wall seconds spent in share() so far: mostly waiting for the slowest process's round.
    virtual double waitedSeconds() const { return 0.0; }
};

// The only process: shares with itself.
class SingleProcessExchange final : public RankExchange {
  public:
    std::uint32_t processIndex() const override { return 0; }
    std::uint32_t processCount() const override { return 1; }
    std::vector<std::vector<std::uint64_t>> share(const std::vector<std::vector<std::uint64_t>>& mine) override {
        return mine;
    }
};

}  // namespace ascendsim
