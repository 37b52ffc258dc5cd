#include "profiler/format/number_format.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

namespace ascendsim {
namespace {

TEST(PythonFloatRepr, MatchesValuesSeenInRealSamples) {
    EXPECT_EQ(pythonFloatRepr(1452.0), "1452.0");
    EXPECT_EQ(pythonFloatRepr(8827.472999999998), "8827.472999999998");
    EXPECT_EQ(pythonFloatRepr(935.9951171875), "935.9951171875");
    EXPECT_EQ(pythonFloatRepr(0.0), "0.0");
    EXPECT_EQ(pythonFloatRepr(0.052), "0.052");
    EXPECT_EQ(pythonFloatRepr(50.621), "50.621");
    EXPECT_EQ(pythonFloatRepr(4.1e-05), "4.1e-05");
    EXPECT_EQ(pythonFloatRepr(3989.5959999999905), "3989.5959999999905");
}

TEST(PythonFloatRepr, SwitchesToExponentBelow1eMinus4AndFrom1e16) {
    EXPECT_EQ(pythonFloatRepr(1e-05), "1e-05");
    EXPECT_EQ(pythonFloatRepr(0.0001), "0.0001");
    EXPECT_EQ(pythonFloatRepr(1e16), "1e+16");
    EXPECT_EQ(pythonFloatRepr(1.5e16), "1.5e+16");
    EXPECT_EQ(pythonFloatRepr(1e15), "1000000000000000.0");
    EXPECT_EQ(pythonFloatRepr(1736405443881410.2), "1736405443881410.2");
    EXPECT_EQ(pythonFloatRepr(1.23e-100), "1.23e-100");
    EXPECT_EQ(pythonFloatRepr(-2.5), "-2.5");
    EXPECT_EQ(pythonFloatRepr(0.1 + 0.2), "0.30000000000000004");
}

TEST(MsprofDoubleToStr, StripsTrailingZerosOfThreeDecimals) {
    EXPECT_EQ(msprofDoubleToStr(1959.079), "1959.079");
    EXPECT_EQ(msprofDoubleToStr(17.7), "17.7");
    EXPECT_EQ(msprofDoubleToStr(1.0), "1");
    EXPECT_EQ(msprofDoubleToStr(0.0), "0");
    EXPECT_EQ(msprofDoubleToStr(63128.66), "63128.66");
    EXPECT_EQ(msprofDoubleToStr(2254.59464), "2254.595");
}

TEST(FixedFormats, ThreeAndSixDecimals) {
    EXPECT_EQ(fixed3(1892.92), "1892.920");
    EXPECT_EQ(fixed3(0.0), "0.000");
    EXPECT_EQ(cFixed6(1881.08), "1881.080000");
    EXPECT_EQ(cFixed6(200.82), "200.820000");
}

TEST(SqliteRound, RoundsHalfUpOnTheDecimalText) {
    EXPECT_DOUBLE_EQ(sqliteRound(2.675, 2), 2.68);  // C printf would give 2.67
    EXPECT_DOUBLE_EQ(sqliteRound(0.0515, 3), 0.052);
    EXPECT_DOUBLE_EQ(sqliteRound(1883.8424, 3), 1883.842);
    EXPECT_DOUBLE_EQ(sqliteRound(-1.0005, 3), -1.001);
    EXPECT_DOUBLE_EQ(sqliteRound(0.1235, 3), 0.124);  // binary value is 0.12349999…
    EXPECT_DOUBLE_EQ(sqliteRound(2.5, 0), 3.0);
    EXPECT_DOUBLE_EQ(sqliteRound(1e17 + 0.5, 3), 1e17 + 0.5);
}

// The two algorithms spelled with printf and strtod, as SQLite and CPython describe them: the
// writers' to_chars versions must give the same bytes on any double.
double sqliteRoundByPrintf(double value, int digits) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.14e", std::fabs(value));
    const std::string scientific(buffer);
    const std::size_t ePos = scientific.find('e');
    std::string mantissa;
    for (std::size_t i = 0; i < ePos; ++i)
        if (scientific[i] != '.') mantissa.push_back(scientific[i]);
    const int keep = std::atoi(scientific.c_str() + ePos + 1) + 1 + digits;
    if (keep < 0) return value < 0 ? -0.0 : 0.0;
    std::string kept = mantissa.substr(0, std::min<std::size_t>(mantissa.size(), static_cast<std::size_t>(keep)));
    kept.append(static_cast<std::size_t>(keep) - kept.size(), '0');
    long double units = kept.empty() ? 0.0L : std::strtold(kept.c_str(), nullptr);
    if (static_cast<std::size_t>(keep) < mantissa.size() && mantissa[static_cast<std::size_t>(keep)] >= '5')
        units += 1.0L;
    char text[96];
    std::snprintf(text, sizeof text, "%.0Lfe-%d", units, digits);
    const double rounded = std::strtod(text, nullptr);
    return value < 0 ? -rounded : rounded;
}

// Python's repr: the shortest "%.17g"-or-fewer digits that read back, placed as float_repr does.
std::string pythonReprByPrintf(double value) {
    char buffer[64];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    const std::string scientific(buffer);
    const std::size_t ePos = scientific.find('e');
    std::string digits;
    for (std::size_t i = scientific[0] == '-' ? 1 : 0; i < ePos; ++i)
        if (scientific[i] != '.') digits.push_back(scientific[i]);
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    const int point = std::atoi(scientific.c_str() + ePos + 1) + 1;
    std::string text = value < 0 ? "-" : "";
    if (point <= -4 || point > 16) {
        text.append(digits, 0, 1);
        if (digits.size() > 1) text.append(".").append(digits, 1, std::string::npos);
        std::snprintf(buffer, sizeof buffer, "e%c%02d", point - 1 < 0 ? '-' : '+', std::abs(point - 1));
        return text + buffer;
    }
    if (point <= 0) {
        text.append("0.").append(static_cast<std::size_t>(-point), '0').append(digits);
        return text;
    }
    const auto at = static_cast<std::size_t>(point);
    if (digits.size() <= at) {
        text.append(digits).append(at - digits.size(), '0').append(".0");
        return text;
    }
    text.append(digits, 0, at).append(".").append(digits, at, std::string::npos);
    return text;
}

TEST(NumberFormat, ToCharsVersionsGiveTheBytesOfPrintf) {
    std::mt19937_64 random(20261202);
    std::uniform_real_distribution<double> microseconds(0.0, 2'000'000.0);
    std::uniform_int_distribution<int> decades(-12, 15);
    for (int i = 0; i < 200'000; ++i) {
        // Durations and ratios as the writers see them, values on a half-unit boundary, and raw
        // bit patterns (any finite double).
        double values[4] = {microseconds(random), std::ldexp(1.0, decades(random)) * microseconds(random) / 1e6,
                            std::floor(microseconds(random)) / 1000.0 + 0.0005,
                            std::bit_cast<double>(random())};
        for (double v : values) {
            if (!std::isfinite(v)) continue;
            ASSERT_EQ(pythonFloatRepr(v), pythonReprByPrintf(v)) << v;
            if (std::fabs(v) > 4503599627370496.0) continue;
            for (int digits : {1, 3, 6})
                ASSERT_EQ(std::bit_cast<std::uint64_t>(sqliteRound(v, digits)),
                          std::bit_cast<std::uint64_t>(sqliteRoundByPrintf(v, digits)))
                    << v << " to " << digits;
        }
    }
}

TEST(SqliteRound, PythonRound3PrintsTheRoundedValueAsPythonWould) {
    EXPECT_EQ(pythonRound3(0.99612345), "0.996");
    EXPECT_EQ(pythonRound3(0.0001), "0.0");
    EXPECT_EQ(pythonRound3(0.01), "0.01");
    EXPECT_EQ(pythonRound3(165.8353), "165.835");
}

}  // namespace
}  // namespace ascendsim
