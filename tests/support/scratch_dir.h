#pragma once
// A scratch folder owned by this test process. ctest runs every test case as its own process, two
// at a time, so a fixed temp path would be written by one case while another reads it; the pid
// keeps concurrent cases apart.
#include <unistd.h>

#include <filesystem>
#include <string>

namespace ascendsim::testing_scratch {

inline std::filesystem::path scratchDir(const std::string& tag) {
    auto dir = std::filesystem::temp_directory_path() / ("ascendsim_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace ascendsim::testing_scratch
