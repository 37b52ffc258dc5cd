#pragma once
// Time-stamp text as the real tools print it (formats.md §2.3): nanoseconds rendered as
// microseconds with exactly three decimals, by moving the decimal point, never through a double.
#include <cstdint>
#include <string>

namespace ascendsim {

// 1736405443881410320 → "1736405443881410.320"; 5 → "0.005".
std::string nsToUsString(std::uint64_t ns);
void appendNsToUs(std::string& out, std::uint64_t ns);  // the same, appended

// The same with the trailing TAB that absolute-time columns carry ("…410.320\t").
std::string nsToUsStringWithTab(std::uint64_t ns);

}  // namespace ascendsim
