#pragma once
// The human report for performance engineers and learners: where device time goes, which pipe
// bounds each op type, how busy cube/vector/MTE units were, L2 hit rates, host vs device time.
// Everything is derived from the run record's counters; nothing is estimated here.
#include <ostream>
#include <string>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct ReportContext {
    std::uint32_t stepsSimulated = 0;
    double wallSeconds = 0.0;
    std::vector<std::string> chipEdits;  // --chip-set assignments the chip was simulated with
};

void writePerformanceReport(const RunRecord& run, const ReportContext& context, std::ostream& out);

}  // namespace ascendsim
