#include "profiler/writers/db/db_framework_memory.h"

#include <map>
#include <optional>
#include <utility>

#include "profiler/writers/memory/operator_memory.h"

namespace ascendsim {

namespace {

// One MEMORY_RECORD row before it becomes DbValues; streamPtr nullopt is NULL.
struct MemoryTotals {
    std::int64_t component = 0;
    std::int64_t timestampNs = 0;
    std::int64_t allocated = 0, reserved = 0, active = 0;
    std::optional<std::int64_t> streamPtr;
};

std::vector<DbValue> memoryRecordRow(const MemoryTotals& t, std::int64_t deviceId) {
    std::vector<DbValue> row = {t.component, t.timestampNs, t.allocated, t.reserved,
                                t.active,    DbNull{},      deviceId};
    if (t.streamPtr) row[5] = *t.streamPtr;
    return row;
}

class MemoryRecordMerge {
  public:
    MemoryRecordMerge(DbStringIds& strings, std::int64_t deviceId)
        : strings_(strings), deviceId_(deviceId) {}

    // `record` then its PTA+GE partner (none for WORKSPACE); `other` is the other side's latest.
    void add(const MemoryTotals& record, const std::optional<MemoryTotals>& other, bool workspace) {
        rows_.push_back(memoryRecordRow(record, deviceId_));
        if (workspace) return;
        MemoryTotals sum = record;
        sum.component = strings_.id("PTA+GE");
        if (other) {
            sum.allocated += other->allocated;
            sum.reserved += other->reserved;
            sum.active += other->active;
            if (!sum.streamPtr || *sum.streamPtr == 0) sum.streamPtr = other->streamPtr;
        }
        rows_.push_back(memoryRecordRow(sum, deviceId_));
    }
    std::vector<std::vector<DbValue>>& rows() { return rows_; }

