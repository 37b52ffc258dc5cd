#pragma once
// Who and when a run claims to be: wall-clock epoch of simulated time 0, process id, host name.
// Real runs take them from the machine; --deterministic fixes them (each overridable) so two runs
// produce byte-identical directories (DESIGN.md decision 7).
#include <cstdint>
#include <string>

#include "sim/engine/simulation_options.h"

namespace ascendsim {

struct RunIdentity {
    std::uint64_t epochNs = 0;
    std::int64_t utcOffsetSeconds = 0;  // local time = UTC + offset (directory names use local time)
    std::uint32_t processId = 0;
    std::string hostName;
};

// Fixed values of --deterministic: 2025-11-27 12:00:00 UTC, pid 1234567, host "ascendsim", UTC.
inline constexpr std::uint64_t kDeterministicEpochNs = 1764244800000000000ULL;
inline constexpr std::uint32_t kDeterministicPid = 1234567;
inline constexpr const char* kDeterministicHostName = "ascendsim";

RunIdentity runIdentity(const SimulationOptions& options);

}  // namespace ascendsim
