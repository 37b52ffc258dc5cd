#include "sim/workload/workload_error.h"

namespace ascendsim {

std::string SourceLocation::str() const {
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

SourceLocation commandLineLocation(std::size_t setIndex) {
    return SourceLocation{"<command line>", 1, static_cast<int>(setIndex) + 1};
}

WorkloadError::WorkloadError(SourceLocation where, std::string field, std::string problem)
    : std::runtime_error(where.str() + ": " + field + ": " + problem),
      where_(std::move(where)),
      field_(std::move(field)),
      problem_(std::move(problem)) {}

}  // namespace ascendsim