  private:
    DbStringIds& strings_;
    std::int64_t deviceId_;
    std::vector<std::vector<DbValue>> rows_;
};

std::vector<std::vector<DbValue>> memoryRecordRows(const RunRecord& run,
                                                   const std::vector<GeMemoryEvent>& geEvents,
                                                   DbStringIds& strings) {
    std::vector<MemoryTotals> ge;
    if (!geEvents.empty()) {
        const std::int64_t component = strings.id("GE");
        for (const GeMemoryEvent& e : geEvents) {
            ge.push_back({component, e.timestampNs, e.totalAllocatedBytes, e.totalReservedBytes, 0,
                          std::nullopt});
        }
    }
    std::vector<std::pair<MemoryTotals, bool>> pta;  // record, is workspace
    for (const MemoryEventRecord& e : run.memoryEvents) {
        const bool workspace = e.component == MemoryComponent::Workspace;
        pta.push_back({{strings.id(workspace ? "WORKSPACE" : "PTA"),
                        static_cast<std::int64_t>(run.epochNs + e.timeNs), e.totalAllocated,
                        e.totalReserved, e.totalActive, static_cast<std::int64_t>(e.streamPtr)},
                       workspace});
    }
    MemoryRecordMerge merge(strings, static_cast<std::int64_t>(run.deviceId));
    std::optional<MemoryTotals> lastPta, lastGe;
    std::size_t p = 0, g = 0;
    while (p < pta.size() || g < ge.size()) {
        if (g >= ge.size() || (p < pta.size() && pta[p].first.timestampNs <= ge[g].timestampNs)) {
            const auto& [record, workspace] = pta[p++];
            merge.add(record, lastGe, workspace);
            if (!workspace) lastPta = record;
        } else {
            merge.add(ge[g], lastPta, false);
            lastGe = ge[g++];
        }
    }
    return std::move(merge.rows());
}

DbValue optionalNs(const MemoryEventRecord* e, std::int64_t epochNs) {
    return e ? DbValue{epochNs + static_cast<std::int64_t>(e->timeNs)} : DbValue{DbNull{}};
}

std::vector<std::vector<DbValue>> ptaOpMemoryRows(const RunRecord& run, DbStringIds& strings) {
    const auto epoch = static_cast<std::int64_t>(run.epochNs);
    const auto device = static_cast<std::int64_t>(run.deviceId);
    const auto after = [](const MemoryEventRecord* e,
                          std::int64_t MemoryEventRecord::*total) -> DbValue {
        return e ? DbValue{e->*total} : DbValue{DbNull{}};
    };
    const auto since = [](const MemoryEventRecord* e, const MemoryEventRecord& m) -> DbValue {
        return e ? DbValue{static_cast<std::int64_t>(e->timeNs - m.timeNs)} : DbValue{DbNull{}};
    };
    std::vector<std::vector<DbValue>> rows;
    for (const PtaAllocation& a : ptaAllocations(run)) {
        const MemoryEventRecord& m = *a.malloc;
        rows.push_back({strings.id(causingOpName(run, m)), m.allocSize,
                        epoch + static_cast<std::int64_t>(m.timeNs), optionalNs(a.free, epoch),
                        optionalNs(a.blockFree, epoch), since(a.free, m), since(a.blockFree, m),
                        m.totalAllocated, m.totalReserved, m.totalActive,
                        after(a.free, &MemoryEventRecord::totalAllocated),
                        after(a.free, &MemoryEventRecord::totalReserved),
                        after(a.free, &MemoryEventRecord::totalActive),
                        static_cast<std::int64_t>(m.streamPtr), device});
    }
    return rows;
}

std::vector<std::vector<DbValue>> geOpMemoryRows(const RunRecord& run,
                                                 const std::vector<GeMemoryEvent>& geEvents,
                                                 DbStringIds& cannStrings) {
    const auto device = static_cast<std::int64_t>(run.deviceId);
    std::vector<std::vector<DbValue>> rows;
    std::vector<const GeMemoryEvent*> open;  // allocations not released yet, in allocation order
    const auto rowOf = [&](const GeMemoryEvent& alloc,
                           const GeMemoryEvent* release) -> std::vector<DbValue> {
        const DbNull null;
        if (!release) {
            return {cannStrings.id(alloc.operatorName),
                    alloc.sizeBytes,
                    alloc.timestampNs,
                    null,
                    null,
                    null,
                    null,
                    alloc.totalAllocatedBytes,
                    alloc.totalReservedBytes,
                    null,
                    null,
                    null,
                    null,
                    null,
                    device};
        }
        return {cannStrings.id(alloc.operatorName),
                alloc.sizeBytes,
                alloc.timestampNs,
                release->timestampNs,
                null,
                release->timestampNs - alloc.timestampNs,
                null,
                alloc.totalAllocatedBytes,
                alloc.totalReservedBytes,
                null,
                release->totalAllocatedBytes,
                release->totalReservedBytes,
                null,
                null,
                device};
    };
    for (const GeMemoryEvent& e : geEvents) {
        if (!e.release) {
            open.push_back(&e);
            continue;
        }
        for (auto it = open.begin(); it != open.end(); ++it) {
            if ((*it)->operatorName == e.operatorName && (*it)->addr == e.addr) {
                rows.push_back(rowOf(**it, &e));
                open.erase(it);
                break;
            }
        }
    }
    for (const GeMemoryEvent* alloc : open) rows.push_back(rowOf(*alloc, nullptr));
    return rows;
}

}  // namespace

void writeFrameworkMemoryTables(DbFile& db, const RunRecord& run,
                                const std::vector<GeMemoryEvent>& geEvents,
                                DbStringIds& cannStrings, DbStringIds& memoryStrings) {
    const auto records = memoryRecordRows(run, geEvents, memoryStrings);
    if (!records.empty()) {
        db.execute(
            "CREATE TABLE MEMORY_RECORD (component INTEGER, timestamp INTEGER, totalAllocated "
            "INTEGER, "
            "totalReserved INTEGER, totalActive INTEGER, streamPtr INTEGER, deviceId INTEGER)");
        db.insertRows("MEMORY_RECORD", records);
    }
    auto opMemory = ptaOpMemoryRows(run, memoryStrings);
    for (auto& row : geOpMemoryRows(run, geEvents, cannStrings)) opMemory.push_back(std::move(row));
    if (opMemory.empty()) return;
    db.execute(
        "CREATE TABLE OP_MEMORY (name INTEGER, size INTEGER, allocationTime INTEGER, releaseTime "
        "INTEGER, "
        "activeReleaseTime INTEGER, duration INTEGER, activeDuration INTEGER, "
        "allocationTotalAllocated "
        "INTEGER, allocationTotalReserved INTEGER, allocationTotalActive INTEGER, "
        "releaseTotalAllocated "
        "INTEGER, releaseTotalReserved INTEGER, releaseTotalActive INTEGER, streamPtr INTEGER, "
        "deviceId "
        "INTEGER)");
    db.insertRows("OP_MEMORY", opMemory);
}

}  // namespace ascendsim
