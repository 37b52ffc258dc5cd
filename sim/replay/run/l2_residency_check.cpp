#include "sim/replay/run/l2_residency_check.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "sim/replay/report/replay_statistics.h"
#include "sim/replay/run/tensor_identity.h"

namespace ascendsim {

namespace {
// Rows reading less are left out: their rates count a few dozen requests (1/14 = 0.071 on the
// AlexNet sample's scalar Muls), the granularity of the counter rather than the L2 state; §42a's
// table drew the same line.
constexpr std::uint64_t kCheckedInputBytes = std::uint64_t{1} << 20;
}  // namespace

std::vector<ResidencyGroup> residencyAgainstVictimRates(const RealProfile& profile,
                                                        const std::vector<std::vector<std::size_t>>& residentInputs,
                                                        const L2VictimRates& victimRates) {
    if (residentInputs.size() != profile.kernels.size())
        throw std::invalid_argument("residency check: one residency per profile row expected");
    const std::array<const char*, 3> names{"all inputs", "some inputs", "no input"};
    std::array<std::vector<double>, 3> rates;
    for (std::size_t row = 0; row < profile.kernels.size(); ++row) {
        const RealKernel& kernel = profile.kernels[row];
        const auto rate = victimRates.find({kernel.stream, kernel.taskId});
        if (rate == victimRates.end()) continue;
        const std::vector<std::uint64_t> bytes = tensorBytesOfSide(kernel, true);
        std::size_t sized = 0, held = 0;
        std::uint64_t read = 0;
        for (std::size_t j = 0; j < bytes.size(); ++j) {
            if (bytes[j] == 0) continue;
            ++sized;
            read += bytes[j];
            const auto& resident = residentInputs[row];
            held += std::find(resident.begin(), resident.end(), j) != resident.end();
        }
        if (read < kCheckedInputBytes) continue;
        rates[held == sized ? 0 : held > 0 ? 1 : 2].push_back(rate->second);
    }
    std::vector<ResidencyGroup> groups;
    for (std::size_t g = 0; g < rates.size(); ++g)
        if (!rates[g].empty()) groups.push_back(ResidencyGroup{names[g], rates[g].size(), median(rates[g])});
    return groups;
}

}  // namespace ascendsim
