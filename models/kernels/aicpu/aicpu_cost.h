#pragma once
// Cost model of the AI CPU ops (TopK, NonMaxSuppression, Unique): cycles of the TaiShan core that
// runs them, from operation counts. The device model adds the per-task launch overhead
// (ChipConfig::aiCpu.launchOverheadCycles); these are the kernel's own cycles.
#include <cstdint>

namespace ascendsim {

// One compare-and-maybe-swap step of a sort or heap on an ARM core: load, compare, a branch
// that mispredicts about half the time on random data, and a store (assumed ≈ 4 cycles).
inline constexpr double kAiCpuCyclesPerCompare = 4.0;
// Streaming one element in or out through the caches (assumed ≈ 1 cycle per 4 B at L1/L2 rates).
inline constexpr double kAiCpuCyclesPerElement = 1.0;
// One box-pair IoU: 4 min/max, 2 areas, a division and a compare (assumed ≈ 20 cycles).
inline constexpr double kAiCpuCyclesPerIou = 20.0;
// Argument parsing, shape checks and output bookkeeping of one AI CPU kernel (assumed).
inline constexpr double kAiCpuKernelSetupCycles = 2000.0;

// Compares of a comparison sort of n items: n·log2(n).
double sortCompares(double n);

}  // namespace ascendsim
