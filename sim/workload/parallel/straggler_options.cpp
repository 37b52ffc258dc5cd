#include "sim/workload/parallel/straggler_options.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace ascendsim {

namespace {

double parseNumber(const std::string& text, const std::string& what) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size())
        throw std::invalid_argument(what + " '" + text + "' is not a number");
    return value;
}
}  // namespace

void parseSlowRanks(const std::string& text, StragglerOptions& out) {
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos)
            throw std::invalid_argument("expected RANK:FACTOR (e.g. 3:1.2), got '" + item + "'");
        const std::string rankText = item.substr(0, colon);
        if (rankText.empty() || rankText.find_first_not_of("0123456789") != std::string::npos ||
            rankText.size() > 9)
            throw std::invalid_argument("rank '" + rankText + "' is not a rank number");
        const double factor = parseNumber(item.substr(colon + 1), "factor");
        if (!(factor >= 1.0 && factor <= 100.0))
            throw std::invalid_argument("factor " + item.substr(colon + 1) + " must be in 1..100 (how many times slower)");
        out.slowRanks[static_cast<std::uint32_t>(std::stoul(rankText))] = factor;
        start = comma + 1;
    }
}

double parseHostJitter(const std::string& text) {
    const double value = parseNumber(text, "host_jitter");
    if (!(value >= 0.0 && value <= 1e6))
        throw std::invalid_argument("host_jitter " + text + " must be microseconds in 0..1000000");
    return value;
}

}  // namespace ascendsim
