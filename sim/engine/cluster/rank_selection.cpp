#include "sim/engine/cluster/rank_selection.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace ascendsim {

namespace {

std::uint32_t rankOf(const std::string& item, const std::string& text, std::uint32_t ranks) {
    std::uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        throw std::invalid_argument("'" + item + "' is not a rank or a range of ranks (e.g. 0-7,64)");
    if (value >= ranks)
        throw std::invalid_argument("rank " + text + " is not in 0.." + std::to_string(ranks - 1));
    return value;
}

}  // namespace

std::set<std::uint32_t> parseRankSelection(const std::string& list, std::uint32_t ranks) {
    std::set<std::uint32_t> selected;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        const std::size_t dash = item.find('-');
        const std::uint32_t first = rankOf(item, item.substr(0, dash), ranks);
        const std::uint32_t last = dash == std::string::npos ? first : rankOf(item, item.substr(dash + 1), ranks);
        if (last < first) throw std::invalid_argument("'" + item + "' is a reversed range");
        for (std::uint32_t r = first; r <= last; ++r) selected.insert(r);
        start = comma + 1;
    }
    return selected;
}

}  // namespace ascendsim
