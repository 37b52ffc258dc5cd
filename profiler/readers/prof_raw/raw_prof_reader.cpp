#include "profiler/readers/prof_raw/raw_prof_reader.h"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace ascendsim {

namespace {

std::string readBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw RawDataError(path.string(), 0, "cannot be read");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

nlohmann::json readJson(const fs::path& path) {
    if (!fs::is_regular_file(path)) throw RawDataError(path.string(), 0, "missing");
    try {
        return nlohmann::json::parse(readBytes(path));
    } catch (const nlohmann::json::parse_error& e) {
        throw RawDataError(path.string(), e.byte == 0 ? 0 : e.byte - 1, "not JSON");
    }
}

std::string field(const nlohmann::json& j, const char* key, const fs::path& path) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string())
        throw RawDataError(path.string(), 0, std::string("no string field '") + key + "'");
    return j[key].get<std::string>();
}

std::uint64_t number(const std::string& text, const fs::path& path, std::size_t offset, const char* what) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
        throw RawDataError(path.string(), offset, std::string(what) + " '" + text + "' is not a number");
    try {
        return std::stoull(text);
    } catch (const std::out_of_range&) {
        throw RawDataError(path.string(), offset, std::string(what) + " '" + text + "' is out of range");
    }
}

double frequency(const std::string& text, const fs::path& path) {
    try {
        std::size_t used = 0;
        const double mhz = std::stod(text, &used);
        if (used == text.size() && mhz > 0) return mhz;
    } catch (const std::exception&) {
    }
    throw RawDataError(path.string(), 0, "frequency '" + text + "' is not a positive number");
}

// "clock_monotonic_raw: N" and "cntvct: N" lines.
RawClockPair readStartLog(const fs::path& path, double freqMhz) {
    const std::string text = readBytes(path);
    RawClockPair clock;
    clock.freqMhz = freqMhz;
    bool mono = false, count = false;
    std::size_t offset = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line); offset += line.size() + 1) {
        const std::size_t colon = line.find(": ");
        if (colon == std::string::npos) continue;
        const std::string key = line.substr(0, colon), value = line.substr(colon + 2);
        if (key == "clock_monotonic_raw") clock.monotonicNs = number(value, path, offset, key.c_str()), mono = true;
        if (key == "cntvct") clock.count = number(value, path, offset, key.c_str()), count = true;
    }
    if (!mono || !count) throw RawDataError(path.string(), 0, "needs clock_monotonic_raw and cntvct lines");
    return clock;
}

// Lines "{key}:{name}"; `key` parses the part before the first ':'.
template <typename OnLine>
void readDictionary(const fs::path& path, OnLine onLine) {
    const std::string text = readBytes(path);
    std::size_t offset = 0;
    while (offset < text.size()) {
        std::size_t end = text.find('\n', offset);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(offset, end - offset);
        if (!line.empty()) {
            const std::size_t colon = line.find(':');
            if (colon == std::string::npos) throw RawDataError(path.string(), offset, "dictionary line without ':'");
            onLine(line.substr(0, colon), line.substr(colon + 1), offset);
        }
        offset = end + 1;
    }
}

// The slices of one data file, in slice order ("{name}.slice_{n}").
std::vector<fs::path> slices(const fs::path& dir, const std::string& name) {
    std::vector<std::pair<std::uint64_t, fs::path>> found;
    if (!fs::is_directory(dir)) return {};
    const std::regex pattern(std::regex_replace(name, std::regex(R"([.])"), R"(\.)") + R"(\.slice_(\d+))");
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::smatch m;
        const std::string file = entry.path().filename().string();
        if (std::regex_match(file, m, pattern)) found.emplace_back(std::stoull(m[1].str()), entry.path());
    }
    std::sort(found.begin(), found.end());
    std::vector<fs::path> paths;
    for (auto& [n, p] : found) paths.push_back(p);
    return paths;
}

template <typename Record>
void decodeFiles(const fs::path& dir, const std::string& name, std::vector<Record>& into) {
    for (const fs::path& path : slices(dir, name)) {
        const std::string bytes = readBytes(path);
        RawRecordReader reader(path.string(), bytes);
        for (Record& r : decodeAll<Record>(reader)) into.push_back(std::move(r));
    }
}

fs::path deviceDirectory(const fs::path& root, std::uint32_t& deviceId) {
    std::vector<fs::path> devices;
    for (const auto& entry : fs::directory_iterator(root)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_directory() && name.starts_with("device_")) devices.push_back(entry.path());
    }
    if (devices.size() != 1)
        throw RawDataError(root.string(), 0, "expected one device_{id} directory, found " + std::to_string(devices.size()));
    deviceId = static_cast<std::uint32_t>(number(devices[0].filename().string().substr(7), devices[0], 0, "device id"));
    return devices[0];
}

}  // namespace

