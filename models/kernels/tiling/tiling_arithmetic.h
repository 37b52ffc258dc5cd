#pragma once
// Integer arithmetic every kernel's tiling shares, vector and cube alike: one definition, so a file
// that sees both tiling headers (cube_tiling.h brings its namespace into ascendsim) finds one ceilDiv.
#include <cstdint>

namespace ascendsim {

// ⌈a / b⌉ for b > 0.
inline constexpr std::uint64_t ceilDiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

}  // namespace ascendsim
