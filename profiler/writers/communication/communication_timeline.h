#pragma once
// How CANN's HCCL trace shows a collective and its tasks (formats.md §4.2 "Communication", the
// e5a31957 Level1 trace_view "HCCL" process): names and args of the op row and the plane rows.
#include <string>

#include "profiler/config/profiler_config.h"
#include "profiler/record/run_record.h"
#include "profiler/writers/timeline/trace_event.h"

namespace ascendsim {

// Notify ids name a notify register of a peer; the run has no registers, so the id is unique
// per (peer, task) the way the sample's record ids carry the peer in their high word. Memcpy has
// none (UINT64_MAX), Reduce_Inline 0, as in the sample.
std::uint64_t hcclNotifyId(const HcclTask& task);

const char* hcclTaskName(HcclTaskKind kind);

// The hardware (SQE) task an HCCL task runs as on the HCCL stream: "SDMA" for copies and inline
// reduces, "Write Value" for Notify_Record, "Notify Wait" (the sample's Stream 4 rows, DB TASK).
const char* hcclSqeTypeName(HcclTaskKind kind);   // "Notify_Record", "Memcpy", "Reduce_Inline", ...
const char* hcclLinkTypeName(HcclLinkType link);
// A task's transport as HCCL's trace names it: "LOCAL" for a Notify_Wait, "RDMA" for a transfer
// over RoCE (the NIC's), "SDMA" otherwise. Assumed: an RDMA transfer keeps its Memcpy /
// Reduce_Inline task name (no sample trace shows one).
const char* hcclTransportTypeName(const HcclTask& task);  // "ON_CHIP", "HCCS", "INVALID_TYPE"

// The op row's args. 8.0 era (the sample): connection_id, model id, data_type, alg_type, count;
// CANN 8.3 (msprof hccl_assembler.cpp) adds rank_size first and relay/retry last.
TraceMembers hcclOpArgs(const CommunicationOpRecord& op, FormatVersion version);

// A plane row's args, in the sample's key order.
TraceMembers hcclTaskArgs(const CommunicationOpRecord& op, const HcclTask& task);

// Thread names of the HCCL process: the op row of the group, then plane n at tid n + 1.
std::string hcclGroupThreadName();
std::string hcclPlaneThreadName(std::uint32_t plane);

}  // namespace ascendsim
