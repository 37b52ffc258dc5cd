#pragma once
// The straggler `--set` keys: slow_rank and host_jitter (docs/workload-format.md §9.1).
#include <cstdint>
#include <map>
#include <string>

namespace ascendsim {

// Ranks that run slower than the rest, and per-rank host jitter (deterministic, seeded by the
// rank): what `--set slow_rank=R:F[,R:F...]` and `--set host_jitter=X` ask for.
struct StragglerOptions {
    std::map<std::uint32_t, double> slowRanks;  // rank -> factor > 1 (its device runs F x slower)
    // Each rank's host starts its first step u * hostJitterUs late, u in [0, 1) a hash of the rank
    // (deterministic: the same rank always gets the same skew).
    double hostJitterUs = 0.0;
    bool any() const { return !slowRanks.empty() || hostJitterUs > 0.0; }
};

// "3:1.2" or "3:1.2,17:1.5". Throws std::invalid_argument with the problem.
void parseSlowRanks(const std::string& text, StragglerOptions& out);
// "200": microseconds in [0, 1e6]. Throws std::invalid_argument.
double parseHostJitter(const std::string& text);

}  // namespace ascendsim
