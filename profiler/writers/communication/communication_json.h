#pragma once
// ASCEND_PROFILER_OUTPUT/communication.json (formats.md §3.10): per step, each collective's time
// split and bandwidth per transport, and torch_npu's "Total Op Info". Level1/2 with collectives.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

// Empty when the file is not written (Level0/Level_none, no NPU activity, no collective).
std::string renderCommunicationJson(const RunRecord& run, const ProfilerConfig& config);

bool writeCommunicationJson(const std::filesystem::path& outputDir, const RunRecord& run,
                            const ProfilerConfig& config);

// {"step<N>": {"p2p": {}, "collective": collectiveOf(the step's ops)}, ...} as json.dumps prints it
// (the frame both communication files share).
std::string renderCommunicationSteps(
    const RunRecord& run,
    const std::function<OrderedJson(const std::vector<const CommunicationOpRecord*>&)>&
        collectiveOf);

// Writes `text` to `path` unless it is empty (the file is not produced); false when not written.
bool writeCommunicationFile(const std::filesystem::path& path, const std::string& text);

// The communication files' condition (formats.md §1.6): Level1/2, NPU activity, a collective.
bool writesCommunicationFiles(const RunRecord& run, const ProfilerConfig& config);

}  // namespace ascendsim
