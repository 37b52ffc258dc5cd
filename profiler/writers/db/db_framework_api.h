#pragma once
// torch_npu's framework tables in ascend_pytorch_profiler[_{rank}].db (formats.md §5.1; what
// torch_npu's FwkApiDbParser derives from the FRAMEWORK files, checked against the e5a31957
// level1 DB):
//  - PYTORCH_API: the task queue (type 50002: every Enqueue, then every Dequeue, each in order of
//    its end), the Python tracer calls (50003), then the torch ops (50001, by start). The op rows
//    keep torch_npu's column swap: inputDtypes holds the Input Dims string and inputShapes the
//    Input type string; sequenceNumber -1 is stored as -1.
//  - CONNECTION_IDS: one index per linked row (PYTORCH_API.connectionId) with the ids it links.
//    Task-queue rows link correlation_id + offset, offset = max(CANN_API.connectionId) + 1 (0
//    without CANN APIs). Each forward/backward pair (per sequence number, the last op in
//    torch.op_range order with Fwd thread id 0 and the last with a non-zero one) gets
//    max(enqueue correlation id) + 1 + k (+ offset when there are CANN APIs). A torch op also
//    links the connection id of every Node@launch that ran inside the dequeue of an enqueue the
//    op issued (the innermost op enclosing the enqueue).
//  - PYTORCH_CALLCHAINS: one chain per op with a call stack, (chain id, frame string id, depth).
#include <cstdint>
#include <vector>

#include "profiler/record/run_record.h"
#include "profiler/writers/db/db_sqlite.h"
#include "profiler/writers/db/db_string_ids.h"

namespace ascendsim {

// A CANN_API Node@launch row (type 10000, name "launch"): absolute ns and its connection id.
struct DbNodeLaunch {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t connectionId = 0;
};

struct FrameworkApiTables {
    std::vector<std::vector<DbValue>> pytorchApi;
    std::vector<std::vector<DbValue>> connectionIds;
    std::vector<std::vector<DbValue>> callchains;
};

// `nodeLaunches` in start order; `cannConnectionOffset` = max(CANN_API.connectionId) + 1, or 0.
FrameworkApiTables buildFrameworkApiTables(const RunRecord& run, DbStringIds& torchStrings,
                                           std::int64_t cannConnectionOffset,
                                           const std::vector<DbNodeLaunch>& nodeLaunches);

}  // namespace ascendsim
