#pragma once
// Where a launch's argument and tiling record lies in GM (ChipConfig::blockArgumentReadBytes,
// docs/fidelity.md §58). The runtime copies each launch's arguments into device memory before the
// launch; where is not recorded, only that the launch's blocks share one record. Records are kept
// in lines of their own at the top of GM, kLaunchArgumentRecords launches apart, so two launches
// running at once never share a record's line.
#include <cstdint>

#include "models/chip/chip_config.h"

namespace ascendsim {

inline constexpr std::uint64_t kLaunchArgumentRecords = 1024;

// Bytes of one record rounded up to whole L2 lines.
inline std::uint64_t launchArgumentRecordStride(const ChipConfig& chip) {
    const std::uint64_t line = chip.l2.lineBytes;
    return (chip.blockArgumentReadBytes + line - 1) / line * line;
}

// The GM the records take (chip validation requires it to fit GM).
inline std::uint64_t launchArgumentAreaBytes(const ChipConfig& chip) {
    return launchArgumentRecordStride(chip) * kLaunchArgumentRecords;
}

inline std::uint64_t launchArgumentRecordAddress(const ChipConfig& chip, std::uint64_t taskId) {
    return chip.bufferCapacity(MemSpace::GM) - launchArgumentAreaBytes(chip) +
           (taskId % kLaunchArgumentRecords) * launchArgumentRecordStride(chip);
}

}  // namespace ascendsim
