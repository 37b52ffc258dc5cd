#pragma once
// A run with two collectives of a 2-rank allreduce (rank 0's tasks), for the communication
// writers' tests: communication.json/matrix and the DB tables.
#include "profiler/writers/csv_table_test_support.h"

namespace ascendsim::testing_support {

inline HcclTask hcclTask(HcclTaskKind kind, std::uint32_t plane, std::uint64_t startNs,
                         std::uint64_t durationNs, std::uint32_t dst, std::uint64_t bytes,
                         HcclLinkType link) {
    HcclTask t;
    t.kind = kind;
    t.plane = plane;
    t.startNs = startNs;
    t.durationNs = durationNs;
    t.srcRank = 0;
    t.dstRank = dst;
    t.sizeBytes = bytes;
    t.link = link;
    return t;
}

// Rank 0 of a 2-rank allreduce inside ProfilerStep#13: a local copy, then on plane 1 a 2 µs
// synchronising wait, a 700 µs inline reduce, a 40 µs wait, a 500 µs copy and a 0.5 µs wait.
inline CommunicationOpRecord allReduceOp(std::uint64_t startNs, std::uint32_t index) {
    CommunicationOpRecord op;
    op.name = "hcom_allReduce__452_" + std::to_string(index) + "_1";
    op.opType = "hcom_allReduce_";
    op.groupName = "7126061118004686452";
    op.algorithm = "MESH-RING";
    op.dataType = "FP32";
    op.count = 2097152;
    op.rankSize = 2;
    op.startNs = startNs;
    op.endNs = startNs + 1300000;
    using K = HcclTaskKind;
    using L = HcclLinkType;
    op.tasks = {hcclTask(K::Memcpy, 0, 0, 8000, 0, 4194304, L::OnChip),
                hcclTask(K::NotifyRecord, 1, 10000, 1000, 1, 0, L::None),
                hcclTask(K::NotifyWait, 1, 11000, 2000, 1, 0, L::None),
                hcclTask(K::ReduceInline, 1, 13000, 700000, 1, 4194304, L::Hccs),
                hcclTask(K::NotifyWait, 1, 713000, 40000, 1, 0, L::None),
                hcclTask(K::Memcpy, 1, 760000, 500000, 1, 4194304, L::Hccs),
                hcclTask(K::NotifyWait, 1, 1260000, 500, 1, 0, L::None)};
    return op;
}

inline RunRecord runWithCollectives(const ChipConfig& chip) {
    RunRecord run = threeKernelRun(chip);
    run.communicationOps.push_back(allReduceOp(6000000, 0));
    run.communicationOps.push_back(allReduceOp(7400000, 1));
    run.communicationOps[1].tasks[5].durationNs = 1000000;  // a slower second op on link 0-1
    return run;
}

}  // namespace ascendsim::testing_support
