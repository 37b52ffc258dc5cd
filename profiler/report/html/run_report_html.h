#pragma once
// `--html FILE` of a run: the HTML twin of the text report. Step time split, top kernels with their
// bound pipe, sortable per-op-type and per-core-type tables, pipe utilisation bars, L2 hit rate and
// bandwidths, and the chip's roofline with every kernel as a point linking to its table row.
#include <ostream>
#include <string>

#include "profiler/record/run_record.h"

namespace ascendsim {

// Needs run.chip. Throws std::runtime_error without a charting library (HtmlPage::write).
void writeRunReportHtml(const RunRecord& run, const std::string& title, std::ostream& out);

}  // namespace ascendsim
