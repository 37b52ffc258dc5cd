#include "profiler/writers/timeline/overlap_analysis.h"

#include <algorithm>
#include <tuple>

namespace ascendsim {

const char* overlapKindName(OverlapKind kind) {
    switch (kind) {
        case OverlapKind::Computing: return "Computing";
        case OverlapKind::Communication: return "Communication";
        case OverlapKind::CommunicationNotOverlapped: return "Communication(Not Overlapped)";
        case OverlapKind::Free: return "Free";
    }
    return "Computing";
}

std::vector<TimeInterval> mergeIntervals(std::vector<TimeInterval> intervals) {
    std::erase_if(intervals, [](const TimeInterval& t) { return t.endNs <= t.startNs; });
    std::sort(intervals.begin(), intervals.end(),
              [](const TimeInterval& a, const TimeInterval& b) { return a.startNs < b.startNs; });
    std::vector<TimeInterval> merged;
    for (const auto& t : intervals) {
        if (!merged.empty() && t.startNs <= merged.back().endNs) {
            merged.back().endNs = std::max(merged.back().endNs, t.endNs);
        } else {
            merged.push_back(t);
        }
    }
    return merged;
}

std::vector<TimeInterval> subtractIntervals(const std::vector<TimeInterval>& minuend,
                                            const std::vector<TimeInterval>& subtrahend) {
    std::vector<TimeInterval> result;
    std::size_t j = 0;
    for (const auto& piece : minuend) {
        std::uint64_t cursor = piece.startNs;
        while (j < subtrahend.size() && subtrahend[j].endNs <= cursor) ++j;
        std::size_t k = j;
        while (k < subtrahend.size() && subtrahend[k].startNs < piece.endNs) {
            if (subtrahend[k].startNs > cursor) result.push_back({cursor, subtrahend[k].startNs});
            cursor = std::max(cursor, subtrahend[k].endNs);
            ++k;
        }
        if (cursor < piece.endNs) result.push_back({cursor, piece.endNs});
    }
    return result;
}

std::vector<OverlapInterval> computeOverlapAnalysis(const std::vector<KernelRecord>& kernels,
                                                    const std::vector<TimeInterval>& communicationOps) {
    std::vector<TimeInterval> computeTasks;
    computeTasks.reserve(kernels.size());
    for (const auto& k : kernels) computeTasks.push_back({k.device.startNs, k.device.endNs});
    const auto computing = mergeIntervals(computeTasks);
    const auto communication = mergeIntervals(communicationOps);
    const auto notOverlapped = subtractIntervals(communication, computing);

    std::vector<TimeInterval> busyParts = computing;
    busyParts.insert(busyParts.end(), communication.begin(), communication.end());
    const auto busy = mergeIntervals(busyParts);
    std::vector<TimeInterval> free;
    if (!busy.empty()) {
        std::uint64_t first = busy.front().startNs;
        std::uint64_t last = busy.back().endNs;
        for (const auto& k : kernels) {
            first = std::min(first, k.device.startNs);
            last = std::max(last, k.device.endNs);
        }
        free = subtractIntervals({{first, last}}, busy);
    }

    std::vector<OverlapInterval> out;
    auto add = [&out](OverlapKind kind, const std::vector<TimeInterval>& parts) {
        for (const auto& p : parts) out.push_back({kind, p});
    };
    add(OverlapKind::Computing, computing);
    add(OverlapKind::Communication, communication);
    add(OverlapKind::CommunicationNotOverlapped, notOverlapped);
    add(OverlapKind::Free, free);
    std::stable_sort(out.begin(), out.end(), [](const OverlapInterval& a, const OverlapInterval& b) {
        return std::tie(a.span.startNs, a.kind) < std::tie(b.span.startNs, b.kind);
    });
    return out;
}

}  // namespace ascendsim
