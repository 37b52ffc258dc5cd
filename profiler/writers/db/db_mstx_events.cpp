#include "profiler/writers/db/db_mstx_events.h"

#include "profiler/writers/db/db_global_tid.h"
#include "profiler/writers/timeline/msprof_timeline.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kUint32Max = 4294967295LL;
// msprof db_constant.h MSTX_EVENT_TYPE_TABLE.
constexpr std::int64_t kStartEndEventType = 2, kMarkerExEventType = 3;

}  // namespace

void writeMstxEventsTable(DbFile& db, const RunRecord& run, DbStringIds& strings) {
    if (run.mstxEvents.empty()) return;
    std::vector<std::vector<DbValue>> rows;
    for (const MstxEventRecord& m : run.mstxEvents) {
        const std::int64_t tid = dbGlobalTid(run, m.threadId);
        rows.push_back({static_cast<std::int64_t>(run.epochNs + m.startNs), static_cast<std::int64_t>(run.epochNs + m.endNs),
                        m.kind == MstxEventKind::Mark ? kMarkerExEventType : kStartEndEventType, kUint32Max, kUint32Max,
                        strings.id(m.message), tid, tid, strings.id(m.domain),
                        static_cast<std::int64_t>(mstxConnectionId(m))});
    }
    db.execute("CREATE TABLE MSTX_EVENTS (startNs INTEGER,endNs INTEGER,eventType INTEGER,rangeId INTEGER,"
               "category INTEGER,message INTEGER,globalTid INTEGER,endGlobalTid INTEGER,domainId INTEGER,"
               "connectionId INTEGER)");
    db.insertRows("MSTX_EVENTS", rows);
}

}  // namespace ascendsim
