#pragma once
// A scratch folder owned by this test process. ctest runs every test case as its own process, two
// at a time, so a fixed temp path would be written by one case while another reads it; the pid
// keeps concurrent cases apart. Every folder handed out is removed when the process exits, so a
// test run leaves nothing in the temp directory; set ASCENDSIM_KEEP_SCRATCH=1 to keep them for a
// post-mortem.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>

namespace ascendsim::testing_scratch {

class ScratchRegistry {
public:
    ~ScratchRegistry() {
        if (std::getenv("ASCENDSIM_KEEP_SCRATCH") != nullptr) return;
        for (const auto& dir : dirs_) {
            std::error_code ignored;  // a folder a test already removed is fine
            std::filesystem::remove_all(dir, ignored);
        }
    }
    void add(const std::filesystem::path& dir) { dirs_.insert(dir); }

private:
    std::set<std::filesystem::path> dirs_;
};

inline std::filesystem::path scratchDir(const std::string& tag) {
    static ScratchRegistry registry;
    auto dir = std::filesystem::temp_directory_path() / ("ascendsim_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    registry.add(dir);
    return dir;
}

}  // namespace ascendsim::testing_scratch
