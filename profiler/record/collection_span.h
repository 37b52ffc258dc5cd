#pragma once
// The device-side span of a collection: from the first kernel's start (or 0 without kernels) to
// the later of the collection end and the last kernel's end. msprof samples the AI Core frequency
// at these two points, so trace_view's "AI Core Freq" counter and the DB's AICORE_FREQ share it.
#include <algorithm>
#include <cstdint>

#include "profiler/record/run_record.h"

namespace ascendsim {

struct CollectionSpan {
    std::uint64_t firstNs = 0;
    std::uint64_t lastNs = 0;
};

inline CollectionSpan deviceCollectionSpan(const RunRecord& run) {
    CollectionSpan span{run.kernels.empty() ? 0 : run.kernels.front().device.startNs, run.endNs};
    for (const KernelRecord& k : run.kernels) {
        span.firstNs = std::min(span.firstNs, k.device.startNs);
        span.lastNs = std::max(span.lastNs, k.device.endNs);
    }
    return span;
}

}  // namespace ascendsim
