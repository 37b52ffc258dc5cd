#pragma once
// `ascendsim compare BASE VARIANT --html FILE`: the comparison as a page. Step split side by side,
// the top kernel changes as bars, and sortable tables of op types, pipe ratios/bandwidths and
// every matched kernel.
#include <cstddef>
#include <ostream>

#include "profiler/report/profile_comparison.h"

namespace ascendsim {

void writeComparisonHtml(const ProfileSummary& base, const ProfileSummary& variant, std::size_t top, std::ostream& out);

}  // namespace ascendsim
