#include <algorithm>
#include <cmath>

#include "models/timing/transfer_timing.h"

namespace ascendsim {

namespace {

std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// K extent of one fractal: a fractal row is 32 bytes (hardware.md §1.1 DtypeMKN: fp16 16,
// int8 32), so 32-bit inputs (fp32, hf32) hold 8 elements per row [I].
std::uint64_t fractalKFor(const CubeTimingConfig& cube, DataType dtype) {
    switch (dtype) {
        case DataType::Int8:
        case DataType::Uint8:
            return cube.int8FractalK;
        case DataType::Fp32:
        case DataType::Hf32:
            return std::max<std::uint64_t>(1, cube.fractalK / 2);
        default:
            return cube.fractalK;
    }
}

}  // namespace

CubeTiming::CubeTiming(const ChipConfig& chip) : chip_(chip) {}

std::uint64_t CubeTiming::fractals(const Mmad& mmad) const {
    const CubeTimingConfig& cube = chip_.cube;
    return ceilDiv(std::max<std::uint64_t>(mmad.m, 1), cube.fractalM) *
           ceilDiv(std::max<std::uint64_t>(mmad.k, 1), fractalKFor(cube, mmad.dtype)) *
           ceilDiv(std::max<std::uint64_t>(mmad.n, 1), cube.fractalN);
}

// One fractal per cycle (a true-fp32 fractal `fp32CyclesPerFractal`, a rate: the instruction's
// fractals take the whole cycles that rate rounds up to) plus a fixed per-instruction overhead,
// never below the minimum issue cost (hardware.md §2.5: 910b1 m=32 k=16 sweep implies ≈2 cycles
// overhead, 5 for the smallest).
std::uint64_t CubeTiming::cycles(const Mmad& mmad) const {
    const CubeTimingConfig& cube = chip_.cube;
    const std::uint64_t fractalCount = fractals(mmad);
    // The 1e-9 keeps a decimal rate's binary rounding (e.g. 100 × 2.55 = 254.99999…) from adding a cycle.
    const std::uint64_t fractalCycles =
        mmad.dtype == DataType::Fp32
            ? static_cast<std::uint64_t>(std::ceil(static_cast<double>(fractalCount) * cube.fp32CyclesPerFractal - 1e-9))
            : fractalCount;
    return std::max<std::uint64_t>(cube.mmadMinCycles, fractalCycles + cube.mmadOverheadCycles);
}

}  // namespace ascendsim
