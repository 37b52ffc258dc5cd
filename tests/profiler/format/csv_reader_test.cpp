// Reading CSVs back: both dialects the writer produces round-trip, and the real files' quirks
// (tripled quotes of shapes, trailing TABs, CRLF) read as Python's csv module reads them.
#include <gtest/gtest.h>

#include "profiler/format/csv_reader.h"

namespace ascendsim {
namespace {

TEST(CsvReader, TorchNpuDialectRoundTrips) {
    CsvTable table;
    table.header = {"Name", "Input Shapes", "Start Time(us)"};
    table.rows = {{"MatMul", "\"1,1024;1024\"", "1736405443881410.320\t"}, {"a,b", "x\r\ny", ""}};
    const CsvTable read = parseCsv(renderCsv(table, CsvDialect::TorchNpu));
    EXPECT_EQ(read.header, table.header);
    EXPECT_EQ(read.rows, table.rows);
}

TEST(CsvReader, CannDialectKeepsTheTripledQuotesAsOneQuotedValue) {
    const CsvTable read = parseCsv("Op Name,Input Shapes\nMatMul,\"\"\"1,1024;1024\"\"\"\n");
    ASSERT_EQ(read.rows.size(), 1u);
    EXPECT_EQ(read.rows[0][1], "\"1,1024;1024\"");
}

TEST(CsvReader, ColumnLookup) {
    const CsvTable read = parseCsv("a,b\r\n1,2\r\n");
    EXPECT_EQ(csvColumn(read, "b"), 1u);
    EXPECT_FALSE(csvColumn(read, "c").has_value());
}

TEST(CsvReader, LastRowWithoutTerminatorIsKept) {
    const CsvTable read = parseCsv("a,b\n1,2");
    ASSERT_EQ(read.rows.size(), 1u);
    EXPECT_EQ(read.rows[0][1], "2");
}

}  // namespace
}  // namespace ascendsim
