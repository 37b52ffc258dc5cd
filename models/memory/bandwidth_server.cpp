#include "models/memory/bandwidth_server.h"

#include <algorithm>
#include <stdexcept>

namespace ascendsim {

BandwidthServer::BandwidthServer(double bytesPerPs) : bytesPerPs_(bytesPerPs) {
    if (!(bytesPerPs > 0.0)) throw std::invalid_argument("bandwidth must be positive");
}

double BandwidthServer::serve(double arrivalPs, double bytes) {
    if (bytes <= 0.0) return arrivalPs;
    const double start = std::max(arrivalPs, nextFreePs_);
    const double duration = bytes / bytesPerPs_;
    nextFreePs_ = start + duration;
    busyPs_ += duration;
    return nextFreePs_;
}

}  // namespace ascendsim
