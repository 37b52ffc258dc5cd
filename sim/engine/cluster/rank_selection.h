#pragma once
// `--write-ranks LIST`: which ranks of a multi-rank run get their *_ascend_pt directory (every
// rank is still simulated, so the written ranks' waits and communication files are those of the
// whole cluster). LIST: comma-separated ranks and inclusive ranges, "0-7,64,511".
#include <cstdint>
#include <set>
#include <string>

namespace ascendsim {

// Throws std::invalid_argument naming the bad item (not a number, a reversed range, a rank
// outside 0..ranks-1).
std::set<std::uint32_t> parseRankSelection(const std::string& list, std::uint32_t ranks);

}  // namespace ascendsim
