#include "models/functional/float_conversion.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace ascendsim {

namespace {

std::uint32_t bitsOf(float value) {
    std::uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

float floatOf(std::uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// Shifts `value` right by `shift` bits rounding to nearest, ties to even.
std::uint32_t shiftRightRoundEven(std::uint32_t value, unsigned shift) {
    if (shift == 0) return value;
    if (shift > 31) return 0;
    const std::uint32_t kept = value >> shift;
    const std::uint32_t remainder = value & ((1u << shift) - 1u);
    const std::uint32_t half = 1u << (shift - 1);
    if (remainder > half || (remainder == half && (kept & 1u))) return kept + 1;
    return kept;
}

template <typename Int>
Int truncateSaturating(double value) {
    if (std::isnan(value)) return 0;
    const double truncated = std::trunc(value);
    if (truncated <= static_cast<double>(std::numeric_limits<Int>::min()))
        return std::numeric_limits<Int>::min();
    if (truncated >= static_cast<double>(std::numeric_limits<Int>::max()))
        return std::numeric_limits<Int>::max();
    return static_cast<Int>(truncated);
}

template <typename T>
T loadAs(const std::uint8_t* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

template <typename T>
void storeAs(std::uint8_t* bytes, T value) {
    std::memcpy(bytes, &value, sizeof value);
}

}  // namespace

std::uint16_t floatToHalfBits(float value) {
    const std::uint32_t bits = bitsOf(value);
    const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
    const std::uint32_t exponent = (bits >> 23) & 0xFFu;
    const std::uint32_t mantissa = bits & 0x7FFFFFu;
    if (exponent == 0xFF)  // inf or NaN (keep NaN quiet and non-zero)
        return static_cast<std::uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
    const int unbiased = static_cast<int>(exponent) - 127;
    if (unbiased > 15) return static_cast<std::uint16_t>(sign | 0x7C00u);
    if (unbiased >= -14) {
        // Normal fp16: round the 23-bit mantissa to 10 bits; a carry may bump the exponent,
        // which the addition handles (and overflows into inf exactly when it should).
        const std::uint32_t combined = (static_cast<std::uint32_t>(unbiased + 15) << 10) +
                                       shiftRightRoundEven(mantissa, 13);
        return static_cast<std::uint16_t>(sign | (combined >= 0x7C00u ? 0x7C00u : combined));
    }
    // Subnormal fp16 (or underflow to zero): value = m · 2^-24.
    if (exponent == 0) return sign;  // fp32 subnormals are far below fp16's smallest subnormal
    const std::uint32_t fullMantissa = mantissa | 0x800000u;
    const unsigned shift = static_cast<unsigned>(-14 - unbiased) + 13;
    return static_cast<std::uint16_t>(sign | shiftRightRoundEven(fullMantissa, shift));
}

float halfBitsToFloat(std::uint16_t bits) {
    const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
    const std::uint32_t exponent = (bits >> 10) & 0x1Fu;
    const std::uint32_t mantissa = bits & 0x3FFu;
    if (exponent == 0x1F) return floatOf(sign | 0x7F800000u | (mantissa << 13));
    if (exponent != 0) return floatOf(sign | ((exponent + 112) << 23) | (mantissa << 13));
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
}

std::uint16_t floatToBf16Bits(float value) {
    const std::uint32_t bits = bitsOf(value);
    if (std::isnan(value)) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
    // Rounding the low 16 bits may carry into the exponent; that is the correct result (up to inf).
    return static_cast<std::uint16_t>(shiftRightRoundEven(bits, 16));
}

float bf16BitsToFloat(std::uint16_t bits) { return floatOf(static_cast<std::uint32_t>(bits) << 16); }

std::int8_t floatToInt8Saturating(double value) { return truncateSaturating<std::int8_t>(value); }
std::int32_t floatToInt32Saturating(double value) { return truncateSaturating<std::int32_t>(value); }

double roundToType(double value, DataType dtype) {
    std::uint8_t scratch[8] = {};
    storeElement(scratch, dtype, value);
    return loadElement(scratch, dtype);
}

double loadElement(const std::uint8_t* bytes, DataType dtype) {
    switch (dtype) {
        case DataType::Fp16: return halfBitsToFloat(loadAs<std::uint16_t>(bytes));
        case DataType::Bf16: return bf16BitsToFloat(loadAs<std::uint16_t>(bytes));
        case DataType::Fp32:
        case DataType::Hf32: return loadAs<float>(bytes);
        case DataType::Int8: return loadAs<std::int8_t>(bytes);
        case DataType::Uint8: return loadAs<std::uint8_t>(bytes);
        case DataType::Int16: return loadAs<std::int16_t>(bytes);
        case DataType::Int32: return loadAs<std::int32_t>(bytes);
        case DataType::Int64: return static_cast<double>(loadAs<std::int64_t>(bytes));
        case DataType::Bool: return bytes[0] != 0 ? 1.0 : 0.0;
    }
    return 0.0;
}

void storeElement(std::uint8_t* bytes, DataType dtype, double value) {
    switch (dtype) {
        case DataType::Fp16: storeAs(bytes, floatToHalfBits(static_cast<float>(value))); return;
        case DataType::Bf16: storeAs(bytes, floatToBf16Bits(static_cast<float>(value))); return;
        case DataType::Fp32:
        case DataType::Hf32: storeAs(bytes, static_cast<float>(value)); return;
        case DataType::Int8: storeAs(bytes, truncateSaturating<std::int8_t>(value)); return;
        case DataType::Uint8: storeAs(bytes, truncateSaturating<std::uint8_t>(value)); return;
        case DataType::Int16: storeAs(bytes, truncateSaturating<std::int16_t>(value)); return;
        case DataType::Int32: storeAs(bytes, truncateSaturating<std::int32_t>(value)); return;
        case DataType::Int64: storeAs(bytes, truncateSaturating<std::int64_t>(value)); return;
        case DataType::Bool: bytes[0] = value != 0.0 ? 1 : 0; return;
    }
}

}  // namespace ascendsim
