#include "models/memory/concurrent_hbm_traffic.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>
#include <utility>

namespace ascendsim {

namespace {
void checkConcurrentHbmWindows(const std::vector<ConcurrentHbmWindow>& windows) {
    for (const ConcurrentHbmWindow& window : windows) {
        if (!(window.endPs > window.startPs)) throw std::invalid_argument("concurrent HBM window must end after it starts");
        if (!(window.hbmBytesPerPs >= 0.0)) throw std::invalid_argument("concurrent HBM rate must be >= 0");
    }
}
}  // namespace

ConcurrentHbmTraffic::ConcurrentHbmTraffic(std::vector<ConcurrentHbmWindow> windows) : windows_(std::move(windows)) {
    checkConcurrentHbmWindows(windows_);
    rebuildSegments();
}

void ConcurrentHbmTraffic::add(const std::vector<ConcurrentHbmWindow>& windows) {
    if (windows.empty()) return;
    checkConcurrentHbmWindows(windows);
    windows_.insert(windows_.end(), windows.begin(), windows.end());
    rebuildSegments();
}

void ConcurrentHbmTraffic::rebuildSegments() {
    segments_.clear();
    // (time, window index, starts) for every edge; at one time ends come before starts ([start, end)).
    struct Edge {
        double atPs;
        bool starts;
        std::size_t window;
    };
    std::vector<Edge> edges;
    edges.reserve(windows_.size() * 2);
    for (std::size_t i = 0; i < windows_.size(); ++i) {
        edges.push_back(Edge{windows_[i].startPs, true, i});
        edges.push_back(Edge{windows_[i].endPs, false, i});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
        if (a.atPs != b.atPs) return a.atPs < b.atPs;
        if (a.starts != b.starts) return !a.starts;
        return a.window < b.window;
    });
    std::set<std::size_t> active;  // ordered: rates add in window order
    for (std::size_t e = 0; e < edges.size();) {
        const double atPs = edges[e].atPs;
        for (; e < edges.size() && edges[e].atPs == atPs; ++e) {
            if (edges[e].starts)
                active.insert(edges[e].window);
            else
                active.erase(edges[e].window);
        }
        double rate = 0.0;
        for (const std::size_t i : active) rate += windows_[i].hbmBytesPerPs;
        segments_.push_back(Segment{atPs, rate});
    }
}

double ConcurrentHbmTraffic::bytesPerPsAt(double atPs) const {
    // The last segment starting at or before atPs.
    const auto after = std::upper_bound(segments_.begin(), segments_.end(), atPs,
                                        [](double at, const Segment& segment) { return at < segment.startPs; });
    return after == segments_.begin() ? 0.0 : std::prev(after)->bytesPerPs;
}

double ConcurrentHbmTraffic::slowdownAt(double atPs, double streamBytesPerPs,
                                        double capacityBytesPerPs) const {
    if (!(streamBytesPerPs > 0.0)) throw std::invalid_argument("HBM stream rate must be > 0");
    if (!(capacityBytesPerPs >= streamBytesPerPs))
        throw std::invalid_argument("HBM capacity for concurrent streams must be >= one stream's rate");
    const double background = bytesPerPsAt(atPs);
    if (background <= 0.0) return 1.0;
    const double share = std::min(background / capacityBytesPerPs, kMaxShare);
    // S / (C (1 - share)), written so that C = S gives 1 / (1 - share) exactly.
    return std::max(1.0, (streamBytesPerPs / capacityBytesPerPs) / (1.0 - share));
}

}  // namespace ascendsim
