#pragma once
// The L2 state a replay assumes, checked against what the real kernels saw: each row's victim
// rate in the export's l2_cache.csv (lines evicted per L2 access), grouped by how many of the
// row's inputs the replay holds in L2 at its start. A kernel whose inputs were in L2 on the chip
// evicts little (its reads allocate nothing); one that read them from HBM evicts as it fills
// (docs/fidelity.md §42a, §53). A victim rate counts evictions only (a kernel that misses into
// clean or empty lines shows none, and an output's allocations count too), so the check is
// evidence of the residency, not a hit rate.
#include <cstddef>
#include <string>
#include <vector>

#include "sim/replay/input/l2_cache_reader.h"
#include "sim/replay/input/real_profile.h"

namespace ascendsim {

struct ResidencyGroup {
    std::string held;  // "all inputs", "some inputs", "no input"
    std::size_t rows = 0;
    double medianVictimRate = 0.0;
};

// Rows with a victim rate (joined on stream and task id) whose inputs of known size add up to at
// least 1 MiB,
// in the groups that have any, in the order above. `residentInputs` per row of profile.kernels
// (residencyByRow); a row's inputs of unknown or zero size count as neither held nor missed.
std::vector<ResidencyGroup> residencyAgainstVictimRates(const RealProfile& profile,
                                                        const std::vector<std::vector<std::size_t>>& residentInputs,
                                                        const L2VictimRates& victimRates);

}  // namespace ascendsim
