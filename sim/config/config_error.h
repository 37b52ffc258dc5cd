#pragma once
// Errors in configuration files. The message always names the file, the key path and the
// problem, e.g. "configs/Ascend910B1.yaml: l2.ways: expected a positive integer, got -4 (line 39)".
#include <stdexcept>
#include <string>

namespace ascendsim {

class ConfigError : public std::runtime_error {
public:
    ConfigError(const std::string& file, const std::string& keyPath, const std::string& problem,
                int line = -1);

    const std::string& file() const { return file_; }
    const std::string& keyPath() const { return keyPath_; }

private:
    std::string file_;
    std::string keyPath_;
};

}  // namespace ascendsim
