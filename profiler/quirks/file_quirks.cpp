#include "profiler/quirks/file_quirks.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "profiler/format/file_output.h"
#include "profiler/writers/json/json_text.h"

namespace ascendsim {

namespace fs = std::filesystem;

namespace {

const fs::path kOutput = "ASCEND_PROFILER_OUTPUT";

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string() + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void rewriteFile(const fs::path& path, const std::string& text) { writeFileBytes(path, text); }

std::string replaceAll(const std::string& text, std::string_view from, std::string_view to) {
    std::string out;
    out.reserve(text.size());
    std::size_t copied = 0;
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, copied)) {
        out.append(text, copied, at - copied);
        out.append(to);
        copied = at + from.size();
    }
    out.append(text, copied, std::string::npos);
    return out;
}

bool isRootInfoJson(const fs::path& file) {
    const std::string name = file.filename().string();
    return name.starts_with("profiler_info") && name.ends_with(".json");
}

// ef63bc64 ranks 1 and 3 (samples README): the repository owners kept only what the cluster
// analysis reads — profiler_info, profiler_metadata, the DBs, communication*.json, step_trace_time.
bool keptInCutRank(const fs::path& relative) {
    if (relative.parent_path().empty()) {
        return isRootInfoJson(relative) || relative == "profiler_metadata.json" || relative == kOutput;
    }
    if (relative.parent_path() != kOutput) return false;
    const std::string name = relative.filename().string();
    return name.ends_with(".db") || name == "communication.json" || name == "communication_matrix.json" ||
           name == "step_trace_time.csv";
}

void cutRank(const fs::path& dir) {
    std::vector<fs::path> doomed;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const fs::path relative = entry.path().filename();
        if (!keptInCutRank(relative)) doomed.push_back(entry.path());
    }
    if (fs::is_directory(dir / kOutput)) {
        for (const auto& entry : fs::directory_iterator(dir / kOutput)) {
            if (!keptInCutRank(kOutput / entry.path().filename())) doomed.push_back(entry.path());
        }
    }
    for (const fs::path& p : doomed) fs::remove_all(p);
}

// e5a31957 test_rank_1 memory_record.csv: the Timestamp(us) column went through a spreadsheet
// (General format, no trailing tab) and the file was saved with LF endings.
void spreadsheetMemoryRecord(const fs::path& file) {
    if (!fs::is_regular_file(file)) return;
    std::istringstream in(replaceAll(readFile(file), "\r\n", "\n"));
    std::string line, out;
    std::size_t column = std::string::npos;
    bool header = true;
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::size_t start = 0;
        for (std::size_t comma = line.find(','); ; comma = line.find(',', start)) {
            fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        if (header) {
            column = static_cast<std::size_t>(std::find(fields.begin(), fields.end(), "Timestamp(us)") - fields.begin());
            header = false;
        } else if (column < fields.size()) {
            std::string value = fields[column];
            if (!value.empty() && value.back() == '\t') value.pop_back();
            fields[column] = spreadsheetGeneralNumber(value);
        }
        for (std::size_t i = 0; i < fields.size(); ++i) {
            if (i > 0) out += ',';
            out += fields[i];
        }
        out += "\n";
    }
    rewriteFile(file, out);
}

// No real sample has an operator-free communication.json; the empty form is the one real files
// use for a kind of operator a step lacks: every e5a31957/c1e639ee step has "p2p": {}.
void emptyCommunication(const fs::path& file) {
    if (!fs::is_regular_file(file)) return;
    OrderedJson root = OrderedJson::parse(readFile(file));
    for (auto& [step, kinds] : root.items()) {
        for (auto& [kind, ops] : kinds.items()) ops = OrderedJson::object();
    }
    rewriteFile(file, dumpPythonJson(root, false));
}

}  // namespace

std::string spreadsheetGeneralNumber(const std::string& text) {
    double value = 0.0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return text;
    std::array<char, 32> buffer{};
    if (std::fabs(value) >= 1e11) {
        std::snprintf(buffer.data(), buffer.size(), "%.5E", value);
        std::string s(buffer.data());
        const std::size_t e = s.find('E');
        std::string mantissa = s.substr(0, e), exponent = s.substr(e);
        while (mantissa.back() == '0') mantissa.pop_back();
        if (mantissa.back() == '.') mantissa.pop_back();
        return mantissa + exponent;
    }
    std::snprintf(buffer.data(), buffer.size(), "%.6G", value);
    return buffer.data();
}

void applyFileQuirks(const QuirkSet& quirks, const fs::path& dir, std::int64_t rankId) {
    if (quirks.contains(Quirk::CutRanks) && rankId % 2 == 1) cutRank(dir);
    if (quirks.contains(Quirk::SpreadsheetTimestamps)) spreadsheetMemoryRecord(dir / kOutput / "memory_record.csv");
    if (quirks.contains(Quirk::NoOpStatistic)) fs::remove(dir / kOutput / "op_statistic.csv");
    if (quirks.contains(Quirk::EmptyCommunication)) {
        emptyCommunication(dir / kOutput / "communication.json");
        emptyCommunication(dir / kOutput / "communication_matrix.json");
    }
    if (quirks.contains(Quirk::MissingInfoJson)) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file() && isRootInfoJson(entry.path().filename())) fs::remove(entry.path());
        }
    }
    if (quirks.contains(Quirk::LfEndings)) {
        for (const auto& entry : fs::recursive_directory_iterator(dir)) {
            if (entry.is_regular_file() && entry.path().extension() == ".csv") {
                rewriteFile(entry.path(), replaceAll(readFile(entry.path()), "\r\n", "\n"));
            }
        }
    }
}

}  // namespace ascendsim
