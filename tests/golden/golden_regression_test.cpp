// Golden regression tier: each case of tests/golden/cases.txt is run through the `ascendsim`
// command (in process, --deterministic) and its whole output tree is compared file by file with
// the committed tree under tests/golden/expected/<case>/. Text and small binary files are compared
// byte for byte; SQLite databases (*.db) by the row count of every table, committed as
// "<file>.db.rowcounts". A mismatch names the file and shows the first differing line.
// After an intended output change, regenerate with tests/golden/update_golden.sh and review the diff.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <set>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

const fs::path kGoldenDir = sourceDir() / "tests" / "golden";
const std::string kRowCountsSuffix = ".rowcounts";

struct GoldenCase {
    std::string name;
    std::string workload;           // relative to the repository
    std::vector<std::string> args;  // extra command-line options
};

// gtest prints a failing case by name instead of its bytes.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

std::vector<GoldenCase> readCases() {
    std::vector<GoldenCase> cases;
    std::istringstream lines(readFile(kGoldenDir / "cases.txt"));
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        GoldenCase c;
        words >> c.name >> c.workload;
        for (std::string w; words >> w;) c.args.push_back(w);
        cases.push_back(c);
    }
    return cases;
}

// The subset of the CLI's options the cases use, mapped as sim/cli/main.cpp maps them.
SimulationOptions optionsOf(const GoldenCase& c, const fs::path& output) {
    SimulationOptions options = commandOptions(sourceDir() / c.workload, output);
    for (std::size_t i = 0; i < c.args.size(); i += 2) {
        if (i + 1 >= c.args.size()) throw std::runtime_error(c.name + ": option without value: " + c.args[i]);
        const std::string& key = c.args[i];
        const std::string& value = c.args[i + 1];
        if (key == "--level") options.level = value;
        else if (key == "--aic-metrics") options.aicMetrics = value;
        else if (key == "--export-type") options.exportType = value;
        else if (key == "--format-version") options.formatVersion = value;
        else if (key == "--set") options.setOverrides.push_back(value);
        else if (key == "--steps") options.steps = static_cast<std::uint32_t>(std::stoul(value));
        else throw std::runtime_error(c.name + ": option not supported by the golden test: " + key);
    }
    return options;
}

std::string rowCounts(const fs::path& db) {
    sqlite3* handle = nullptr;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        throw std::runtime_error("cannot open " + db.string());
    }
    std::vector<std::string> tables;
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(handle, "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name", -1, &stmt, nullptr);
    while (sqlite3_step(stmt) == SQLITE_ROW) tables.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    sqlite3_finalize(stmt);
    std::string text;
    for (const auto& table : tables) {
        sqlite3_prepare_v2(handle, ("SELECT COUNT(*) FROM \"" + table + "\"").c_str(), -1, &stmt, nullptr);
        sqlite3_step(stmt);
        text += table + " " + std::to_string(sqlite3_column_int64(stmt, 0)) + "\n";
        sqlite3_finalize(stmt);
    }
    sqlite3_close(handle);
    return text;
}

// The output tree as the golden directory stores it: relative path → content.
std::map<std::string, std::string> comparableTree(const fs::path& root, bool databasesAsRowCounts) {
    std::map<std::string, std::string> tree;
    for (const auto& rel : relativeFiles(root)) {
        if (databasesAsRowCounts && rel.ends_with(".db")) tree[rel + kRowCountsSuffix] = rowCounts(root / rel);
        else tree[rel] = readFile(root / rel);
    }
    return tree;
}

std::string visible(const std::string& line) {
    std::string shown;
    for (char ch : line) {
        if (ch == '\t') shown += "\\t";
        else if (ch == '\r') shown += "\\r";
        else shown += ch;
    }
    return shown.size() > 400 ? shown.substr(0, 400) + "..." : shown;
}

bool looksBinary(const std::string& bytes) {
    return std::any_of(bytes.begin(), bytes.end(), [](char ch) {
        const auto u = static_cast<unsigned char>(ch);
        return u < 0x09 || (u > 0x0d && u < 0x20);
    });
}

// "first difference at line N" with both lines, and how many lines differ.
std::string describeDifference(const std::string& expected, const std::string& actual) {
    std::ostringstream message;
    if (looksBinary(expected) || looksBinary(actual)) {
        const auto at = std::mismatch(expected.begin(), expected.end(), actual.begin(), actual.end());
        message << "binary content differs at byte " << (at.first - expected.begin()) << " (sizes " << expected.size()
                << " expected, " << actual.size() << " actual)";
        return message.str();
    }
    std::istringstream e(expected), a(actual);
    std::string le, la;
    std::size_t line = 0, firstDiff = 0, differing = 0;
    std::string firstExpected, firstActual;
    while (true) {
        const bool moreE = static_cast<bool>(std::getline(e, le)), moreA = static_cast<bool>(std::getline(a, la));
        if (!moreE && !moreA) break;
        ++line;
        if (moreE && moreA && le == la) continue;
        ++differing;
        if (firstDiff == 0) {
            firstDiff = line;
            firstExpected = moreE ? visible(le) : "<end of file>";
            firstActual = moreA ? visible(la) : "<end of file>";
        }
    }
    if (differing == 0) return "only the final line terminator differs";
    message << differing << " line(s) differ; first at line " << firstDiff << "\n  expected: " << firstExpected
            << "\n  actual:   " << firstActual;
    return message.str();
}

class GoldenOutput : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenOutput, MatchesCommittedExpectedTree) {
    const GoldenCase& c = GetParam();
    const fs::path expectedRoot = kGoldenDir / "expected" / c.name;
    ASSERT_TRUE(fs::is_directory(expectedRoot)) << expectedRoot << " is missing: run tests/golden/update_golden.sh";

    TempDir out;
    const auto outcome = runCommand(optionsOf(c, out.path()));
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;

    const auto expected = comparableTree(expectedRoot, false);
    const auto actual = comparableTree(out.path(), true);
    for (const auto& [rel, bytes] : expected)
        if (!actual.count(rel)) ADD_FAILURE() << c.name << ": expected file not written: " << rel;
    for (const auto& [rel, bytes] : actual) {
        const auto it = expected.find(rel);
        if (it == expected.end()) ADD_FAILURE() << c.name << ": unexpected new file: " << rel;
        else if (it->second != bytes)
            ADD_FAILURE() << c.name << ": " << rel << " differs from the golden file\n"
                          << describeDifference(it->second, bytes)
                          << "\n(if the change is intended: tests/golden/update_golden.sh, then review git diff)";
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, GoldenOutput, ::testing::ValuesIn(readCases()),
                         [](const auto& testParam) { return testParam.param.name; });

TEST(GoldenCases, CoverBothUnitWorkloadsAtLevels0To2) {
    std::set<std::string> names;
    for (const auto& c : readCases()) names.insert(c.name);
    for (const char* workload : {"matmul", "elementwise_chain"})
        for (const char* level : {"Level0", "Level1", "Level2"})
            EXPECT_TRUE(names.count(std::string(workload) + "_" + level)) << workload << " " << level;
}

TEST(GoldenDiff, FirstDifferingLineIsShownWithTabsAndCarriageReturnsVisible) {
    const std::string message = describeDifference("a,b\r\nc,1.0\t\r\n", "a,b\r\nc,2.0\t\r\n");
    EXPECT_NE(message.find("first at line 2"), std::string::npos) << message;
    EXPECT_NE(message.find("c,1.0\\t\\r"), std::string::npos) << message;
    EXPECT_NE(message.find("c,2.0\\t\\r"), std::string::npos) << message;
}

}  // namespace
}  // namespace ascendsim::e2e
