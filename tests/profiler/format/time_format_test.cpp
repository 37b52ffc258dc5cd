#include "profiler/format/time_format.h"

#include <gtest/gtest.h>

namespace ascendsim {
namespace {

TEST(TimeFormat, NanosecondsPrintAsMicrosecondsWithThreeDecimals) {
    EXPECT_EQ(nsToUsString(1736405443881410320ULL), "1736405443881410.320");
    EXPECT_EQ(nsToUsString(5), "0.005");
    EXPECT_EQ(nsToUsString(0), "0.000");
    EXPECT_EQ(nsToUsString(1000), "1.000");
}

TEST(TimeFormat, AbsoluteColumnsCarryATrailingTab) {
    EXPECT_EQ(nsToUsStringWithTab(1234567), "1234.567\t");
}

}  // namespace
}  // namespace ascendsim
