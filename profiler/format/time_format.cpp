#include "profiler/format/time_format.h"

#include <algorithm>
#include <charconv>

namespace ascendsim {

std::string nsToUsString(std::uint64_t ns) {
    // At least four digits ("0.005"), the point before the last three: built once, on the stack
    // (every trace event's "ts" comes through here).
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, ns).ptr;
    const auto count = static_cast<std::size_t>(end - digits);
    char text[32];
    char* out = text;
    if (count < 4) out = std::fill_n(out, 4 - count, '0');
    const std::size_t padded = std::max<std::size_t>(count, 4);
    // text now holds (padded - count) zeros; append the digits, then move the last three right.
    out = std::copy(static_cast<const char*>(digits), end, out);
    std::copy_backward(text + padded - 3, out, out + 1);
    text[padded - 3] = '.';
    return std::string(text, out + 1);
}

std::string nsToUsStringWithTab(std::uint64_t ns) { return nsToUsString(ns) + '\t'; }

}  // namespace ascendsim
