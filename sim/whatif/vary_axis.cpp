#include "sim/whatif/vary_axis.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

constexpr std::string_view kOpPrefix = "op.";
constexpr std::string_view kBlockDimSuffix = ".block_dim";
constexpr std::string_view kChipPrefix = "chip.";

[[noreturn]] void fail(std::size_t index, const std::string& text, const std::string& problem) {
    throw WorkloadError(SourceLocation{"<command line>", 1, static_cast<int>(index + 1)}, "--vary " + text, problem);
}

std::optional<double> number(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::size_t used = 0;
    try {
        const double value = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(value)) return std::nullopt;
        return value;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

bool isInteger(const std::string& text) {
    const auto value = number(text);
    return value && text.find_first_of(".eE") == std::string::npos && std::fabs(*value) < 9.0e15;
}

// Integers print as integers; other values with the fewest digits that read back the same.
std::string formatValue(double value, bool integral) {
    char buffer[64];
    if (integral) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
    } else {
        std::snprintf(buffer, sizeof buffer, "%.15g", value);
    }
    return buffer;
}

std::vector<std::string> expandRange(const std::string& values, std::size_t index, const std::string& text) {
    const std::size_t dots = values.find("..");
    const std::size_t colon = values.find(':', dots);
    const std::string first = values.substr(0, dots);
    const std::string last = values.substr(dots + 2, colon == std::string::npos ? std::string::npos : colon - dots - 2);
    const std::string step = colon == std::string::npos ? "1" : values.substr(colon + 1);
    const auto a = number(first), b = number(last), s = number(step);
    if (!a || !b || !s) fail(index, text, "a range is A..B or A..B:STEP with numbers, got '" + values + "'");
    if (*s <= 0) fail(index, text, "the step must be positive, got '" + step + "'");
    if (*b < *a) fail(index, text, "the range ends (" + last + ") before it starts (" + first + ")");
    const bool integral = isInteger(first) && isInteger(last) && isInteger(step);
    const double count = std::floor((*b - *a) / *s * (1.0 + 1e-12)) + 1.0;
    if (count > static_cast<double>(kMaxSweepPoints))
        fail(index, text, "the range has more than " + std::to_string(kMaxSweepPoints) + " values");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < static_cast<std::size_t>(count); ++i)
        out.push_back(formatValue(*a + static_cast<double>(i) * *s, integral));
    return out;
}

}  // namespace

VaryAxis parseVaryAxis(const std::string& text, std::size_t index) {
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos || equals == 0)
        fail(index, text, "expected KEY=LIST or KEY=A..B[:STEP] (e.g. op.matmul.block_dim=1..48)");
    VaryAxis axis;
    axis.key = text.substr(0, equals);
    const std::string values = text.substr(equals + 1);
    if (axis.key.starts_with(kChipPrefix) && axis.key.size() == kChipPrefix.size())
        fail(index, text, "'chip.' needs a key path of the chip config (chip.hbm.bandwidth_gbps)");
    if (values.find("..") != std::string::npos) {
        axis.values = expandRange(values, index, text);
    } else {
        std::size_t start = 0;
        while (start <= values.size()) {
            const std::size_t comma = values.find(',', start);
            const std::string value = values.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            if (value.empty()) fail(index, text, "empty value in the list '" + values + "'");
            axis.values.push_back(value);
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return axis;
}

std::vector<SweepPoint> expandGrid(const std::vector<VaryAxis>& axes) {
    std::size_t total = 1;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        total *= axes[i].values.size();
        if (total > kMaxSweepPoints)
            fail(i, axes[i].key, "the grid has more than " + std::to_string(kMaxSweepPoints) + " points");
    }
    std::vector<SweepPoint> grid(axes.empty() ? 0 : total);
    for (std::size_t p = 0; p < grid.size(); ++p) {
        std::size_t rest = p;
        grid[p].resize(axes.size());
        for (std::size_t a = axes.size(); a-- > 0;) {
            const auto& values = axes[a].values;
            grid[p][a] = {axes[a].key, values[rest % values.size()]};
            rest /= values.size();
        }
    }
    return grid;
}

SimulationOptions optionsAtPoint(SimulationOptions base, const SweepPoint& point) {
    for (const auto& [key, value] : point) {
        if (key == "chip") {
            base.chipName = value;
        } else if (key.starts_with(kChipPrefix)) {
            base.chipOverrides.push_back(key.substr(kChipPrefix.size()) + "=" + value);
        } else {
            base.setOverrides.push_back(key + "=" + value);
        }
    }
    return base;
}

std::string blockDimOpOf(const std::string& key) {
    if (!key.starts_with(kOpPrefix) || !key.ends_with(kBlockDimSuffix) ||
        key.size() <= kOpPrefix.size() + kBlockDimSuffix.size())
        return {};
    return key.substr(kOpPrefix.size(), key.size() - kOpPrefix.size() - kBlockDimSuffix.size());
}

}  // namespace ascendsim
