#include "profiler/quirks/quirk_set.h"

#include <array>
#include <stdexcept>

namespace ascendsim {

namespace {
constexpr std::array<std::string_view, 8> kQuirkNames = {
    "cut-ranks",          "spreadsheet-timestamps", "lf-endings",  "no-op-statistic",
    "empty-communication", "interrupted-step",      "clock-skew",  "missing-info-json"};
}  // namespace

std::string_view quirkName(Quirk q) { return kQuirkNames[static_cast<std::size_t>(q)]; }

std::vector<Quirk> allQuirks() {
    std::vector<Quirk> quirks;
    for (std::size_t i = 0; i < kQuirkNames.size(); ++i) quirks.push_back(static_cast<Quirk>(i));
    return quirks;
}

QuirkSet parseQuirks(const std::string& text) {
    QuirkSet quirks;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        const std::string_view item(text.data() + start, comma - start);
        start = comma + 1;
        if (item.empty()) continue;
        bool known = false;
        for (Quirk q : allQuirks()) {
            if (quirkName(q) == item) {
                quirks.insert(q);
                known = true;
            }
        }
        if (!known) {
            std::string valid;
            for (Quirk q : allQuirks()) {
                if (!valid.empty()) valid += ", ";
                valid += quirkName(q);
            }
            throw std::invalid_argument("--quirks: unknown quirk '" + std::string(item) + "' (valid: " + valid + ")");
        }
    }
    return quirks;
}

}  // namespace ascendsim
