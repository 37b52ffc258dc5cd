#pragma once
// How long a host<->device copy (the runtime's MEMCPY_ASYNC task, a PCIe DMA) occupies its
// stream: a fixed DMA setup plus the bytes over the PCIe link.
#include <cstdint>

namespace ascendsim {

// A small copy (tiling data, a scalar): median 2.2 us over the 12 MEMCPY_ASYNC tasks of 2.16-2.82
// us issued by aclopCompileAndExecute in the real e5a31957 Level1 DB (TASK table).
inline constexpr std::uint64_t kPcieCopySetupNs = 2'200;
// Bytes per ns of a large DMA: PCIe 4.0 x16 carries 31.5 GB/s per direction before protocol
// overhead; ~24 GB/s reach the device (assumed: hardware.md has no PCIe figure).
inline constexpr std::uint64_t kPcieBytesPerNs = 24;

inline std::uint64_t pcieCopyNs(std::uint64_t bytes) { return kPcieCopySetupNs + bytes / kPcieBytesPerNs; }

}  // namespace ascendsim
