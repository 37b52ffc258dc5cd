#pragma once
// Reads the raw data of a PROF_* directory, as ascendsim's collection writes it
// (profiler/writers/prof_raw/): the host's and the device's binary records, decoded with the same
// layout definitions the writers encode with (raw_layouts.h), the two dictionaries that name their
// numbers, and the metadata files that give the clock and the collection's switches. It is the
// first half of `ascendsim msprof --export=on --output=PROF_DIR` (raw_run_rebuild.h is the second).
//
// Bad data stops with RawDataError naming the file and the byte offset of the bad record (a record
// cut short, a wrong magic number, an unknown func type, a dictionary line without its separator,
// a metadata file that is not JSON or lacks a field); nothing is returned in part.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "profiler/writers/prof_raw/raw_layouts.h"

namespace ascendsim {

// A system counter paired with clock_monotonic_raw (host_start.log / dev_start.log.{id}).
struct RawClockPair {
    std::uint64_t monotonicNs = 0;
    std::uint64_t count = 0;
    double freqMhz = 0.0;  // info.json: CPU[0].Frequency (host), DeviceInfo hwts_frequency (device)
};

struct RawProfData {
    std::filesystem::path root;
    std::uint32_t deviceId = 0;
    std::uint32_t processId = 0;                 // host/info.json "pid"
    std::uint64_t collectionTimeBeginUs = 0;     // host/start_info: wall clock at collection start
    std::uint64_t startMonotonicNs = 0;          // host/start_info clockMonotonicRaw
    std::uint64_t endMonotonicNs = 0;            // host/end_info clockMonotonicRaw
    RawClockPair hostClock, deviceClock;
    nlohmann::json sample;      // device_{id}/sample.json: the collection's switches
    nlohmann::json deviceInfo;  // device_{id}/info.json.{id} DeviceInfo[0]: the chip's counts and clocks
    std::string platformVersion;

    std::map<std::pair<std::uint16_t, std::uint32_t>, std::string> types;  // type_info_dic
    std::map<std::uint64_t, std::string> hashes;                             // hash_dic

    std::vector<RawApiEvent> apis;
    std::vector<RawNodeBasicInfo> nodes;
    std::vector<RawTaskTrack> tracks;
    std::vector<RawTensorInfo> tensors;
    std::vector<RawContextIdInfo> contextIds;  // MIX kernels' FFTS+ context ids
    std::vector<RawMsprofTx> msprofTx;
    std::vector<RawHcclInfo> hcclInfo;      // one per HCCL task
    std::vector<RawHcclOpInfo> hcclOpInfo;  // one per collective
    std::vector<RawStarsLog> taskLog;  // stars_soc (910B-class chips)
    std::vector<RawHwtsLog> hwtsLog;     // hwts.data (910A)
    std::vector<RawFftsPmu> pmu;      // ffts_profile
    std::vector<RawAicPmu> aicorePmu;    // aicore.data (910A)
    std::vector<RawAicpuNode> aicpu;     // aicpu.data
    std::vector<RawL2Cache> l2Cache;     // l2_cache.data
    std::vector<RawStepTrace> stepTrace; // ts_track.data
};

// Reads `profRoot` (a PROF_* directory with host/ and one device_{id}/). Throws RawDataError.
RawProfData readRawProfData(const std::filesystem::path& profRoot);

}  // namespace ascendsim
