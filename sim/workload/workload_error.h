#pragma once
// Where a workload value came from, and the error that names it. Every problem found while
// loading or validating a workload is reported as `file:line:column: field: problem`, so a user
// can jump to the YAML line (DESIGN.md decision 8: bad input never half-writes).
#include <stdexcept>
#include <string>

namespace ascendsim {

// 1-based line and column, as editors show them. line 0 means "no position known".
struct SourceLocation {
    std::string file;
    int line = 0;
    int column = 0;

    std::string str() const;  // "workloads/x.yaml:42:7"
};

// Location used for problems in `--set key=value` overrides: file "<command line>", line 1,
// column = 1-based index of the --set entry.
SourceLocation commandLineLocation(std::size_t setIndex);

class WorkloadError : public std::runtime_error {
  public:
    // field: the YAML key path ("ops[3].inputs[1]"); problem: what is wrong, in words.
    WorkloadError(SourceLocation where, std::string field, std::string problem);

    const SourceLocation& where() const { return where_; }
    const std::string& field() const { return field_; }
    const std::string& problem() const { return problem_; }

  private:
    SourceLocation where_;
    std::string field_;
    std::string problem_;
};

}  // namespace ascendsim
