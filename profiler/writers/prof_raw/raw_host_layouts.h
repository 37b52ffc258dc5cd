#pragma once
// The binary layouts of CANN's host raw records (PROF_*/host/data/), each stated once as a field
// list that the writer and the reader archives visit (raw_archive.h). Sources (Ascend/msprof,
// commit 9ba1ac7b; docs/output-formats.md, "Raw PROF data", has the per-field notes):
//   analysis/csrc/infrastructure/utils/prof_common.h    the structs (#pragma pack(1), little endian)
//   analysis/msparser/data_struct_size_constant.py      the Python parsers' formats
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/writers/prof_raw/raw_archive.h"

namespace ascendsim {

inline constexpr std::uint16_t kRawMagic = 0x5A5A;  // MSPROF_DATA_HEAD_MAGIC_NUM
// MsprofAdditionalInfo: a 24-byte header and 232 bytes of data (MSPROF_ADDITIONAL_INFO_DATA_LENGTH).
inline constexpr std::size_t kRawAdditionalBytes = 256;
inline constexpr std::uint32_t kRawAdditionalDataBytes = 232;

// MsprofApi (40 B, API_EVENT_FMT "HHIIIQQQ"): magic, level, type, threadId, reserve, begin, end, itemId.
struct RawApiEvent {
    static constexpr std::size_t kBytes = 40;
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint64_t begin = 0, end = 0;
    std::uint64_t itemId = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "MsprofApi", [&] {
            a.magic(kRawMagic);
            a.fields(r.level, r.type, r.threadId);
            a.template constant<std::uint32_t>(0);  // reserve
            a.fields(r.begin, r.end, r.itemId);
            a.require(r.end >= r.begin, "API ends before it begins");
        });
    }
};

// MsprofCompactInfo's 24-byte header: magic, level, type, threadId, dataLen, timestamp; the
// record is 64 bytes (MSPROF_COMPACT_INFO_DATA_LENGTH 40 of data). `dataLen` is the record's own.
struct RawCompactHeader {
    static constexpr std::size_t kRecordBytes = 64;
    std::uint16_t level = 0;
    std::uint32_t type = 0;
    std::uint32_t threadId = 0;
    std::uint32_t dataLen = 0;
    std::uint64_t timestamp = 0;

    template <typename Self, typename Archive>
    static void fields(Self& h, Archive& a, std::uint32_t dataLen) {
        a.magic(kRawMagic);
        a.fields(h.level, h.type, h.threadId);
        a.expect(h.dataLen, dataLen, "dataLen");
        a.field(h.timestamp);
    }

    // The same fields opening an MsprofAdditionalInfo (256 B, 232 of data) of `level` and `type`.
    template <typename Self, typename Archive>
    static void additionalFields(Self& h, Archive& a, std::uint16_t level, std::uint32_t type, const char* levelWhat,
                                 const char* typeWhat) {
        a.magic(kRawMagic);
        a.expect(h.level, level, levelWhat);
        a.expect(h.type, type, typeWhat);
        a.field(h.threadId);
        a.expect(h.dataLen, kRawAdditionalDataBytes, "dataLen");
        a.field(h.timestamp);
    }
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

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(RawCompactHeader::kRecordBytes, "node_basic_info", [&] {
            RawCompactHeader::fields(r.header, a, kDataBytes);
            a.fields(r.opName, r.taskType, r.opType, r.blockNum, r.opFlag);
            a.template constant<std::uint8_t>(0);  // opState
        });
    }
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

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(RawCompactHeader::kRecordBytes, "task_track", [&] {
            RawCompactHeader::fields(r.header, a, kDataBytes);
            a.fields(r.deviceId, r.streamId, r.taskId, r.taskType, r.kernelName);
        });
    }
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
    static constexpr std::size_t kRecordBytes = kRawAdditionalBytes;
    static constexpr std::size_t kTensorsPerRecord = 5;
    static constexpr std::uint16_t kLevel = 10000;  // MSPROF_REPORT_NODE_LEVEL
    static constexpr std::uint32_t kType = 1;       // MSPROF_REPORT_NODE_TENSOR_INFO_TYPE
    RawCompactHeader header;  // the additional-info header has the same fields
    std::uint64_t opName = 0;
    std::vector<RawTensorData> tensors;  // at most kTensorsPerRecord

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kRecordBytes, "tensor_info", [&] {
            RawCompactHeader::additionalFields(r.header, a, kLevel, kType, "tensor_info level", "tensor_info type");
            a.field(r.opName);
            a.count(r.tensors, kTensorsPerRecord, "tensor_info tensor");
            for (auto& t : r.tensors) {
                a.fields(t.tensorType, t.format, t.dataType);
                for (auto& d : t.shape) a.field(d);
            }
        });
    }
};

