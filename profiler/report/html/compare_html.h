#pragma once
// `ascendsim compare BASE VARIANT... --html FILE`: the comparison as a page. Step split side by
// side (one bar per result directory), the top kernel changes of each variant as bars, and
// sortable tables of op types and pipe ratios/bandwidths (a column pair per variant) and of every
// matched kernel per variant.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "profiler/report/profile_comparison.h"

namespace ascendsim {

// A result directory of the comparison with the label the report gives it (the path as the user
// typed it).
struct LabelledProfile {
    std::string label;
    ProfileSummary summary;
};

void writeComparisonHtml(const LabelledProfile& base, const std::vector<LabelledProfile>& variants, std::size_t top,
                         std::ostream& out);

}  // namespace ascendsim
