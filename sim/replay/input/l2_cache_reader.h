#pragma once
// l2_cache.csv of the text export: CANN's per-task L2 counters ("l2_cache" in the profiling guide:
// Hit Rate, and Victim Rate = AI Core victims over AI Core requests), for checking the L2 state a
// replay assumes against what the real kernels saw (docs/fidelity.md §42a, §53). The 910B2 samples
// record N/A for every hit rate, so only the victim rate is read.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>

namespace ascendsim {

// Victim rate by (Stream Id, Task Id) as the export spells them; tasks whose rate is N/A or empty
// are left out.
using L2VictimRates = std::map<std::pair<std::string, std::string>, double>;

// Throws ReplayInputError naming the file, line and field on a missing column or a rate that is
// not a number in [0, 1].
L2VictimRates parseL2CacheCsv(std::string_view text, const std::filesystem::path& source);

// The same from a file; an absent file gives no rates (most exports have none). std::system_error
// when it exists but cannot be read.
L2VictimRates readL2CacheCsv(const std::filesystem::path& file);

}  // namespace ascendsim
