#pragma once
// Helpers for the workload tests: paths of shipped workloads and temporary YAML files.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "sim/workload/workload.h"
#include "support/scratch_dir.h"

namespace ascendsim::testing {

inline std::string sourcePath(const std::string& relative) {
    const char* root = std::getenv("ASCENDSIM_SOURCE_DIR");
    return (std::filesystem::path(root ? root : ".") / relative).string();
}

// Writes `text` to a fresh file in this process's scratch dir and returns its path.
inline std::string writeTempYaml(const std::string& name, const std::string& text) {
    auto path = testing_scratch::scratchDir("workload_tests") / name;
    std::ofstream(path) << text;
    return path.string();
}

// The WorkloadError message of loading `text` (written as `name`); a test failure and "" when it
// loads.
inline std::string workloadErrorOf(const std::string& name, const std::string& text) {
    try {
        loadWorkload(writeTempYaml(name, text));
    } catch (const WorkloadError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no WorkloadError for:\n" << text;
    return "";
}

}  // namespace ascendsim::testing
