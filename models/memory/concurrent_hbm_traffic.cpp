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

double ConcurrentHbmTraffic::slowdownAt(double atPs, double hbmBytesPerPs) const {
    if (!(hbmBytesPerPs > 0.0)) throw std::invalid_argument("HBM rate must be > 0");
    const double share = std::min(bytesPerPsAt(atPs) / hbmBytesPerPs, kMaxShare);
    return 1.0 / (1.0 - share);
}

}  // namespace ascendsim
