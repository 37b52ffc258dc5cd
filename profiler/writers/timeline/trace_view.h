#pragma once
// trace_view.json (formats.md §3.5): a Chrome-trace JSON array, written the way torch_npu writes
// it: the framework events (torch ops, task queue, fwd/bwd flows, thread metadata, Python calls)
// first, then the CANN msprof timeline (pruned at Level0), then the torch_to_npu flows. Compact
// json.dumps text, `ts` as 3-decimal µs strings, `dur` numbers, no trailing newline.
#include <filesystem>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/timeline/trace_event.h"

namespace ascendsim {

// Framework events (empty without CPU activity).
std::vector<TraceEvent> buildFrameworkTraceEvents(const RunRecord& run, const ProfilerConfig& config);

// torch_to_npu flows: "s" at the launching torch op (its thread and start), "f" on the kernel's
// Ascend Hardware pid/stream/ts; id = the kernel start in absolute ns. Needs CPU and NPU activity.
std::vector<TraceEvent> buildTorchToNpuFlows(const RunRecord& run, const ProfilerConfig& config);

// The file text given the msprof timeline of the same run.
std::string renderTraceView(const RunRecord& run, const ProfilerConfig& config,
                            const std::vector<TraceEvent>& msprofTimeline);

// export_chrome_trace(path): only trace_view, written to `path` with the profiler's file mode 0640
// (torch_npu's FileManager creates its JSON files so), throws on I/O errors.
void writeChromeTrace(const std::filesystem::path& path, const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
