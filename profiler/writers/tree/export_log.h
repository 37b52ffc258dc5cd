#pragma once
// PROF_*/mindstudio_profiler_log/: the export's own log (formats.md §1.5). msprof keeps one file
// per part of the collection, collection_host.log and collection_device_{id}.log, of lines
// "YYYY-mm-dd HH:MM:SS [LEVEL] [source] - text" that say what its analysis read and wrote (seen in
// msprof's export of ascendsim raw data, docs/e2e-profiling.md). ascendsim writes the same files
// and line form with its own steps: the records it exported and each file it wrote with its size,
// so a reader of a kept collection finds the folder and a true account of the export in it.
// The time printed is the collection's end (the run's epoch), so the bytes are deterministic.
#include <filesystem>

#include "profiler/record/run_record.h"

namespace ascendsim {

// Writes the two log files after an export into `profRoot` (a PROF_* directory): it lists what
// exists under mindstudio_profiler_output/, analyze/, host/{summary,timeline} and
// device_{id}/{summary,timeline} at the time of the call.
void writeExportLog(const std::filesystem::path& profRoot, const RunRecord& run);

}  // namespace ascendsim
