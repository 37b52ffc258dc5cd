#include "profiler/writers/prof_raw/raw_prof_data.h"

#include "profiler/format/file_output.h"
#include "profiler/writers/prof_raw/raw_device_data.h"
#include "profiler/writers/prof_raw/raw_hccl_data.h"
#include "profiler/writers/prof_raw/raw_host_data.h"
#include "profiler/writers/prof_raw/raw_msproftx.h"
#include "profiler/writers/prof_raw/raw_type_dictionary.h"

namespace ascendsim {

namespace {

void writeAll(const std::filesystem::path& dir, const std::map<std::string, std::string>& files) {
    if (files.empty()) return;
    std::filesystem::create_directories(dir);
    for (const auto& [name, bytes] : files) writeFileBytes(dir / name, bytes);
}

}  // namespace

void writeRawProfData(const std::filesystem::path& profRoot, const RunRecord& run, const ProfilerConfig& config) {
    RawTypeDictionary dictionary;
    std::map<std::string, std::string> host = rawHostDataFiles(run, config, dictionary);
    // HCCL's context_id_info records follow GE's in the same file.
    for (auto& [name, bytes] : rawHcclDataFiles(run, config, dictionary)) host[name] += bytes;
    const std::string msprofTx = rawMsprofTxRecords(run, dictionary);
    if (!msprofTx.empty()) host["unaging.additional.msproftx.slice_0"] = msprofTx;
    const std::string typeInfo = dictionary.typeInfoText();
    const std::string hashes = dictionary.hashText();
    if (!typeInfo.empty()) host["unaging.additional.type_info_dic.slice_0"] = typeInfo;
    if (!hashes.empty()) host["unaging.additional.hash_dic.slice_0"] = hashes;
    writeAll(profRoot / "host" / "data", host);
    writeAll(profRoot / ("device_" + std::to_string(run.deviceId)) / "data", rawDeviceDataFiles(run, config));
}

}  // namespace ascendsim
