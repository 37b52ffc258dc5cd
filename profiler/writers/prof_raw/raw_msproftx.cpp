#include "profiler/writers/prof_raw/raw_msproftx.h"

#include <algorithm>

#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_layouts.h"

namespace ascendsim {

namespace {

constexpr std::uint32_t kStartEnd = 2, kMarkerEx = 3;  // NumberConstant START_AND_END, MARKER_EX

}  // namespace

std::string rawMsprofTxRecords(const RunRecord& run, RawTypeDictionary& dict) {
    RawRecordBuffer out;
    for (const MstxEventRecord& m : run.mstxEvents) {
        const std::uint64_t domainId = dict.hashOf(m.domain);
        RawMsprofTx r;
        r.threadId = m.threadId;
        r.processId = run.processId;
        r.eventType = m.kind == MstxEventKind::Mark ? kMarkerEx : kStartEnd;
        r.start = rawSysCount(run, m.startNs);
        r.end = rawSysCount(run, m.endNs);
        r.markId = m.markId;
        r.domainId = domainId;
        constexpr std::size_t kSegment = RawMsprofTx::kMessageBytes - 1;
        for (std::size_t pos = 0; pos < std::max<std::size_t>(m.message.size(), 1); pos += kSegment) {
            r.message = m.message.substr(pos, kSegment);
            encodeRaw(r, out);
            ++r.segment;
        }
    }
    return out.bytes();
}

}  // namespace ascendsim
