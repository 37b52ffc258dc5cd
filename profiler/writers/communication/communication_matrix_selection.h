#pragma once
// torch_npu's communication matrix of one step (formats.md §3.11, _communication_parser.py): per
// collective type and group, each link's op record at top1 / middle / bottom1 / bottom2 / bottom3
// of the ops sorted by bandwidth, and the link totals. communication_matrix.json and analysis.db's
// CommAnalyzerMatrix print the same selections.
#include <string>
#include <vector>

#include "profiler/record/run_record.h"
#include "profiler/writers/communication/communication_statistics.h"

namespace ascendsim {

struct MatrixRecord {
    CommunicationLink link;  // key "src-dst", transport, size, time
    double bandwidth = 0.0;
    std::string opName;  // empty in the totals
};

struct MatrixSelection {
    std::string name;  // "allreduce-top1", "allreduce-total"
    std::string group;
    bool total = false;
    std::vector<MatrixRecord> links;  // first-seen link order
};

// In torch_npu's dict order: top1, middle, bottom1, total, then bottom2 and bottom3 (only links
// with at least two / three ops; a selection with no link is left out).
std::vector<MatrixSelection> communicationMatrixSelections(
    const std::vector<const CommunicationOpRecord*>& ops);

// torch_npu get_comm_type: the first of its type names found in the lowercased op name
// ("hcom_allReduce__586_0_1" -> "allreduce", "hcom_reduceScatter_..." -> "reduce").
std::string communicationTypeOf(const std::string& opName);

}  // namespace ascendsim
