#include "profiler/writers/prof_raw/raw_msproftx.h"

#include <algorithm>

#include "profiler/writers/prof_raw/raw_clock.h"
#include "profiler/writers/prof_raw/raw_record_buffer.h"

namespace ascendsim {

namespace {

constexpr std::uint16_t kMagic = 0x5A5A;         // MSPROF_DATA_HEAD_MAGIC_NUM
constexpr std::uint32_t kTxBaseType = 0;         // MSPROF_REPORT_TX_BASE_TYPE
constexpr std::uint32_t kTxInfoBytes = 232;      // MSPROF_ADDITIONAL_INFO_DATA_LENGTH
constexpr std::size_t kRecordBytes = 256;
constexpr std::uint16_t kMarkExInfoType = 1;     // MsprofTxInfo infoType: 1 MarkEx
constexpr std::size_t kMessageBytes = 156;       // MAX_MESSAGE_LEN, NUL included
constexpr std::uint32_t kStartEnd = 2, kMarkerEx = 3;  // NumberConstant START_AND_END, MARKER_EX

void segment(RawRecordBuffer& out, const RunRecord& run, const MstxEventRecord& m, std::uint16_t index,
             const std::string& text, std::uint64_t domainId) {
    const std::uint64_t start = rawSysCount(run, m.startNs);
    const std::size_t at = out.size();
    out.u16(kMagic);
    out.u16(kRawLevelTx);
    out.u32(kTxBaseType);
    out.u32(m.threadId);
    out.u32(kTxInfoBytes);
    out.u64(start);
    out.u16(kMarkExInfoType);
    out.u16(index);  // res0: the segment index msprof joins by
    out.u32(0);      // res1
    out.u16(kMagic);
    out.u16(0);  // dataTag
    out.u32(run.processId);
    out.u32(m.threadId);
    out.u32(0);  // category
    out.u32(m.kind == MstxEventKind::Mark ? kMarkerEx : kStartEnd);
    out.u32(0);  // payloadType
    out.u64(0);  // payload
    out.u64(start);
    out.u64(rawSysCount(run, m.endNs));
    out.u64(m.markId);
    out.u64(domainId);
    out.u32(0);  // messageType
    for (char c : text) out.u8(static_cast<std::uint8_t>(c));
    out.padTo(at, kRecordBytes);
}

}  // namespace

std::string rawMsprofTxRecords(const RunRecord& run, RawTypeDictionary& dict) {
    RawRecordBuffer out;
    for (const MstxEventRecord& m : run.mstxEvents) {
        const std::uint64_t domainId = dict.hashOf(m.domain);
        std::uint16_t index = 0;
        for (std::size_t pos = 0; pos < std::max<std::size_t>(m.message.size(), 1); pos += kMessageBytes - 1)
            segment(out, run, m, index++, m.message.substr(pos, kMessageBytes - 1), domainId);
    }
    return out.bytes();
}

}  // namespace ascendsim
