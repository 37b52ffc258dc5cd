#pragma once
// analysis.db's communication tables (formats.md §5.2; torch_npu _communication_db_parser.py):
// CommAnalyzerTime, CommAnalyzerBandwidth and CommAnalyzerMatrix hold communication.json and
// communication_matrix.json as rows, per step; Level1/2 with collectives, like those files.
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"

namespace ascendsim {

struct CommunicationAnalysisRows {
    std::vector<std::vector<DbValue>> time;
    std::vector<std::vector<DbValue>> bandwidth;
    std::vector<std::vector<DbValue>> matrix;
    bool empty() const { return time.empty(); }
};

CommunicationAnalysisRows buildCommunicationAnalysisRows(const RunRecord& run,
                                                         const ProfilerConfig& config);

// Creates the three tables (schemas of the e5a31957 Level1 analysis.db) and fills them.
void writeCommunicationAnalysisTables(DbFile& db, const CommunicationAnalysisRows& rows);

}  // namespace ascendsim
