#pragma once
// Anomalies seen in real profiling data that a robust parser must survive (`--quirks LIST`,
// docs/ci.md lists each with the real sample or report that shows it). Quirks are applied to the
// output only: they never change what is simulated, and none is on by default.
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ascendsim {

enum class Quirk : std::uint8_t {
    CutRanks,               // odd ranks keep only the DBs, communication*.json, step_trace_time.csv
    SpreadsheetTimestamps,  // memory_record.csv timestamps as a spreadsheet re-saves them: 1.69512E+15
    LfEndings,              // CSV rows end in LF instead of torch_npu's CRLF
    NoOpStatistic,          // op_statistic.csv missing
    EmptyCommunication,     // communication.json / communication_matrix.json hold no operator
    InterruptedStep,        // the profiler stopped halfway through the last recorded step
    ClockSkew,              // each rank's clock offset from rank 0's
    MissingInfoJson,        // profiler_info*.json missing
};

using QuirkSet = std::set<Quirk>;

std::string_view quirkName(Quirk q);  // "cut-ranks"
std::vector<Quirk> allQuirks();

// Comma-separated quirk names; empty text is no quirk. Throws std::invalid_argument naming the
// unknown one and listing the valid names.
QuirkSet parseQuirks(const std::string& text);

}  // namespace ascendsim