RawProfData readRawProfData(const fs::path& profRoot) {
    if (!fs::is_directory(profRoot / "host")) throw RawDataError(profRoot.string(), 0, "not a PROF_* directory (no host/)");
    RawProfData d;
    d.root = profRoot;
    const fs::path host = profRoot / "host";
    const fs::path device = deviceDirectory(profRoot, d.deviceId);
    const std::string id = std::to_string(d.deviceId);

    const nlohmann::json hostInfo = readJson(host / "info.json");
    d.processId = static_cast<std::uint32_t>(number(field(hostInfo, "pid", host / "info.json"), host / "info.json", 0, "pid"));
    if (!hostInfo.contains("CPU") || !hostInfo["CPU"].is_array() || hostInfo["CPU"].empty())
        throw RawDataError((host / "info.json").string(), 0, "no CPU entry");
    const double hostMhz = frequency(field(hostInfo["CPU"][0], "Frequency", host / "info.json"), host / "info.json");
    const nlohmann::json start = readJson(host / "start_info");
    d.collectionTimeBeginUs = number(field(start, "collectionTimeBegin", host / "start_info"), host / "start_info", 0,
                                     "collectionTimeBegin");
    d.startMonotonicNs = number(field(start, "clockMonotonicRaw", host / "start_info"), host / "start_info", 0,
                                "clockMonotonicRaw");
    const nlohmann::json end = readJson(host / "end_info");
    d.endMonotonicNs = number(field(end, "clockMonotonicRaw", host / "end_info"), host / "end_info", 0, "clockMonotonicRaw");
    d.hostClock = readStartLog(host / "host_start.log", hostMhz);

    const fs::path deviceInfoPath = device / ("info.json." + id);
    const nlohmann::json deviceInfo = readJson(deviceInfoPath);
    if (!deviceInfo.contains("DeviceInfo") || !deviceInfo["DeviceInfo"].is_array() || deviceInfo["DeviceInfo"].empty())
        throw RawDataError(deviceInfoPath.string(), 0, "no DeviceInfo entry");
    d.deviceInfo = deviceInfo["DeviceInfo"][0];
    d.platformVersion = field(deviceInfo, "platform_version", deviceInfoPath);
    d.deviceClock = readStartLog(device / ("dev_start.log." + id),
                                 frequency(field(d.deviceInfo, "hwts_frequency", deviceInfoPath), deviceInfoPath));
    d.sample = readJson(device / "sample.json");

    const fs::path hostData = host / "data";
    for (const fs::path& path : slices(hostData, "unaging.additional.type_info_dic")) {
        readDictionary(path, [&](const std::string& key, const std::string& name, std::size_t offset) {
            const std::size_t underscore = key.find('_');
            if (underscore == std::string::npos) throw RawDataError(path.string(), offset, "type key '" + key + "' without '_'");
            const auto level = number(key.substr(0, underscore), path, offset, "level");
            const auto type = number(key.substr(underscore + 1), path, offset, "type");
            d.types[{static_cast<std::uint16_t>(level), static_cast<std::uint32_t>(type)}] = name;
        });
    }
    for (const fs::path& path : slices(hostData, "unaging.additional.hash_dic")) {
        readDictionary(path, [&](const std::string& key, const std::string& name, std::size_t offset) {
            d.hashes[number(key, path, offset, "hash id")] = name;
        });
    }
    decodeFiles(hostData, "unaging.api_event.data", d.apis);
    decodeFiles(hostData, "aging.compact.node_basic_info", d.nodes);
    decodeFiles(hostData, "aging.compact.task_track", d.tracks);
    decodeFiles(hostData, "unaging.additional.tensor_info", d.tensors);
    decodeFiles(hostData, "unaging.additional.context_id_info", d.contextIds);
    decodeFiles(hostData, "unaging.additional.msproftx", d.msprofTx);
    decodeFiles(hostData, "unaging.additional.hccl_info", d.hcclInfo);
    decodeFiles(hostData, "aging.compact.hccl_op_info", d.hcclOpInfo);
    decodeFiles(device / "data", "stars_soc.data." + id, d.taskLog);
    decodeFiles(device / "data", "hwts.data." + id, d.hwtsLog);
    decodeFiles(device / "data", "ffts_profile.data." + id, d.pmu);
    decodeFiles(device / "data", "aicore.data." + id, d.aicorePmu);
    decodeFiles(device / "data", "aicpu.data." + id, d.aicpu);
    decodeFiles(device / "data", "l2_cache.data." + id, d.l2Cache);
    decodeFiles(device / "data", "ts_track.data." + id, d.stepTrace);
    return d;
}

}  // namespace ascendsim
