#pragma once
// Number formatting shared by the text and HTML reports (compare, run, sweep, tune).
#include <string>

namespace ascendsim {

// printf-style formatting of one double ("%.2f", "%+.1f%%").
std::string formatNumber(const char* pattern, double value);

// "+12.3%" relative to `base`; "0.0%" when equal, "new" when base is 0.
std::string percentChange(double base, double variant);

}  // namespace ascendsim
