#pragma once
// Element encodings of the functional model: IEEE fp16, bf16 and fp32 bit patterns, integer
// types with saturation. Every narrowing conversion rounds to nearest, ties to even (the default
// rounding of the DaVinci vector unit and of torch); NaN stays NaN, overflow becomes ±inf for
// floats and saturates for integers.
#include <cstdint>

#include "models/isa/data_type.h"

namespace ascendsim {

std::uint16_t floatToHalfBits(float value);
float halfBitsToFloat(std::uint16_t bits);
std::uint16_t floatToBf16Bits(float value);
float bf16BitsToFloat(std::uint16_t bits);

// Float → integer: rounds toward zero (as CANN's Cast and torch's .to(int) do), saturates to the
// type's range, NaN → 0.
std::int8_t floatToInt8Saturating(double value);
std::int32_t floatToInt32Saturating(double value);

// Rounds `value` to the nearest value representable in `dtype` (identity for fp32/hf32 beyond
// float rounding; integer types truncate and saturate).
double roundToType(double value, DataType dtype);

// Reads/writes one element of `dtype` at `bytes` (little-endian, unaligned access is fine).
// Hf32 is stored as fp32; Bool as one byte 0/1.
double loadElement(const std::uint8_t* bytes, DataType dtype);
void storeElement(std::uint8_t* bytes, DataType dtype, double value);

}  // namespace ascendsim
