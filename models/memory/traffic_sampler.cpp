#include "models/memory/traffic_sampler.h"

#include <stdexcept>

namespace ascendsim {

TrafficBucket& TrafficBucket::operator+=(const TrafficBucket& other) {
    hbmReadBytes += other.hbmReadBytes;
    hbmWriteBytes += other.hbmWriteBytes;
    for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port) {
        l2ReadHits[port] += other.l2ReadHits[port];
        l2ReadMisses[port] += other.l2ReadMisses[port];
        l2ReadBytes[port] += other.l2ReadBytes[port];
    }
    return *this;
}

TrafficSampler::TrafficSampler(std::uint64_t bucketPs) : bucketPs_(bucketPs), buckets_(1) {
    if (bucketPs == 0) throw std::invalid_argument("traffic sampler bucket must be longer than 0 ps");
}

TrafficBucket& TrafficSampler::seek(std::uint64_t timePs) {
    currentIndex_ = static_cast<std::size_t>(timePs / bucketPs_);
    currentStartPs_ = currentIndex_ * bucketPs_;
    if (currentIndex_ >= buckets_.size()) buckets_.resize(currentIndex_ + 1);
    return buckets_[currentIndex_];
}

void TrafficSampler::addAccess(std::uint64_t startPs, bool isWrite, std::uint64_t bytes, const L2RangeOutcome& lines,
                               std::uint64_t hbmReadBytes, std::uint64_t hbmWriteBytes) {
    TrafficBucket& bucket = bucketAt(startPs);
    bucket.hbmReadBytes += hbmReadBytes;
    bucket.hbmWriteBytes += hbmWriteBytes;
    if (isWrite) return;
    const std::uint64_t lineCount = lines.hits[0] + lines.hits[1] + lines.totalMisses();
    if (lineCount == 0) return;
    for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port) {
        bucket.l2ReadHits[port] += lines.hits[port];
        bucket.l2ReadMisses[port] += lines.misses[port];
        bucket.l2ReadBytes[port] += bytes * (lines.hits[port] + lines.misses[port]) / lineCount;
    }
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
