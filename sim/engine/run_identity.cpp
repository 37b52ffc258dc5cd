#include "sim/engine/run_identity.h"

#include <unistd.h>

#include <chrono>
#include <ctime>

namespace ascendsim {

namespace {

std::int64_t localUtcOffsetSeconds(std::uint64_t epochNs) {
    const std::time_t seconds = static_cast<std::time_t>(epochNs / 1'000'000'000ULL);
    std::tm local{};
    localtime_r(&seconds, &local);
    return local.tm_gmtoff;
}

std::string machineHostName() {
    char name[256] = {};
    if (gethostname(name, sizeof(name) - 1) != 0) return "localhost";
    return name;
}

}  // namespace

RunIdentity runIdentity(const SimulationOptions& options) {
    RunIdentity id;
    if (options.deterministic) {
        id.epochNs = kDeterministicEpochNs;
        id.utcOffsetSeconds = 0;
        id.processId = kDeterministicPid;
        id.hostName = kDeterministicHostName;
    } else {
        id.epochNs = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                    std::chrono::system_clock::now().time_since_epoch())
                                                    .count());
        id.utcOffsetSeconds = localUtcOffsetSeconds(id.epochNs);
        id.processId = static_cast<std::uint32_t>(getpid());
        id.hostName = machineHostName();
    }
    if (options.epochNs) {
        id.epochNs = *options.epochNs;
        if (!options.deterministic) id.utcOffsetSeconds = localUtcOffsetSeconds(id.epochNs);
    }
    if (options.pid) id.processId = *options.pid;
    if (options.hostname) id.hostName = *options.hostname;
    return id;
}

}  // namespace ascendsim
