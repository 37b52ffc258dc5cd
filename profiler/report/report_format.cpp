#include "profiler/report/report_format.h"

#include <cstdio>

namespace ascendsim {

std::string formatNumber(const char* pattern, double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, pattern, value);
    return buffer;
}

std::string percentChange(double base, double variant) {
    if (variant == base) return "0.0%";
    if (base == 0.0) return "new";
    return formatNumber("%+.1f%%", (variant - base) / base * 100.0);
}

}  // namespace ascendsim
