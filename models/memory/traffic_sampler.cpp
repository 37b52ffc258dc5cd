#include "models/memory/traffic_sampler.h"

#include <stdexcept>

namespace ascendsim {

TrafficBucket& TrafficBucket::operator+=(const TrafficBucket& other) {
    hbmReadBytes += other.hbmReadBytes;
    hbmWriteBytes += other.hbmWriteBytes;
    l2ReadBytes += other.l2ReadBytes;
    for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port) {
        l2ReadHits[port] += other.l2ReadHits[port];
        l2ReadMisses[port] += other.l2ReadMisses[port];
    }
    return *this;
}

TrafficSampler::TrafficSampler(std::uint64_t bucketPs) : bucketPs_(bucketPs), buckets_(1) {
    if (bucketPs == 0)
        throw std::invalid_argument("traffic sampler bucket must be longer than 0 ps");
}

TrafficBucket& TrafficSampler::seek(std::uint64_t timePs) {
    currentIndex_ = static_cast<std::size_t>(timePs / bucketPs_);
    currentStartPs_ = currentIndex_ * bucketPs_;
    if (currentIndex_ >= buckets_.size()) buckets_.resize(currentIndex_ + 1);
    return buckets_[currentIndex_];
}

TrafficBucket TrafficSampler::sum(std::uint64_t fromPs, std::uint64_t toPs) const {
    TrafficBucket total;
    // First bucket starting at or after fromPs, up to the last one starting before toPs.
    const std::uint64_t first = (fromPs + bucketPs_ - 1) / bucketPs_;
    const std::uint64_t end = toPs == 0 ? 0 : (toPs - 1) / bucketPs_ + 1;
    for (std::uint64_t i = first; i < end && i < buckets_.size(); ++i) total += buckets_[i];
    return total;
}

}  // namespace ascendsim
