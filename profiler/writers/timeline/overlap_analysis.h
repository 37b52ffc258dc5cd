#pragma once
// The CANN "Overlap Analysis" intervals (formats.md §3.4, msprof overlap_analysis_processor):
//   Computing                     = union of compute-task intervals
//   Communication                 = union of communication-op intervals
//   Communication(Not Overlapped) = Communication minus Computing
//   Free                          = [first task start, last task end] minus (Computing ∪ Communication)
// Times are simulated ns. step_trace_time.csv is computed from the events these become.
#include <cstdint>
#include <vector>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct TimeInterval {
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;  // exclusive; intervals with endNs <= startNs are empty
    bool operator==(const TimeInterval&) const = default;
};

// Thread ids of the Overlap Analysis process are these values (msprof OverlapAnalysisType).
enum class OverlapKind : std::uint8_t { Computing = 0, Communication = 1, CommunicationNotOverlapped = 2, Free = 3 };

const char* overlapKindName(OverlapKind kind);  // "Computing", "Communication(Not Overlapped)", ...

struct OverlapInterval {
    OverlapKind kind = OverlapKind::Computing;
    TimeInterval span;
};

// Sorted, disjoint, non-touching union of `intervals` (empty ones dropped).
std::vector<TimeInterval> mergeIntervals(std::vector<TimeInterval> intervals);

// `minuend` minus `subtrahend`; both must be merged (as mergeIntervals returns them).
std::vector<TimeInterval> subtractIntervals(const std::vector<TimeInterval>& minuend,
                                            const std::vector<TimeInterval>& subtrahend);

// All four kinds, ordered by start time (ties: Computing, Communication, Not Overlapped, Free).
// Communication ops are passed as their [start, end) spans (RunRecord::communicationOps).
std::vector<OverlapInterval> computeOverlapAnalysis(const std::vector<KernelRecord>& kernels,
                                                    const std::vector<TimeInterval>& communicationOps);

}  // namespace ascendsim
