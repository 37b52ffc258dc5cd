#include "profiler/writers/db/db_hardware_samples.h"

#include "profiler/writers/timeline/hardware_sample_rates.h"

namespace ascendsim {

void writeHardwareSampleTables(DbFile& db, const RunRecord& run, const ProfilerConfig& config,
                               DbStringIds& cannStrings) {
    if (!config.profileMemory || run.hardwareSamples.empty()) return;
    const auto deviceId = static_cast<std::int64_t>(run.deviceId);
    const std::int64_t readId = cannStrings.id("read");
    const std::int64_t writeId = cannStrings.id("write");

    std::vector<std::vector<DbValue>> hbm;
    for (const HardwareTrafficSample& sample : run.hardwareSamples) {
        const auto timestampNs = static_cast<std::int64_t>(run.epochNs + sample.timeNs);
        for (const auto& [bytes, typeId] :
             {std::pair{&sample.hbmReadBytes, readId}, {&sample.hbmWriteBytes, writeId}}) {
            for (std::size_t stack = 0; stack < bytes->size(); ++stack) {
                hbm.push_back({deviceId, timestampNs,
                               dbBytesPerSecond(hbmBandwidth((*bytes)[stack], sample.intervalNs)),
                               static_cast<std::int64_t>(stack), typeId});
            }
        }
    }
    std::vector<std::vector<DbValue>> llc;
    const std::size_t llcCount = run.hardwareSamples.front().llcReadBytes.size();
    for (std::size_t id = 0; id < llcCount; ++id) {
        for (const HardwareTrafficSample& sample : run.hardwareSamples) {
            llc.push_back(
                {deviceId, static_cast<std::int64_t>(id),
                 static_cast<std::int64_t>(run.epochNs + sample.timeNs),
                 percentOf(llcHitRatio(sample.llcReadHits[id], sample.llcReadMisses[id])),
                 dbBytesPerSecond(llcThroughput(sample.llcReadBytes[id], sample.intervalNs)),
                 readId});
        }
    }
    if (!hbm.empty()) {  // chips with LPDDR main memory have no HBM table
        db.execute(
            "CREATE TABLE HBM (deviceId INTEGER,timestampNs INTEGER,bandwidth NUMERIC,hbmId "
            "INTEGER,type INTEGER)");
        db.insertRows("HBM", hbm);
    }
    db.execute(
        "CREATE TABLE LLC (deviceId INTEGER,llcId INTEGER,timestampNs INTEGER,hitRate REAL,"
        "throughput INTEGER,mode INTEGER)");
    db.insertRows("LLC", llc);
}

}  // namespace ascendsim
