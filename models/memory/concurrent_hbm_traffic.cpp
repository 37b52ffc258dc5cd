#include "models/memory/concurrent_hbm_traffic.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

ConcurrentHbmTraffic::ConcurrentHbmTraffic(std::vector<ConcurrentHbmWindow> windows) : windows_(std::move(windows)) {
    for (const ConcurrentHbmWindow& window : windows_) {
        if (!(window.endPs > window.startPs)) throw std::invalid_argument("concurrent HBM window must end after it starts");
        if (!(window.hbmBytesPerPs >= 0.0)) throw std::invalid_argument("concurrent HBM rate must be >= 0");
    }
}

double ConcurrentHbmTraffic::bytesPerPsAt(double atPs) const {
    double rate = 0.0;
    for (const ConcurrentHbmWindow& window : windows_)
        if (atPs >= window.startPs && atPs < window.endPs) rate += window.hbmBytesPerPs;
    return rate;
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
