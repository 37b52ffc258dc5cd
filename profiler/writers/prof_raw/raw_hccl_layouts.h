#pragma once
// The binary layouts of HCCL's host raw records (PROF_*/host/data/), each stated once as a field
// list the writer and the reader archives visit (raw_archive.h). Sources (Ascend/msprof, commit
// 9ba1ac7b): analysis/csrc/infrastructure/utils/prof_common.h (MsprofHcclInfo, MsprofHcclOPInfo),
// analysis/msparser/data_struct_size_constant.py (HCCL_INFO_FMT, HCCL_OP_INFO_FMT),
// analysis/common_func/hccl_info_common.py (the enumerations), and
// analysis/csrc/domain/services/association/cann/tree_builder.cpp (hccl_info belongs to the HCCL
// level 5500, hccl_op_info to the node level 10000). docs/output-formats.md "Raw PROF data" has the
// per-field notes and what is assumed.
#include <cstdint>

#include "profiler/writers/prof_raw/raw_host_layouts.h"

namespace ascendsim {

// hccl_info_common.py: the value HCCL writes where an enumeration has no value (RESERVED).
inline constexpr std::uint32_t kRawHcclReserved = 255;
// prof_common.h notifyID: msprof prints a notify id of -1 as N/A (cann_analysis_gear.py add_hccl_task).
inline constexpr std::uint64_t kRawHcclNoNotify = ~0ULL;

// MsprofHcclInfo in an MsprofAdditionalInfo (256 B, HCCL_INFO_FMT "HHIII4Q6IQ2Id3Q6I112B"): the
// 24-byte header (level 5500), itemId (the op's name id), cclTag, groupName, localRank,
// remoteRank, rankSize, workFlowMode, planeID, ctxID, notifyID, stage, role (0 dst, 1 src),
// durationEstimated (a double), srcAddr, dstAddr, dataSize (bytes), opType (reduction: 0 sum, 1
// mul, 2 max, 3 min), dataType, linkType (0 OnChip, 1 HCCS, 2 PCIe, 3 RoCE, 4 SIO), transportType
// (0 SDMA, 1 RDMA, 2 LOCAL), rdmaType, reserve2, 112 bytes of padding. One per HCCL task.
struct RawHcclInfo {
    static constexpr std::size_t kRecordBytes = kRawAdditionalBytes;
    static constexpr std::uint16_t kLevel = 5500;  // MSPROF_REPORT_HCCL_NODE_LEVEL
    static constexpr std::uint32_t kType = 10;     // assumed (docs/output-formats.md); named in type_info_dic
    RawCompactHeader header;                       // the additional-info header has the same fields
    std::uint64_t itemId = 0;
    std::uint64_t groupName = 0;
    std::uint32_t localRank = 0, remoteRank = 0, rankSize = 0;
    std::uint32_t planeId = 0, contextId = 0;
    std::uint64_t notifyId = kRawHcclNoNotify;
    std::uint32_t role = 0;
    std::uint64_t dataSize = 0;
    std::uint32_t opType = kRawHcclReserved, dataType = kRawHcclReserved, linkType = kRawHcclReserved,
                  transportType = kRawHcclReserved, rdmaType = kRawHcclReserved;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(kRecordBytes, "hccl_info", [&] {
            RawCompactHeader::additionalFields(r.header, a, kLevel, kType, "hccl_info level", "hccl_info type");
            a.field(r.itemId);
            a.template constant<std::uint64_t>(0);  // cclTag
            a.field(r.groupName);
            a.fields(r.localRank, r.remoteRank, r.rankSize);
            a.template constant<std::uint32_t>(0);  // workFlowMode
            a.fields(r.planeId, r.contextId, r.notifyId);
            a.template constant<std::uint32_t>(0);  // stage
            a.field(r.role);
            a.require(r.role <= 1, "hccl_info role (0 dst, 1 src)");
            a.template constant<std::uint64_t>(0);  // durationEstimated: 0.0 (not modelled)
            a.template constant<std::uint64_t>(0);  // srcAddr
            a.template constant<std::uint64_t>(0);  // dstAddr
            a.field(r.dataSize);
            a.fields(r.opType, r.dataType, r.linkType, r.transportType, r.rdmaType);
            a.template constant<std::uint32_t>(0);  // reserve2
        });
    }
};

// MsprofHcclOPInfo in a compact record (64 B, HCCL_OP_INFO_FMT "HHIIIQBBQQQ" + 14 B): the 24-byte
// header (level 10000, type 10 MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE), relay (bit 0) and retry (bit
// 1), the data type, algType (the id of the algorithm's name, "-"-separated), count (elements),
// groupName. One per collective, beside the node's basic info.
struct RawHcclOpInfo {
    static constexpr std::uint32_t kDataBytes = 26;  // sizeof(MsprofHcclOPInfo), #pragma pack(1)
    static constexpr std::uint16_t kLevel = 10000;   // MSPROF_REPORT_NODE_LEVEL
    static constexpr std::uint32_t kType = 10;       // MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE
    RawCompactHeader header;
    std::uint8_t dataType = 0;
    std::uint64_t algType = 0;
    std::uint64_t count = 0;
    std::uint64_t groupName = 0;

    template <typename Self, typename Archive>
    static void fields(Self& r, Archive& a) {
        a.record(RawCompactHeader::kRecordBytes, "hccl_op_info", [&] {
            RawCompactHeader::fields(r.header, a, kDataBytes);
            a.require(r.header.level == kLevel && r.header.type == kType, "hccl_op_info level or type (10000_10)");
            a.template constant<std::uint8_t>(0);  // relay, retry
            a.fields(r.dataType, r.algType, r.count, r.groupName);
        });
    }
};

}  // namespace ascendsim
