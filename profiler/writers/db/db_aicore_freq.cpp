#include "profiler/writers/db/db_aicore_freq.h"

#include "profiler/record/collection_span.h"

namespace ascendsim {

void writeAiCoreFreqTable(DbFile& db, const RunRecord& run) {
    if (run.chip == nullptr || run.chip->aiCoreFreqMhz <= 0.0) return;
    const auto [first, last] = deviceCollectionSpan(run);
    const auto device = static_cast<std::int64_t>(run.deviceId);
    const auto mhz = static_cast<std::int64_t>(run.chip->aiCoreFreqMhz);
    std::vector<std::vector<DbValue>> rows = {
        {device, static_cast<std::int64_t>(run.epochNs + first), mhz}};
    if (last > first) rows.push_back({device, static_cast<std::int64_t>(run.epochNs + last), mhz});
    db.execute("CREATE TABLE AICORE_FREQ (deviceId INTEGER,timestampNs NUMERIC,freq INTEGER)");
    db.insertRows("AICORE_FREQ", rows);
}

}  // namespace ascendsim
