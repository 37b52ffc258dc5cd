#include "models/functional/float_conversion.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ascendsim {
namespace {

TEST(FloatConversion, HalfRoundTripsEveryFiniteHalfExactly) {
    for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
        const auto half = static_cast<std::uint16_t>(bits);
        if ((half & 0x7C00u) == 0x7C00u) continue;  // inf / NaN
        EXPECT_EQ(floatToHalfBits(halfBitsToFloat(half)), half) << std::hex << bits;
    }
}

TEST(FloatConversion, HalfRoundsTiesToEven) {
    // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1.0).
    EXPECT_EQ(floatToHalfBits(1.0f + std::ldexp(1.0f, -11)), 0x3C00u);
    // 1 + 3·2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even): rounds up.
    EXPECT_EQ(floatToHalfBits(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3C02u);
    // Just above the tie rounds up.
    EXPECT_EQ(floatToHalfBits(std::nextafter(1.0f + std::ldexp(1.0f, -11), 2.0f)), 0x3C01u);
}

TEST(FloatConversion, HalfOverflowsToInfinityAndKeepsSubnormals) {
    EXPECT_EQ(floatToHalfBits(65504.0f), 0x7BFFu);
    EXPECT_EQ(floatToHalfBits(65520.0f), 0x7C00u);  // the tie above max rounds to inf
    EXPECT_EQ(floatToHalfBits(-1e6f), 0xFC00u);
    EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -24)), 0x0001u);  // smallest subnormal
    EXPECT_EQ(floatToHalfBits(std::ldexp(1.0f, -26)), 0x0000u);  // below half of it
    EXPECT_EQ(halfBitsToFloat(0x0001u), std::ldexp(1.0f, -24));
    EXPECT_TRUE(std::isnan(halfBitsToFloat(floatToHalfBits(std::nanf("")))));
}

TEST(FloatConversion, Bf16KeepsTheExponentAndRoundsTheMantissaToEven) {
    EXPECT_EQ(floatToBf16Bits(1.0f), 0x3F80u);
    EXPECT_EQ(floatToBf16Bits(1.0f + std::ldexp(1.0f, -8)), 0x3F80u);       // tie → even
    EXPECT_EQ(floatToBf16Bits(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3F82u);   // tie → even (up)
    EXPECT_NEAR(bf16BitsToFloat(floatToBf16Bits(3e38f)) / 3e38, 1.0, std::ldexp(1.0, -8));
    EXPECT_TRUE(std::isinf(bf16BitsToFloat(floatToBf16Bits(std::numeric_limits<float>::max()))));
    EXPECT_TRUE(std::isnan(bf16BitsToFloat(floatToBf16Bits(std::nanf("")))));
}

TEST(FloatConversion, IntegersTruncateTowardZeroAndSaturate) {
    EXPECT_EQ(floatToInt8Saturating(300.0), 127);
    EXPECT_EQ(floatToInt8Saturating(-300.0), -128);
    EXPECT_EQ(floatToInt8Saturating(-2.7), -2);
    EXPECT_EQ(floatToInt8Saturating(std::nan("")), 0);
    EXPECT_EQ(floatToInt32Saturating(3e10), std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(floatToInt32Saturating(2.9), 2);
}

TEST(FloatConversion, ElementsStoreAndLoadInTheirOwnWidth) {
    std::uint8_t bytes[8] = {};
    storeElement(bytes, DataType::Int32, 123456789.0);
    EXPECT_EQ(loadElement(bytes, DataType::Int32), 123456789.0);
    storeElement(bytes, DataType::Fp16, 0.1);
    EXPECT_EQ(loadElement(bytes, DataType::Fp16), halfBitsToFloat(floatToHalfBits(0.1f)));
    storeElement(bytes, DataType::Int8, 200.0);
    EXPECT_EQ(loadElement(bytes, DataType::Int8), 127.0);
    EXPECT_EQ(roundToType(1.0 / 3.0, DataType::Bf16), 0.333984375);
}

}  // namespace
}  // namespace ascendsim
