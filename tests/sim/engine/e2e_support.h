#pragma once
// Helpers for the end-to-end tests of the `ascendsim` command (engine_tests) and the golden
// regression tier (golden_tests): temporary output directories, running the command in process,
// reading the files it wrote back (CSV as Python's csv module writes it, JSON, whole trees).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "profiler/format/csv_reader.h"
#include "sim/engine/command_runner.h"
#include "sim/engine/simulation_options.h"

namespace ascendsim::e2e {

namespace fs = std::filesystem;

inline fs::path sourceDir() {
    // Set by ctest, or by tests/support/systemc_main.cpp from the build's source tree.
    const char* env = std::getenv("ASCENDSIM_SOURCE_DIR");
    return env != nullptr ? env : ".";
}

inline fs::path unitWorkload(const std::string& fileName) { return sourceDir() / "workloads" / "unit" / fileName; }

// A fresh, empty directory under the system temp dir, removed with everything in it at scope end.
class TempDir {
public:
    TempDir() {
        std::string pattern = (fs::temp_directory_path() / "ascendsim_e2e_XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed for " + pattern);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// What `ascendsim --workload W --output OUT --deterministic` would be given on the command line.
inline SimulationOptions commandOptions(const fs::path& workload, const fs::path& outputParent) {
    SimulationOptions options;
    options.workloadPath = workload.string();
    options.configDir = (sourceDir() / "configs").string();
    options.outputParent = outputParent.string();
    options.deterministic = true;
    return options;
}

struct CommandOutcome {
    int exitCode = -1;
    std::string out;
    std::string err;
};

inline CommandOutcome runCommand(const SimulationOptions& options) {
    std::ostringstream out, err;
    CommandOutcome outcome;
    outcome.exitCode = runSimulationCommand(options, out, err);
    outcome.out = out.str();
    outcome.err = err.str();
    return outcome;
}

inline std::vector<fs::path> entriesOf(const fs::path& dir) {
    std::vector<fs::path> entries;
    if (!fs::exists(dir)) return entries;
    for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());
    return entries;
}

// The single *_ascend_pt directory a run wrote into `parent`; fails the test otherwise.
inline fs::path onlyProfilerDir(const fs::path& parent) {
    const auto entries = entriesOf(parent);
    if (entries.size() != 1 || entries[0].filename().string().find("_ascend_pt") == std::string::npos) {
        ADD_FAILURE() << "expected exactly one *_ascend_pt directory in " << parent << ", found " << entries.size();
        return parent / "missing_ascend_pt";
    }
    return entries[0];
}

// Every regular file under `root`, as sorted generic relative paths.
inline std::vector<std::string> relativeFiles(const fs::path& root) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file()) files.push_back(fs::relative(e.path(), root).generic_string());
    std::sort(files.begin(), files.end());
    return files;
}

inline std::vector<std::string> fileNames(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : entriesOf(dir)) names.push_back(e.filename().string());
    return names;
}

inline std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return buffer.str();
}

// A CSV file as Python's csv.writer (QUOTE_MINIMAL, CRLF) or msprof's plain writer (LF) wrote it.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;

    // Index of a header column; fails the test (and returns 0) when absent.
    std::size_t column(const std::string& name) const {
        const auto it = std::find(header.begin(), header.end(), name);
        if (it == header.end()) {
            ADD_FAILURE() << "no column '" << name << "'";
            return 0;
        }
        return static_cast<std::size_t>(it - header.begin());
    }
    const std::string& cell(std::size_t row, const std::string& name) const { return rows.at(row).at(column(name)); }
};

inline CsvTable readCsv(const fs::path& path) {
    ascendsim::CsvTable parsed = parseCsv(readFile(path));
    CsvTable table;
    table.header = std::move(parsed.header);
    table.rows = std::move(parsed.rows);
    return table;
}

// A decimal number cell (trailing TAB of absolute timestamps allowed). Fails the test otherwise.
inline double numberCell(const std::string& text) {
    std::string t = text;
    if (!t.empty() && t.back() == '\t') t.pop_back();
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(t, &used);
    } catch (const std::exception&) {
        used = std::string::npos;
    }
    if (t.empty() || used != t.size()) {
        ADD_FAILURE() << "not a number: '" << text << "'";
        return 0.0;
    }
    return value;
}

}  // namespace ascendsim::e2e
