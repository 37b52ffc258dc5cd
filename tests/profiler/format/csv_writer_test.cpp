#include "profiler/format/csv_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/scratch_dir.h"

namespace ascendsim {
namespace {

TEST(CsvWriter, TorchNpuDialectEndsRowsWithCrlf) {
    CsvTable table{{"Step", "Computing"}, {{"50", "8827.472999999998"}}};
    EXPECT_EQ(renderCsv(table, CsvDialect::TorchNpu), "Step,Computing\r\n50,8827.472999999998\r\n");
}

TEST(CsvWriter, CannDialectEndsRowsWithLfAndNeverQuotes) {
    CsvTable table{{"Device_id", "Input Shapes"}, {{"0", "\"\"\"1,1024;1024\"\"\""}}};
    EXPECT_EQ(renderCsv(table, CsvDialect::Cann),
              "Device_id,Input Shapes\n0,\"\"\"1,1024;1024\"\"\"\n");
}

TEST(CsvWriter, TorchNpuQuotesMinimallyAndDoublesInnerQuotes) {
    // kernel_details shape value "32,3,224,224" (with its quotes) becomes """32,3,224,224""".
    EXPECT_EQ(csvField("\"32,3,224,224\"", CsvDialect::TorchNpu), "\"\"\"32,3,224,224\"\"\"");
    EXPECT_EQ(csvField("\";;\"", CsvDialect::TorchNpu), "\"\"\";;\"\"\"");
    EXPECT_EQ(csvField("a,b", CsvDialect::TorchNpu), "\"a,b\"");
    EXPECT_EQ(csvField("frame1;\r\nframe2;\r\n", CsvDialect::TorchNpu),
              "\"frame1;\r\nframe2;\r\n\"");
    EXPECT_EQ(csvField("DT_BF16;INT64;INT64", CsvDialect::TorchNpu), "DT_BF16;INT64;INT64");
}

TEST(CsvWriter, TorchNpuLeavesATrailingTabUnquoted) {
    EXPECT_EQ(csvField("1736405443881410.320\t", CsvDialect::TorchNpu), "1736405443881410.320\t");
}

TEST(CsvWriter, CannEscapeQuotesTurnsEachQuoteIntoThree) {
    EXPECT_EQ(cannEscapeQuotes("\"1,1024;1024\""), "\"\"\"1,1024;1024\"\"\"");
    EXPECT_EQ(cannEscapeQuotes("FLOAT;FLOAT"), "FLOAT;FLOAT");
}

TEST(CsvWriter, CannEscapedShapeReadBackAndRewrittenByTorchNpuIsTheSameText) {
    // op_summary holds """4096""" raw; csv.DictReader reads "4096" (with quotes); csv.writer
    // writes it back as """4096""" — the kernel_details text equals the op_summary text.
    const std::string value = "\"4096\"";
    EXPECT_EQ(csvField(value, CsvDialect::TorchNpu), cannEscapeQuotes(value));
}

TEST(CsvWriter, EmptyTableWritesNoFile) {
    const auto dir = testing_scratch::scratchDir("csv_writer_test");
    std::filesystem::remove_all(dir);
    CsvTable empty{{"A", "B"}, {}};
    EXPECT_EQ(renderCsv(empty, CsvDialect::TorchNpu), "");
    EXPECT_FALSE(writeCsvFile(dir / "empty.csv", empty, CsvDialect::TorchNpu));
    EXPECT_FALSE(std::filesystem::exists(dir / "empty.csv"));

    CsvTable one{{"A", "B"}, {{"1", "2"}}};
    EXPECT_TRUE(writeCsvFile(dir / "sub" / "one.csv", one, CsvDialect::Cann));
    std::ifstream in(dir / "sub" / "one.csv", std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    EXPECT_EQ(bytes.str(), "A,B\n1,2\n");
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ascendsim
