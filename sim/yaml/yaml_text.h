#pragma once
// The one way ascendsim turns YAML text (workloads, chip configs, overrides files) into a node:
// checks yaml-cpp 0.7 needs before it sees the text, because on some inputs it never returns.
//
// - Bytes: YAML text is UTF-8 without C0 control bytes but tab, LF and CR. yaml-cpp loops without
//   end, growing, on a NUL or on 0xff bytes inside a document (fuzz_workload_loader runs 2 and 3,
//   docs/reliability.md "Fuzzing"), so such bytes stop reading at their place.
// - Documents: each of our files is one document. yaml-cpp can start a new empty document at the
//   same place forever on some broken flow mappings (fuzz_workload_loader run 4), so YAML::LoadAll
//   never returned. Documents are counted without building them and only up to the second, so
//   that input gets the "more than one document" error at the place yaml-cpp split it.

#include <cstddef>
#include <stdexcept>
#include <string>

#include <yaml-cpp/yaml.h>

namespace ascendsim {

// A problem in YAML text at a 1-based line and column (0 when unknown). The loaders turn it into
// their own error type, which adds the file and the field.
class YamlTextError : public std::runtime_error {
public:
    YamlTextError(int line, int column, const std::string& problem)
        : std::runtime_error(problem), line_(line), column_(column) {}
    int line() const { return line_; }
    int column() const { return column_; }

private:
    int line_;
    int column_;
};

// The single document of `text` (a null node for an empty text). Throws YamlTextError for a
// byte YAML does not allow, a syntax error, or a second document.
YAML::Node loadSingleYamlDocument(const std::string& text);

// The file's text, then loadSingleYamlDocument. Throws YamlFileUnreadable (with the errno text)
// when it cannot be read.
class YamlFileUnreadable : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
YAML::Node loadSingleYamlFile(const std::string& path);

}  // namespace ascendsim