// MsprofContextIdInfo in an MsprofAdditionalInfo (256 B, CTX_ID_FMT "HHIIIQQI55I",
// msparser/add_info/ctx_id_bean.py): the 24-byte header (level 10000 or 5500, type 4
// MSPROF_REPORT_NODE_CONTEXT_ID_INFO_TYPE), the op name id, the context id count and up to 55
// context ids. Two reporters (tree_builder.cpp GroupCtxIdEvents splits them by level):
// - GE, at the node level, beside a node's basic info for a task that runs as FFTS+ contexts;
//   msprof gives the node's GE task its context ids from it (cann_analysis_gear.py get_node_descs),
//   which op_summary joins to the device's sub-tasks and PMU records;
// - HCCL, at the HCCL level, inside the call that launches a collective's FFTS+ task: two ids, the
//   first and the last context of its HCCL tasks (cann_analysis_gear.py get_context_ids_in_hccl,
//   HCCL_CONTEXT_ID_NUM 2), which msprof pairs with the hccl_info records by context id.
struct RawContextIdInfo {
    static constexpr std::size_t kRecordBytes = kRawAdditionalBytes;
    static constexpr std::size_t kMaxIds = 55;
    static constexpr std::uint16_t kNodeLevel = 10000;  // MSPROF_REPORT_NODE_LEVEL
    static constexpr std::uint16_t kHcclLevel = 5500;   // MSPROF_REPORT_HCCL_NODE_LEVEL
    static constexpr std::uint32_t kType = 4;           // MSPROF_REPORT_NODE_CONTEXT_ID_INFO_TYPE
    RawCompactHeader header{kNodeLevel, kType, 0, kRawAdditionalDataBytes, 0};  // the additional-info header
    std::uint64_t opName = 0;
    std::vector<std::uint32_t> contextIds;  // at most kMaxIds

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kRecordBytes, "context_id_info", [&] {
            a.magic(kRawMagic);
            a.field(r.header.level);
            a.require(r.header.level == kNodeLevel || r.header.level == kHcclLevel,
                      "context_id_info level (10000 node, 5500 HCCL)");
            a.expect(r.header.type, kType, "context_id_info type");
            a.field(r.header.threadId);
            a.expect(r.header.dataLen, kRawAdditionalDataBytes, "dataLen");
            a.field(r.header.timestamp);
            a.field(r.opName);
            a.count(r.contextIds, kMaxIds, "context id");
            for (auto& id : r.contextIds) a.field(id);
        });
    }
};

// One MsprofTx segment (256 B MsprofAdditionalInfo, level 20500, MsprofTxInfo of infoType 1
// holding an MsprofStampInfo; parser format "HH3IQ2HI2H4Ii5Qi156s"; raw_msproftx.h).
struct RawMsprofTx {
    static constexpr std::size_t kBytes = kRawAdditionalBytes;
    static constexpr std::size_t kMessageBytes = 156;  // MAX_MESSAGE_LEN, NUL included
    static constexpr std::uint16_t kLevel = 20500;     // MSPROF_REPORT_TX_LEVEL
    std::uint32_t threadId = 0;
    std::uint16_t segment = 0;
    std::uint32_t processId = 0;
    std::uint32_t eventType = 0;  // 3 marker_ex, 2 start/end
    std::uint64_t start = 0, end = 0;
    std::uint64_t markId = 0;
    std::uint64_t domainId = 0;
    std::string message;  // at most kMessageBytes - 1 bytes

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kBytes, "MsprofTx", [&] {
            std::uint16_t level = kLevel;
            a.magic(kRawMagic);
            a.expect(level, kLevel, "MsprofTx level");
            a.template constant<std::uint32_t>(0);  // MSPROF_REPORT_TX_BASE_TYPE
            a.repeat(r.threadId);
            a.template constant<std::uint32_t>(kRawAdditionalDataBytes);
            a.repeat(r.start);                      // the header's timestamp
            a.template constant<std::uint16_t>(1);  // MsprofTxInfo infoType: 1 MarkEx
            a.field(r.segment);                     // res0: the segment index msprof joins by
            a.template constant<std::uint32_t>(0);  // res1
            a.magic(kRawMagic);
            a.template constant<std::uint16_t>(0);  // dataTag
            a.fields(r.processId, r.threadId);
            a.template constant<std::uint32_t>(0);  // category
            a.field(r.eventType);
            a.template constant<std::uint32_t>(0);  // payloadType
            a.template constant<std::uint64_t>(0);  // payload
            a.fields(r.start, r.end, r.markId, r.domainId);
            a.template constant<std::uint32_t>(0);  // messageType
            a.text(r.message, kMessageBytes);
        });
    }
};

}  // namespace ascendsim
