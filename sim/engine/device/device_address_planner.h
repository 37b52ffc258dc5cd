#pragma once
// Assigns every workload tensor a GM address before lowering, so the L2 model sees the same
// address reuse a caching allocator produces: weights, inputs and state get a fixed region;
// activations and gradients are placed first-fit into space freed after their last consumer.
#include <cstdint>
#include <string>
#include <unordered_map>

#include "sim/workload/workload.h"

namespace ascendsim {

class DeviceAddressPlanner {
public:
    // 512 B, like the PTA caching allocator's smallest block rounding.
    static constexpr std::uint64_t kAlignmentBytes = 512;
    // GM addresses start above 0 so a zero address is never a valid tensor.
    static constexpr std::uint64_t kBaseAddress = 0x100000000ULL;

    explicit DeviceAddressPlanner(const Workload& workload);

    std::uint64_t addressOf(const std::string& tensorName) const;
    std::uint64_t peakBytes() const { return peakBytes_; }

private:
    std::unordered_map<std::string, std::uint64_t> addresses_;
    std::uint64_t peakBytes_ = 0;
};

}  // namespace ascendsim
