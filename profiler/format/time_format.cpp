#include "profiler/format/time_format.h"

#include <algorithm>
#include <charconv>

namespace ascendsim {

void appendNsToUs(std::string& text, std::uint64_t ns) {
    // At least four digits ("0.005"), the point before the last three: built on the stack (every
    // trace event's "ts" comes through here).
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, ns).ptr;
    const auto count = static_cast<std::size_t>(end - digits);
    char us[32];
    char* out = us;
    if (count < 4) out = std::fill_n(out, 4 - count, '0');
    const std::size_t padded = std::max<std::size_t>(count, 4);
    // us now holds (padded - count) zeros; append the digits, then move the last three right.
    out = std::copy(static_cast<const char*>(digits), end, out);
    std::copy_backward(us + padded - 3, out, out + 1);
    us[padded - 3] = '.';
    text.append(us, out + 1);
}

std::string nsToUsString(std::uint64_t ns) {
    std::string text;
    appendNsToUs(text, ns);
    return text;
}

std::string nsToUsStringWithTab(std::uint64_t ns) { return nsToUsString(ns) + '\t'; }

}  // namespace ascendsim
