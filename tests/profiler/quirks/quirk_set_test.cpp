#include <gtest/gtest.h>

#include "profiler/quirks/file_quirks.h"
#include "profiler/quirks/quirk_set.h"

namespace ascendsim {
namespace {

TEST(QuirkSet, NamesParseBackToTheirQuirkAndEmptyTextIsNone) {
    std::string every;
    for (Quirk q : allQuirks()) every += std::string(quirkName(q)) + ",";
    EXPECT_EQ(parseQuirks(every).size(), allQuirks().size());
    EXPECT_TRUE(parseQuirks("").empty());
    EXPECT_EQ(parseQuirks("lf-endings,lf-endings"), QuirkSet{Quirk::LfEndings});
}

TEST(QuirkSet, UnknownQuirkNamesItAndListsTheValidOnes) {
    try {
        parseQuirks("lf-endings,crlf");
        FAIL() << "expected an error";
    } catch (const std::invalid_argument& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("--quirks: unknown quirk 'crlf'"), std::string::npos) << message;
        EXPECT_NE(message.find("cut-ranks"), std::string::npos) << message;
    }
}

// e5a31957 test_rank_1 memory_record.csv shows 1.69512E+15 where torch_npu wrote 16 digits.
TEST(SpreadsheetNumber, LargeTimestampsKeepSixSignificantDigitsInScientificNotation) {
    EXPECT_EQ(spreadsheetGeneralNumber("1695120000000000.000"), "1.69512E+15");
    EXPECT_EQ(spreadsheetGeneralNumber("1736408883732241.563"), "1.73641E+15");
    EXPECT_EQ(spreadsheetGeneralNumber("1700000000000000"), "1.7E+15");
}

TEST(SpreadsheetNumber, SmallNumbersAndTextStayReadable) {
    EXPECT_EQ(spreadsheetGeneralNumber("10750.375"), "10750.4");
    EXPECT_EQ(spreadsheetGeneralNumber("12"), "12");
    EXPECT_EQ(spreadsheetGeneralNumber("NPU:1"), "NPU:1");
    EXPECT_EQ(spreadsheetGeneralNumber(""), "");
}

}  // namespace
}  // namespace ascendsim
