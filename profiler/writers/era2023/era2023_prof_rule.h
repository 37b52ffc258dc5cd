#pragma once
// summary/prof_rule_{device}.json of the 2023 (CANN 6/7) export: msprof's tuning advice, computed
// from the run's op_summary table as the Python msprof computes its tuning data.
//
// Source: Ascend/msprof analysis/ (the writer of this file is not public, its reader is):
// - viewer/tuning_view.py reads summary/prof_rule_{dev}.json and takes its "data" object;
// - tuning/base_tuning_view.py walks data[tuning type] -> items with "Rule Type" and "result",
//   each result with "Rule Subtype", "Rule Suggestion", "Tuning Data";
// - common_func/common_prof_rule.py names the keys, tuning types ("Op Summary", "Op Parallel",
//   "Model Summary") and rule descriptions;
// - tuning/data_manager.py computes the tuning data: Op Parallel = AI Core / AI CPU execution
//   times outside their overlap (AI_CORE and AI_CPU op_summary rows, merged intervals), reported
//   when AI CPU exceeds 5 % ("experience threshold 5%"); Model Summary = the task durations summed
//   by each AI Core operator's bound type (the largest of its cube/vector/scalar/MTE ratios), only
//   with PipeUtilization metrics.
// Assumed (no public source): the "Op Summary" rules (their rule file is not public: always an
// empty list), the wording of the suggestions, and that Model Summary is always reported when
// computable.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/format/csv_writer.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

// The document for an op_summary table (buildOpSummaryTable's, cells as values).
OrderedJson buildEra2023ProfRule(const CsvTable& opSummary, const ProfilerConfig& config);

// json.dumps of it (compact, Python separators).
std::string renderEra2023ProfRule(const CsvTable& opSummary, const ProfilerConfig& config);

}  // namespace ascendsim
