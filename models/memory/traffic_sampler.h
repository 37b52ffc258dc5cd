#pragma once
// Time-bucketed memory-side counters, the model's equivalent of the sampled hardware counters
// CANN reads every 20 ms when profile_memory is on (the trace's HBM and LLC counter processes,
// the DB tables HBM and LLC). The memory system adds each access into the bucket of its start
// time; the engine later sums buckets into the real sampling intervals of each collection window.
//
// Buckets are much shorter than CANN's 20 ms period so that intervals can start where a
// collection window starts (CANN's sampling starts with the collection) and a run shorter than
// one period still has its traffic inside its window.
#include <cstdint>
#include <map>

#include "models/memory/l2_cache.h"

namespace ascendsim {

// The L2's read ports as the L2 model numbers them (even line index -> 0, odd -> 1); the
// sampled LLC counters report one series per port.
inline constexpr std::uint32_t kL2ReadPortCount = 2;

struct TrafficBucket {
    std::uint64_t hbmReadBytes = 0;                         // L2 fills
    std::uint64_t hbmWriteBytes = 0;                        // dirty write-backs
    std::uint64_t l2ReadHits[kL2ReadPortCount] = {0, 0};    // lines
    std::uint64_t l2ReadMisses[kL2ReadPortCount] = {0, 0};  // lines
    std::uint64_t l2ReadBytes = 0;                          // bytes served to readers, all ports

    TrafficBucket& operator+=(const TrafficBucket& other);
};

class TrafficSampler {
  public:
    // 100 µs: 200 buckets per CANN period, up to 10 000 per simulated second of traffic. Only
    // buckets that saw an access are kept, so a run whose chip stretches simulated time (a huge
    // latency) costs memory by its traffic, not by its length.
    static constexpr std::uint64_t kDefaultBucketPs = 100'000'000;

    // bucketPs > 0; throws std::invalid_argument otherwise.
    explicit TrafficSampler(std::uint64_t bucketPs = kDefaultBucketPs);

    // The bucket holding simulated time `timePs`; cheap when accesses arrive in time order
    // (the common case: one compare against the cached current bucket).
    TrafficBucket& bucketAt(std::uint64_t timePs) {
        if (timePs >= currentStartPs_ && timePs - currentStartPs_ < bucketPs_) return *current_;
        return seek(timePs);
    }

    // One access's contribution, added into the bucket of its start: the HBM fills and write-backs
    // it caused and, for a read, its bytes and its L2 lines per port. Adds only (the hot path).
    void addAccess(std::uint64_t startPs, bool isWrite, std::uint64_t bytes,
                   const L2RangeOutcome& lines, std::uint64_t hbmReadBytes,
                   std::uint64_t hbmWriteBytes) {
        TrafficBucket& bucket = bucketAt(startPs);
        bucket.hbmReadBytes += hbmReadBytes;
        bucket.hbmWriteBytes += hbmWriteBytes;
        if (isWrite) return;
        bucket.l2ReadBytes += bytes;
        for (std::uint32_t port = 0; port < kL2ReadPortCount; ++port) {
            bucket.l2ReadHits[port] += lines.hits[port];
            bucket.l2ReadMisses[port] += lines.misses[port];
        }
    }

    // The sum of every bucket whose start lies in [fromPs, toPs).
    TrafficBucket sum(std::uint64_t fromPs, std::uint64_t toPs) const;

    std::uint64_t bucketPs() const { return bucketPs_; }
    std::size_t bucketsKept() const { return buckets_.size(); }

  private:
    TrafficBucket& seek(std::uint64_t timePs);

    std::uint64_t bucketPs_;
    std::map<std::uint64_t, TrafficBucket> buckets_;  // by bucket index; nodes never move
    TrafficBucket* current_;
    std::uint64_t currentStartPs_ = 0;
};

}  // namespace ascendsim
