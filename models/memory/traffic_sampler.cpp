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

TrafficSampler::TrafficSampler(std::uint64_t bucketPs) : bucketPs_(bucketPs) {
    if (bucketPs == 0)
        throw std::invalid_argument("traffic sampler bucket must be longer than 0 ps");
    current_ = &buckets_[0];
}

TrafficBucket& TrafficSampler::seek(std::uint64_t timePs) {
    const std::uint64_t index = timePs / bucketPs_;
    currentStartPs_ = index * bucketPs_;
    current_ = &buckets_[index];
    return *current_;
}

TrafficBucket TrafficSampler::sum(std::uint64_t fromPs, std::uint64_t toPs) const {
    TrafficBucket total;
    // First bucket starting at or after fromPs, up to the last one starting before toPs.
    const std::uint64_t first = (fromPs + bucketPs_ - 1) / bucketPs_;
    const std::uint64_t end = toPs == 0 ? 0 : (toPs - 1) / bucketPs_ + 1;
    for (auto it = buckets_.lower_bound(first); it != buckets_.end() && it->first < end; ++it)
        total += it->second;
    return total;
}

}  // namespace ascendsim
