#pragma once
// The CANN PROF_* directory inside an *_ascend_pt directory (formats.md §1.5):
//
//   PROF_{6-digit sequence}_{17-digit local ts}_{[0-9A-Z]+}/
//     host/      info.json, start_info, end_info, sample.json, host_start.log
//     device_{id}/ info.json.{id}, start_info.{id}, end_info.{id}, sample.json, dev_start.log.{id}
//     mindstudio_profiler_output/   (only with data_simplification=False)
//       op_summary_{ts}.csv, op_statistic_{ts}.csv, task_time_{ts}.csv, api_statistic_{ts}.csv,
//       l2_cache_{ts}.csv, aicpu_{ts}.csv (when they have rows), msprof_{ts}.json (when the caller
//       passes the timeline text)
//     mindstudio_profiler_log/      (with the export) collection_host.log, collection_device_{id}.log
//
//     host/data/, device_{id}/data/   raw records (E2E, or data_simplification=False;
//                                      profiler/writers/prof_raw/)
//
// Every file is a pure function of the RunRecord, the ProfilerConfig and the caller's names.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

// Deterministic name parts, chosen by the caller (directory assembly).
struct ProfTreeNames {
    std::uint32_t sequence = 1;     // printed with 6 digits
    std::string timestamp17;        // local YYYYmmddHHMMSSmmm of collection start
    std::string suffix;             // [0-9A-Z]{5,20}; see profDirectorySuffix
    std::string exportTimestamp14;  // local YYYYmmddHHMMSS of the export (mindstudio file names)
};

// "PROF_000001_20250109101435646_FKFLNPEPPRRCFCBA".
std::string profDirectoryName(const ProfTreeNames& names);

// A 16-letter [A-Z] suffix derived from the run's host name, pid, device and epoch (stable for the
// same run, different across runs), standing in for msprof's random one.
std::string profDirectorySuffix(const RunRecord& run);

// msprof's chip id of the chip (info.json platform_version): "1" 910A, "4" 310P, "5" 910B/910_93.
std::string msprofPlatformVersion(const ChipConfig& chip);

// File texts (no trailing newline on JSON, as msprof writes them).
std::string renderHostInfoJson(const RunRecord& run);
std::string renderDeviceInfoJson(const RunRecord& run);
// sample.json: the collection switches msprof recorded (compact JSON); `resultDir` is relative to
// the *_ascend_pt directory ("PROF_…/device_0/") so the bytes do not depend on where output goes.
// A "…/host/" directory's devices is "64", msprof's host id (so is host/info.json's).
std::string renderSampleJson(const RunRecord& run, const ProfilerConfig& config, const std::string& resultDir);
// start_info / end_info: {"collectionDateBegin": …, "collectionTimeBegin": "<µs>", "clockMonotonicRaw": "<ns>"}
// with the same wall/monotonic relation as profiler_info.json's start/end_info.
std::string renderStartInfo(const RunRecord& run, std::uint64_t collectionStartNs);
std::string renderEndInfo(const RunRecord& run, std::uint64_t collectionEndNs);
// host_start.log / dev_start.log.{id}: "[Host]"/"[Device]" section with clock_monotonic_raw and
// cntvct (the hwts counter at hwtsFreqMhz).
std::string renderStartLog(const RunRecord& run, std::uint64_t collectionStartNs, bool host);

// Whether writeProfTree exports mindstudio_profiler_output/ (and so uses the msprof_*.json text):
// a kept collection outside the 2023 era. Callers skip rendering that text otherwise.
bool profTreeExportsSummaries(const ProfilerConfig& config);

// Writes the PROF_* directory under `parentDir` and returns its path. `msprofTimelineJson` is the
// already built msprof_{ts}.json text (from the timeline writer); without it no msprof_*.json is
// written. Throws std::runtime_error when a file cannot be written.
std::filesystem::path writeProfTree(const std::filesystem::path& parentDir, const RunRecord& run,
                                    const ProfilerConfig& config, const ProfTreeNames& names,
                                    const std::optional<std::string>& msprofTimelineJson = std::nullopt);

}  // namespace ascendsim
