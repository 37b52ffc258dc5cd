#include "profiler/record/local_time.h"

#include <chrono>
#include <cstdio>

namespace ascendsim {

std::string localTimestamp17(const RunRecord& run, std::uint64_t simNs) {
    using namespace std::chrono;
    const std::int64_t wallNs = static_cast<std::int64_t>(run.epochNs + simNs) + run.utcOffsetSeconds * 1'000'000'000LL;
    const auto tp = sys_time<nanoseconds>(nanoseconds(wallNs));
    const auto day = floor<days>(tp);
    const year_month_day ymd(day);
    const hh_mm_ss<nanoseconds> hms(tp - day);
    char text[32];
    std::snprintf(text, sizeof text, "%04d%02u%02u%02ld%02ld%02lld%03lld", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<long>(hms.hours().count()), static_cast<long>(hms.minutes().count()),
                  static_cast<long long>(hms.seconds().count()),
                  static_cast<long long>(duration_cast<milliseconds>(hms.subseconds()).count()));
    return text;
}

}  // namespace ascendsim
