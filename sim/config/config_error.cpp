#include "sim/config/config_error.h"

namespace ascendsim {

namespace {

std::string composeMessage(const std::string& file, const std::string& keyPath,
                           const std::string& problem, int line) {
    std::string message = file + ": ";
    if (!keyPath.empty()) message += keyPath + ": ";
    message += problem;
    if (line >= 0) message += " (line " + std::to_string(line + 1) + ")";
    return message;
}

}  // namespace

ConfigError::ConfigError(const std::string& file, const std::string& keyPath,
                         const std::string& problem, int line)
    : std::runtime_error(composeMessage(file, keyPath, problem, line)),
      file_(file),
      keyPath_(keyPath) {}

}  // namespace ascendsim
