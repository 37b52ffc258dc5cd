#include "profiler/format/number_format.h"

#include <gtest/gtest.h>

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

TEST(SqliteRound, PythonRound3PrintsTheRoundedValueAsPythonWould) {
    EXPECT_EQ(pythonRound3(0.99612345), "0.996");
    EXPECT_EQ(pythonRound3(0.0001), "0.0");
    EXPECT_EQ(pythonRound3(0.01), "0.01");
    EXPECT_EQ(pythonRound3(165.8353), "165.835");
}

}  // namespace
}  // namespace ascendsim
