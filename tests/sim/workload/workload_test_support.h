#pragma once
// Helpers for the workload tests: paths of shipped workloads and temporary YAML files.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ascendsim::testing {

inline std::string sourcePath(const std::string& relative) {
    const char* root = std::getenv("ASCENDSIM_SOURCE_DIR");
    return (std::filesystem::path(root ? root : ASCENDSIM_SOURCE_DIR) / relative).string();
}

// Writes `text` to a fresh file under the temp dir and returns its path.
inline std::string writeTempYaml(const std::string& name, const std::string& text) {
    auto dir = std::filesystem::temp_directory_path() / "ascendsim_workload_tests";
    std::filesystem::create_directories(dir);
    auto path = dir / name;
    std::ofstream(path) << text;
    return path.string();
}

}  // namespace ascendsim::testing
