#include "profiler/format/time_format.h"

namespace ascendsim {

std::string nsToUsString(std::uint64_t ns) {
    std::string digits = std::to_string(ns);
    if (digits.size() < 4) digits.insert(0, 4 - digits.size(), '0');
    digits.insert(digits.size() - 3, 1, '.');
    return digits;
}

std::string nsToUsStringWithTab(std::uint64_t ns) { return nsToUsString(ns) + '\t'; }

}  // namespace ascendsim
