#include "profiler/writers/tree/export_log.h"

#include <algorithm>
#include <string>
#include <vector>

#include "profiler/format/file_output.h"
#include "profiler/record/local_time.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

// "2025-11-27 12:00:00" from the 17-digit stamp.
std::string logTime(const RunRecord& run) {
    const std::string t = localTimestamp17(run, run.endNs);
    return t.substr(0, 4) + "-" + t.substr(4, 2) + "-" + t.substr(6, 2) + " " + t.substr(8, 2) + ":" +
           t.substr(10, 2) + ":" + t.substr(12, 2);
}

// The exported files under `dir` (recursively), as paths relative to `profRoot`, sorted.
std::vector<fs::path> exportedFiles(const fs::path& profRoot, const fs::path& dir) {
    std::vector<fs::path> files;
    if (!fs::is_directory(dir)) return files;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
        if (entry.is_regular_file()) files.push_back(fs::relative(entry.path(), profRoot));
    std::sort(files.begin(), files.end());
    return files;
}

class LogText {
public:
    explicit LogText(std::string time) : time_(std::move(time)) {}
    void info(const std::string& text) { text_ += time_ + " [INFO] [ascendsim export] - " + text + "\n"; }
    void files(const fs::path& profRoot, const std::vector<fs::path>& dirs) {
        for (const fs::path& dir : dirs)
            for (const fs::path& file : exportedFiles(profRoot, profRoot / dir))
                info("Wrote " + file.generic_string() + ", " + std::to_string(fs::file_size(profRoot / file)) +
                     " bytes.");
    }
    const std::string& text() const { return text_; }

private:
    std::string time_;
    std::string text_;
};

}  // namespace

void writeExportLog(const fs::path& profRoot, const RunRecord& run) {
    const fs::path logDir = profRoot / "mindstudio_profiler_log";
    fs::create_directories(logDir);
    const std::string device = "device_" + std::to_string(run.deviceId);

    LogText host(logTime(run));
    host.info("Host data: " + std::to_string(run.apis.size()) + " API records, " +
              std::to_string(run.mstxEvents.size()) + " MsprofTx records, " + std::to_string(run.hostOps.size()) +
              " framework ops.");
    host.files(profRoot, {"host/summary", "host/timeline", "analyze"});
    host.info("Host export finished.");
    writeFileBytes(logDir / "collection_host.log", host.text());

    LogText dev(logTime(run));
    dev.info("Device " + std::to_string(run.deviceId) + " data: " + std::to_string(run.kernels.size()) +
             " kernel tasks, " + std::to_string(run.memcpyTasks.size()) + " memcpy tasks, " +
             std::to_string(run.communicationOps.size()) + " communication ops.");
    dev.files(profRoot, {fs::path(device) / "summary", fs::path(device) / "timeline", "mindstudio_profiler_output"});
    dev.info("Device " + std::to_string(run.deviceId) + " export finished.");
    writeFileBytes(logDir / ("collection_" + device + ".log"), dev.text());
}

}  // namespace ascendsim
