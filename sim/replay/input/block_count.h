#pragma once

#include <cmath>
#include <cstdint>
#include <optional>

namespace ascendsim {

// A profile's Block Dim / Mix Block Dim as a block count: a whole number a core count can be
// (0 .. 2^32 - 1). Anything else (negative, fractional, past 32 bits, NaN) is a corrupt row that
// the text and DB readers report with their own line or row, never wrap in the conversion.
inline std::optional<std::uint32_t> blockCountFrom(double value) {
    if (!(value >= 0.0 && value <= 4294967295.0) || value != std::floor(value)) return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

}  // namespace ascendsim
