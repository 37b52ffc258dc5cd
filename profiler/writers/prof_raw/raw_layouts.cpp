#include "profiler/writers/prof_raw/raw_layouts.h"

#include <cstdio>

namespace ascendsim {

namespace {

constexpr std::uint16_t kTxLevel = 20500;        // MSPROF_REPORT_TX_LEVEL
constexpr std::uint32_t kTxInfoBytes = 232;      // MSPROF_ADDITIONAL_INFO_DATA_LENGTH
constexpr std::uint16_t kMarkExInfoType = 1;     // MsprofTxInfo infoType: 1 MarkEx
constexpr std::uint16_t kTensorLevel = 10000;    // MSPROF_REPORT_NODE_LEVEL
constexpr std::uint32_t kTensorInfoType = 1;     // MSPROF_REPORT_NODE_TENSOR_INFO_TYPE
constexpr std::size_t kTensorDataBytes = 44;     // sizeof(MsrofTensorData)
constexpr std::uint16_t kAicpuLevel = 6000;      // LevelDataType.AICPU (level_type_constant.py)
constexpr std::uint32_t kAicpuNodeType = 0;      // AicpuAddInfoBean.AICPU_NODE

void expectMagic(RawRecordReader& in, std::uint16_t found, std::uint16_t expected) {
    if (found != expected) {
        char text[64];
        std::snprintf(text, sizeof text, "bad magic number 0x%X (expected 0x%X)", found, expected);
        in.fail(text);
    }
}

}  // namespace

std::uint32_t geTaskTypeOf(TaskType type) {
    switch (type) {
        case TaskType::AiCore: return 0;
        case TaskType::AiCpu: return 1;
        case TaskType::AiVectorCore: return 2;
        case TaskType::MixAic: return 4;
        case TaskType::MixAiv: return 5;
    }
    return 0;
}

bool taskTypeOfGe(std::uint32_t geType, TaskType& type) {
    for (TaskType t : {TaskType::AiCore, TaskType::AiCpu, TaskType::AiVectorCore, TaskType::MixAic, TaskType::MixAiv}) {
        if (geTaskTypeOf(t) == geType) {
            type = t;
            return true;
        }
    }
    return false;
}

void RawApiEvent::encode(RawRecordBuffer& out) const {
    out.u16(kRawMagic);
    out.u16(level);
    out.u32(type);
    out.u32(threadId);
    out.u32(0);  // reserve
    out.u64(begin);
    out.u64(end);
    out.u64(itemId);
}

RawApiEvent RawApiEvent::decode(RawRecordReader& in) {
    in.beginRecord(kBytes, "MsprofApi");
    RawApiEvent r;
    expectMagic(in, in.u16(), kRawMagic);
    r.level = in.u16();
    r.type = in.u32();
    r.threadId = in.u32();
    in.u32();
    r.begin = in.u64();
    r.end = in.u64();
    r.itemId = in.u64();
    if (r.end < r.begin) in.fail("API ends before it begins");
    in.endRecord();
    return r;
}

void RawCompactHeader::encode(RawRecordBuffer& out) const {
    out.u16(kRawMagic);
    out.u16(level);
    out.u32(type);
    out.u32(threadId);
    out.u32(dataLen);
    out.u64(timestamp);
}

RawCompactHeader RawCompactHeader::decode(RawRecordReader& in) {
    RawCompactHeader h;
    expectMagic(in, in.u16(), kRawMagic);
    h.level = in.u16();
    h.type = in.u32();
    h.threadId = in.u32();
    h.dataLen = in.u32();
    h.timestamp = in.u64();
    return h;
}

void RawNodeBasicInfo::encode(RawRecordBuffer& out) const {
    const std::size_t start = out.size();
    header.encode(out);
    out.u64(opName);
    out.u32(taskType);
    out.u64(opType);
    out.u32(blockNum);
    out.u32(opFlag);
    out.u8(0);  // opState
    out.padTo(start, RawCompactHeader::kRecordBytes);
}

RawNodeBasicInfo RawNodeBasicInfo::decode(RawRecordReader& in) {
    in.beginRecord(RawCompactHeader::kRecordBytes, "node_basic_info");
    RawNodeBasicInfo r;
    r.header = RawCompactHeader::decode(in);
    if (r.header.dataLen != kDataBytes) in.fail("node_basic_info dataLen " + std::to_string(r.header.dataLen));
    r.opName = in.u64();
    r.taskType = in.u32();
    r.opType = in.u64();
    r.blockNum = in.u32();
    r.opFlag = in.u32();
    in.endRecord();
    return r;
}

void RawTaskTrack::encode(RawRecordBuffer& out) const {
    const std::size_t start = out.size();
    header.encode(out);
    out.u16(deviceId);
    out.u16(streamId);
    out.u32(taskId);
    out.u64(taskType);
    out.u64(kernelName);
    out.padTo(start, RawCompactHeader::kRecordBytes);
}

RawTaskTrack RawTaskTrack::decode(RawRecordReader& in) {
    in.beginRecord(RawCompactHeader::kRecordBytes, "task_track");
    RawTaskTrack r;
    r.header = RawCompactHeader::decode(in);
    if (r.header.dataLen != kDataBytes) in.fail("task_track dataLen " + std::to_string(r.header.dataLen));
    r.deviceId = in.u16();
    r.streamId = in.u16();
    r.taskId = in.u32();
    r.taskType = in.u64();
    r.kernelName = in.u64();
    in.endRecord();
    return r;
}

void RawTensorInfo::encode(RawRecordBuffer& out) const {
    const std::size_t start = out.size();
    RawCompactHeader h = header;
    h.level = kTensorLevel;
    h.type = kTensorInfoType;
    h.dataLen = static_cast<std::uint32_t>(kRecordBytes - 24);
    h.encode(out);
    out.u64(opName);
    out.u32(static_cast<std::uint32_t>(tensors.size()));
    for (const RawTensorData& t : tensors) {
        out.u32(t.tensorType);
        out.u32(t.format);
        out.u32(t.dataType);
        for (std::uint32_t d : t.shape) out.u32(d);
    }
    out.padTo(start, kRecordBytes);
}

RawTensorInfo RawTensorInfo::decode(RawRecordReader& in) {
    in.beginRecord(kRecordBytes, "tensor_info");
    RawTensorInfo r;
    r.header = RawCompactHeader::decode(in);
    if (r.header.level != kTensorLevel || r.header.type != kTensorInfoType)
        in.fail("not a tensor_info record (level " + std::to_string(r.header.level) + ", type " +
                std::to_string(r.header.type) + ")");
    r.opName = in.u64();
    const std::uint32_t count = in.u32();
    if (count > kTensorsPerRecord) in.fail("tensor_info holds " + std::to_string(count) + " tensors (at most 5)");
    for (std::uint32_t i = 0; i < count; ++i) {
        RawTensorData t;
        t.tensorType = in.u32();
        t.format = in.u32();
        t.dataType = in.u32();
        for (std::uint32_t& d : t.shape) d = in.u32();
        r.tensors.push_back(t);
    }
    static_assert(kTensorDataBytes == 12 + 8 * 4);
    in.endRecord();
    return r;
}

void RawAcsqRecord::encode(RawRecordBuffer& out) const {
    const std::size_t start = out.size();
    out.u16(static_cast<std::uint16_t>(func | (sqeType << 10)));
    out.u16(kMagic);
    out.u16(streamId);
    out.u16(taskId);
    out.u64(sysCount);
    out.u16(0);
    out.u16(static_cast<std::uint16_t>((acsqId & 127u) << 6));
    out.padTo(start, kBytes);
}

RawAcsqRecord RawAcsqRecord::decode(RawRecordReader& in) {
    in.beginRecord(kBytes, "STARS ACSQ");
    RawAcsqRecord r;
    const std::uint16_t head = in.u16();
    expectMagic(in, in.u16(), kMagic);
    r.func = head & 0x3Fu;
    r.sqeType = static_cast<std::uint16_t>(head >> 10);
    if (r.func != kFuncStart && r.func != kFuncEnd) in.fail("ACSQ func type " + std::to_string(r.func));
    r.streamId = in.u16();
    r.taskId = in.u16();
    r.sysCount = in.u64();
    in.u16();
    r.acsqId = static_cast<std::uint16_t>((in.u16() >> 6) & 127u);
    in.endRecord();
    return r;
}

void RawContextPmu::encode(RawRecordBuffer& out) const {
    const std::size_t at = out.size();
    out.u16(static_cast<std::uint16_t>(kFunc | ((counter & 0xFu) << 6)));
    out.u16(0);
    out.u16(streamId);
    out.u16(taskId);
    out.u64(0);
    out.u16(0);  // sub-task type 0, no overflow
    out.u16(0);  // sub-task id
    out.u16(static_cast<std::uint16_t>(fftsType << 13));
    out.u16(0);
    out.u64(0);
    out.u64(totalCycles);
    out.u64(0);
    for (std::uint64_t v : pmu) out.u64(v);
    out.u64(start);
    out.u64(end);
    out.padTo(at, kBytes);
}

RawContextPmu RawContextPmu::decode(RawRecordReader& in) {
    in.beginRecord(kBytes, "context PMU");
    RawContextPmu r;
    const std::uint16_t head = in.u16();
    if ((head & 0x3Fu) != kFunc) in.fail("context PMU func type " + std::to_string(head & 0x3Fu));
    r.counter = static_cast<std::uint16_t>((head >> 6) & 0xFu);
    in.u16();
    r.streamId = in.u16();
    r.taskId = in.u16();
    in.u64();
    in.u16();
    in.u16();
    r.fftsType = static_cast<std::uint16_t>(in.u16() >> 13);
    in.u16();
    in.u64();
    r.totalCycles = in.u64();
    in.u64();
    for (std::uint64_t& v : r.pmu) v = in.u64();
    r.start = in.u64();
    r.end = in.u64();
    in.endRecord();
    return r;
}

void RawMsprofTx::encode(RawRecordBuffer& out) const {
    const std::size_t at = out.size();
    out.u16(kRawMagic);
    out.u16(kTxLevel);
    out.u32(0);  // MSPROF_REPORT_TX_BASE_TYPE
    out.u32(threadId);
    out.u32(kTxInfoBytes);
    out.u64(start);
    out.u16(kMarkExInfoType);
    out.u16(segment);  // res0: the segment index msprof joins by
    out.u32(0);        // res1
    out.u16(kRawMagic);
    out.u16(0);  // dataTag
    out.u32(processId);
    out.u32(threadId);
    out.u32(0);  // category
    out.u32(eventType);
    out.u32(0);  // payloadType
    out.u64(0);  // payload
    out.u64(start);
    out.u64(end);
    out.u64(markId);
    out.u64(domainId);
    out.u32(0);  // messageType
    for (char c : message.substr(0, kMessageBytes - 1)) out.u8(static_cast<std::uint8_t>(c));
    out.padTo(at, kBytes);
}

RawMsprofTx RawMsprofTx::decode(RawRecordReader& in) {
    in.beginRecord(kBytes, "MsprofTx");
    RawMsprofTx r;
    const RawCompactHeader h = RawCompactHeader::decode(in);
    if (h.level != kTxLevel) in.fail("MsprofTx level " + std::to_string(h.level));
    in.u16();
    r.segment = in.u16();
    in.u32();
    expectMagic(in, in.u16(), kRawMagic);
    in.u16();
    r.processId = in.u32();
    r.threadId = in.u32();
    in.u32();
    r.eventType = in.u32();
    in.u32();
    in.u64();
    r.start = in.u64();
    r.end = in.u64();
    r.markId = in.u64();
    r.domainId = in.u64();
    in.u32();
    r.message = in.text(kMessageBytes);
    in.endRecord();
    return r;
}

void RawAicpuNode::encode(RawRecordBuffer& out) const {
    const std::size_t at = out.size();
    RawCompactHeader{kAicpuLevel, kAicpuNodeType, threadId, static_cast<std::uint32_t>(kBytes - 24), runStartTick}.encode(out);
    out.u16(streamId);
    out.u16(taskId);
    out.u32(0);  // rev
    out.u64(runStartUs);
    out.u64(runStartTick);
    out.u64(runStartUs);  // computeStartTime: the task computes from its start
    out.u64(runEndUs);    // memcpyStartTime: no copy after the compute
    out.u64(runEndUs);    // memcpyEndTime
    out.u64(runEndUs);
    out.u64(runEndTick);
    out.u32(threadId);
    out.u32(deviceId);
    out.u64(submitTick);
    out.u64(submitTick);    // scheduleTick
    out.u64(runStartTick);  // tickBeforeRun
    out.u64(runEndTick);    // tickAfterRun
    out.u32(0);             // kernelType
    out.u32(dispatchUs);
    out.u32(totalUs);
    out.padTo(at, kBytes);  // fftsThreadId, version, reserve
}

RawAicpuNode RawAicpuNode::decode(RawRecordReader& in) {
    in.beginRecord(kBytes, "AI CPU");
    RawAicpuNode r;
    const RawCompactHeader h = RawCompactHeader::decode(in);
    if (h.level != kAicpuLevel || h.type != kAicpuNodeType)
        in.fail("not an AI CPU node record (level " + std::to_string(h.level) + ", type " + std::to_string(h.type) + ")");
    r.threadId = h.threadId;
    r.streamId = in.u16();
    r.taskId = in.u16();
    in.u32();
    r.runStartUs = in.u64();
    r.runStartTick = in.u64();
    in.u64();
    in.u64();
    in.u64();
    r.runEndUs = in.u64();
    r.runEndTick = in.u64();
    in.u32();
    r.deviceId = in.u32();
    r.submitTick = in.u64();
    in.u64();
    in.u64();
    in.u64();
    in.u32();
    r.dispatchUs = in.u32();
    r.totalUs = in.u32();
    if (r.runEndTick < r.runStartTick || r.submitTick > r.runStartTick) in.fail("AI CPU task times out of order");
    in.endRecord();
    return r;
}

}  // namespace ascendsim
