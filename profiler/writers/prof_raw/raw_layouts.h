#pragma once
// The binary layouts of CANN's raw profiling records, each defined once: the writers fill these
// structs and encode them, the raw-data reader (profiler/readers/prof_raw) decodes the same bytes
// with the same definitions. Sources (Ascend/msprof, commit 9ba1ac7b; docs/output-formats.md,
// "Raw PROF data", has the per-field notes):
//   analysis/csrc/infrastructure/utils/prof_common.h    the structs (#pragma pack(1), little endian)
//   analysis/msparser/data_struct_size_constant.py      the Python parsers' formats
// Every decode checks the record's fixed fields (magic numbers, func types) and throws
// RawDataError with the file and offset when they are wrong or the record is cut short.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/task/task_result.h"
#include "profiler/writers/prof_raw/raw_record_buffer.h"
#include "profiler/writers/prof_raw/raw_record_reader.h"

namespace ascendsim {

inline constexpr std::uint16_t kRawMagic = 0x5A5A;  // MSPROF_DATA_HEAD_MAGIC_NUM

// SQE types of the STARS task log (Ascend/msprof msmodel/sqe_type_map.py StarsSqeType).
inline constexpr std::uint16_t kSqeAiCore = 0, kSqeAiCpu = 1, kSqeAiv = 2, kSqeEventRecord = 4, kSqeEventWait = 5,
                               kSqePcieDma = 17;

// GE's task types in node_basic_info (Ascend/msprof common_func/ms_constant/ge_enum_constant.py
// GeTaskType: AI_CORE 0, AI_CPU 1, AI_VECTOR_CORE 2, MIX_AIC 4, MIX_AIV 5).
std::uint32_t geTaskTypeOf(TaskType type);
// The task type of a GE number; false for a number ascendsim does not write.
bool taskTypeOfGe(std::uint32_t geType, TaskType& type);

// MsprofApi (40 B, API_EVENT_FMT "HHIIIQQQ"): magic, level, type, threadId, reserve, begin, end, itemId.
struct RawApiEvent {
    static constexpr std::size_t kBytes = 40;
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint64_t begin = 0, end = 0;
    std::uint64_t itemId = 0;
    void encode(RawRecordBuffer& out) const;
    static RawApiEvent decode(RawRecordReader& in);
};

// MsprofCompactInfo's 24-byte header: magic, level, type, threadId, dataLen, timestamp; the
// record is 64 bytes (MSPROF_COMPACT_INFO_DATA_LENGTH 40 of data).
struct RawCompactHeader {
    static constexpr std::size_t kRecordBytes = 64;
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint32_t dataLen = 0;
    std::uint64_t timestamp = 0;
    void encode(RawRecordBuffer& out) const;
    static RawCompactHeader decode(RawRecordReader& in);
};

// MsprofNodeBasicInfo (29 B of a compact record): opName id, GE task type, opType id, blockNum
// (block dim low 16 bits, mix block dim ÷ block dim high 16), opFlag, opState.
struct RawNodeBasicInfo {
    static constexpr std::uint32_t kDataBytes = 29;
    RawCompactHeader header;
    std::uint64_t opName = 0;
    std::uint32_t taskType = 0;
    std::uint64_t opType = 0;
    std::uint32_t blockNum = 0;
    std::uint32_t opFlag = 0;  // 1: HF32 eligible (msprof prints op_flag as "HF32 Eligible" YES/NO)
    void encode(RawRecordBuffer& out) const;
    static RawNodeBasicInfo decode(RawRecordReader& in);
};

// MsprofRuntimeTrack (40 B of a compact record): deviceId, streamId, taskId, taskType, kernelName id.
struct RawTaskTrack {
    static constexpr std::uint32_t kDataBytes = 40;
    RawCompactHeader header;
    std::uint16_t deviceId = 0;
    std::uint16_t streamId = 0;
    std::uint32_t taskId = 0;
    std::uint64_t taskType = 0;
    std::uint64_t kernelName = 0;
    void encode(RawRecordBuffer& out) const;
    static RawTaskTrack decode(RawRecordReader& in);
};

// MsprofTensorInfo in an MsprofAdditionalInfo (256 B, TENSOR_ADD_INFO_FMT "HHIIIQQI55I"): the
// 24-byte header (level 10000, type 1 tensor_info), the op name id, the tensor count and five
// MsrofTensorData {tensorType 0 input / 1 output, GE format, GE data type, shape[8]}; an op with
// more tensors has several records (msprof's tensor_add_info_parser.py joins them by op).
struct RawTensorData {
    std::uint32_t tensorType = 0;
    std::uint32_t format = 0;
    std::uint32_t dataType = 0;
    std::array<std::uint32_t, 8> shape{};
};
struct RawTensorInfo {
    static constexpr std::size_t kRecordBytes = 256;
    static constexpr std::size_t kTensorsPerRecord = 5;
    RawCompactHeader header;  // the additional-info header has the same fields
    std::uint64_t opName = 0;
    std::vector<RawTensorData> tensors;  // at most kTensorsPerRecord
    void encode(RawRecordBuffer& out) const;
    static RawTensorInfo decode(RawRecordReader& in);
};

// STARS ACSQ task log record (64 B, ACSQ_TASK_FMT "4HQHH11L"): func type (bits 0-5) | SQE type
// (bits 10-15), magic 0x6BD3, stream id, task id, system count, acsq id (bits 6-12).
struct RawAcsqRecord {
    static constexpr std::size_t kBytes = 64;
    static constexpr std::uint16_t kMagic = 0x6BD3;  // STARS_MAGIC_NUM
    static constexpr std::uint16_t kFuncStart = 0, kFuncEnd = 1;
    std::uint16_t func = 0;
    std::uint16_t sqeType = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t sysCount = 0;
    std::uint16_t acsqId = 0;
    void encode(RawRecordBuffer& out) const;
    static RawAcsqRecord decode(RawRecordReader& in);
};

// Context PMU record (128 B, FFTS_PMU_FMT "4HQ4HQ12Q", chip4_pmu_parser_item.h ContextPmu): func
// type 0b101000 with a 4-bit counter, stream id, task id, FFTS type (bits 13-15 of its u16),
// total cycles, 8 PMU counts, start and end system counts.
struct RawContextPmu {
    static constexpr std::size_t kBytes = 128;
    static constexpr std::uint16_t kFunc = 0b101000;  // StarsConstant.FFTS_PMU_TAG
    std::uint16_t counter = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint16_t fftsType = 0;
    std::uint64_t totalCycles = 0;
    std::array<std::uint64_t, 8> pmu{};
    std::uint64_t start = 0, end = 0;
    void encode(RawRecordBuffer& out) const;
    static RawContextPmu decode(RawRecordReader& in);
};

// One MsprofTx segment (256 B MsprofAdditionalInfo, level 20500, MsprofTxInfo of infoType 1
// holding an MsprofStampInfo; parser format "HH3IQ2HI2H4Ii5Qi156s"; raw_msproftx.h).
struct RawMsprofTx {
    static constexpr std::size_t kBytes = 256;
    static constexpr std::size_t kMessageBytes = 156;  // MAX_MESSAGE_LEN, NUL included
    std::uint32_t threadId = 0;
    std::uint16_t segment = 0;
    std::uint32_t processId = 0;
    std::uint32_t eventType = 0;  // 3 marker_ex, 2 start/end
    std::uint64_t start = 0, end = 0;
    std::uint64_t markId = 0;
    std::uint64_t domainId = 0;
    std::string message;  // at most kMessageBytes - 1 bytes
    void encode(RawRecordBuffer& out) const;
    static RawMsprofTx decode(RawRecordReader& in);
};

// An AI CPU task's times (device aicpu.data.{id}: a 256 B MsprofAdditionalInfo at level 6000
// MSPROF_REPORT_AICPU_LEVEL, type 0 AICPU_NODE, holding MsprofAicpuNodeAdditionalData; Python
// format AI_CPU_NODE_ADD_FMT "HHIIIQHHIQQQQQQQIIQQQQIIIHBB14Q", msparser/add_info/aicpu_add_info_bean.py
// AicpuNodeBean): stream and task id, run start/compute/memcpy/run end times in µs, run start and
// end system counts, the thread and device, the submit, schedule, before-run and after-run counts,
// the kernel type, the dispatch and total times in µs.
struct RawAicpuNode {
    static constexpr std::size_t kBytes = 256;
    std::uint32_t threadId = 0;
    std::uint16_t streamId = 0;
    std::uint16_t taskId = 0;
    std::uint64_t runStartUs = 0, runEndUs = 0;
    std::uint64_t runStartTick = 0, runEndTick = 0;
    std::uint32_t deviceId = 0;
    std::uint64_t submitTick = 0;
    std::uint32_t dispatchUs = 0, totalUs = 0;
    void encode(RawRecordBuffer& out) const;
    static RawAicpuNode decode(RawRecordReader& in);
};

// Decodes every record of one file (records of a fixed size, back to back).
template <typename Record>
std::vector<Record> decodeAll(RawRecordReader& in) {
    std::vector<Record> records;
    while (!in.atEnd()) records.push_back(Record::decode(in));
    return records;
}

}  // namespace ascendsim
