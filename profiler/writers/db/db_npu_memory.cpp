#include "profiler/writers/db/db_npu_memory.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "profiler/writers/db/db_cann_enums.h"
#include "profiler/writers/db/db_global_tid.h"

namespace ascendsim {

namespace {

// Device virtual addresses of GE's pool in the e5a31957 sample lie just above 0x12C0'0000'0000.
constexpr std::uint64_t kGeAddressBase = 0x12C000000000ULL;
// GE hands out 512-byte aligned blocks (the smallest sizes in the sample are 512).
constexpr std::uint64_t kGeAddressAlignment = 512;

// GE allocates inside the kernel launch: the thread of the Node@launch calls.
std::uint32_t launchThreadId(const RunRecord& run) {
    for (const ApiRecord& api : run.apis) {
        if (api.level == ApiLevel::Node) return api.threadId;
    }
    return run.mainThreadId;
}

std::vector<std::vector<DbValue>> npuMemRows(const RunRecord& run, DbStringIds& cannStrings) {
    const std::int64_t app = cannStrings.id("app");
    cannStrings.id("device");
    std::vector<std::vector<DbValue>> rows;
    for (const AppMemorySample& sample : run.appMemory) {
        rows.push_back({app, std::int64_t{0}, sample.bytes,
                        static_cast<std::int64_t>(run.epochNs + sample.timeNs),
                        static_cast<std::int64_t>(run.deviceId)});
    }
    return rows;
}

std::vector<std::vector<DbValue>> npuModuleMemRows(const RunRecord& run) {
    struct ModuleSample {
        std::int64_t moduleId;
        const ModuleMemorySample* sample;
    };
    std::vector<ModuleSample> samples;
    for (const ModuleMemorySample& s : run.moduleMemory) {
        const std::int64_t id = cannModuleId(s.component);
        if (id >= 0) samples.push_back({id, &s});
    }
    // CANN writes each sample's modules together: by time, then module id.
    std::stable_sort(
        samples.begin(), samples.end(), [](const ModuleSample& a, const ModuleSample& b) {
            return a.sample->timeNs != b.sample->timeNs ? a.sample->timeNs < b.sample->timeNs
                                                        : a.moduleId < b.moduleId;
        });
    std::vector<std::vector<DbValue>> rows;
    for (const auto& [moduleId, s] : samples) {
        // CANN reports whole KB (npu_module_mem.csv shows KB / 1024); a negative value is KB
        // already.
        const std::int64_t kb = s->reservedBytes < 0 ? s->reservedBytes : s->reservedBytes / 1024;
        rows.push_back({moduleId, static_cast<std::int64_t>(run.epochNs + s->timeNs), kb * 1024,
                        static_cast<std::int64_t>(run.deviceId)});
    }
    return rows;
}

}  // namespace

std::vector<GeMemoryEvent> geMemoryEvents(const RunRecord& run) {
    // Every allocation and release geOpMemory describes, keyed as the geMemory sample it produced.
    using SampleKey = std::tuple<std::uint64_t, std::int64_t, std::int64_t>;
    std::multimap<SampleKey, GeMemoryEvent> candidates;
    std::uint64_t nextAddr = kGeAddressBase;
    for (const GeOpMemoryRecord& op : run.geOpMemory) {
        GeMemoryEvent allocation{op.name,
                                 nextAddr,
                                 false,
                                 op.sizeBytes,
                                 static_cast<std::int64_t>(run.epochNs + op.allocationNs),
                                 op.allocationTotalAllocated,
                                 op.allocationTotalReserved};
        GeMemoryEvent release = allocation;
        release.release = true;
        release.timestampNs += static_cast<std::int64_t>(op.durationNs);
        release.totalAllocatedBytes = op.releaseTotalAllocated;
        release.totalReservedBytes = op.releaseTotalReserved;
        const auto size = static_cast<std::uint64_t>(std::max<std::int64_t>(op.sizeBytes, 1));
        nextAddr += (size + kGeAddressAlignment - 1) / kGeAddressAlignment * kGeAddressAlignment;
        candidates.emplace(
            SampleKey{op.allocationNs, op.allocationTotalAllocated, op.allocationTotalReserved},
            allocation);
        candidates.emplace(SampleKey{op.allocationNs + op.durationNs, op.releaseTotalAllocated,
                                     op.releaseTotalReserved},
                           release);
    }
    std::vector<GeMemoryEvent> events;
    for (const GeMemorySample& sample : run.geMemory) {
        const auto it =
            candidates.find({sample.timeNs, sample.totalAllocatedBytes, sample.totalReservedBytes});
        if (it == candidates.end()) continue;  // a release whose allocation the run did not keep
        events.push_back(it->second);
        candidates.erase(it);
    }
    return events;
}

void writeNpuMemoryTables(DbFile& db, const RunRecord& run,
                          const std::vector<GeMemoryEvent>& geEvents, DbStringIds& cannStrings) {
    const auto npuMem = npuMemRows(run, cannStrings);
    if (!npuMem.empty()) {
        db.execute(
            "CREATE TABLE NPU_MEM (type INTEGER,ddr NUMERIC,hbm NUMERIC,timestampNs "
            "INTEGER,deviceId INTEGER)");
        db.insertRows("NPU_MEM", npuMem);
    }
    const auto moduleMem = npuModuleMemRows(run);
    if (!moduleMem.empty()) {
        db.execute(
            "CREATE TABLE NPU_MODULE_MEM (moduleId INTEGER,timestampNs INTEGER,totalReserved "
            "NUMERIC,"
            "deviceId INTEGER)");
        db.insertRows("NPU_MODULE_MEM", moduleMem);
    }
    if (geEvents.empty()) return;
    const std::int64_t component = cannStrings.id("GE");
    const std::int64_t tid = dbGlobalTid(run, launchThreadId(run));
    std::vector<std::vector<DbValue>> rows;
    for (const GeMemoryEvent& e : geEvents) {
        rows.push_back({cannStrings.id(e.operatorName), static_cast<std::int64_t>(e.addr),
                        cannStrings.id(e.release ? "release" : "allocate"), e.sizeBytes,
                        e.timestampNs, tid, e.totalAllocatedBytes, e.totalReservedBytes, component,
                        static_cast<std::int64_t>(run.deviceId)});
    }
    db.execute(
        "CREATE TABLE NPU_OP_MEM (operatorName INTEGER,addr INTEGER,type INTEGER,size INTEGER,"
        "timestampNs INTEGER,globalTid INTEGER,totalAllocate NUMERIC,totalReserve "
        "NUMERIC,component INTEGER,"
        "deviceId INTEGER)");
    db.insertRows("NPU_OP_MEM", rows);
}

}  // namespace ascendsim
