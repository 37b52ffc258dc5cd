#pragma once
// `ascendsim replay --html FILE`: the replay as one self-contained page (profiler/report/html):
// simulated vs real µs of every replayed kernel on log-log axes, one colour per op family, with
// y = x and the ±20 % band drawn as lines; per family the median abs error and the share within
// ±20 % as bars; every replayed kernel in a table, furthest from real (|log sim/real|) first (the
// scatter's points link to their rows); and the kernels not replayed with their reasons. The
// charting library is inline, so the file opens offline.
#include <ostream>

#include "sim/replay/report/replay_report.h"

namespace ascendsim {

// Throws std::runtime_error when the build has no charting library (HtmlPage::write).
void writeReplayHtml(const ReplayReport& report, std::ostream& out);

}  // namespace ascendsim
