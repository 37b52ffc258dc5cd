#pragma once
// A test fixture for a multi-rank workload run once per suite: one `*_ascend_pt` directory per
// rank, read by the suite's tests. A suite derives from it and calls runWorkload in its
// SetUpTestSuite.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {

class RankDirectoriesRun : public ::testing::Test {
  protected:
    using json = nlohmann::ordered_json;

    // Runs workloads/unit/<fileName> with the default options and `--set` overrides; fails the
    // suite if it fails.
    static void runWorkload(const std::string& fileName, const std::vector<std::string>& setOverrides = {}) {
        scratch_ = new TempDir;
        const fs::path out = scratch_->path() / "out";
        fs::create_directory(out);
        SimulationOptions options = commandOptions(unitWorkload(fileName), out);
        options.setOverrides = setOverrides;
        const auto outcome = runCommand(options);
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
        dirs_ = new std::vector<fs::path>(entriesOf(out));
    }
    static void TearDownTestSuite() {
        delete dirs_;
        dirs_ = nullptr;
        delete scratch_;
        scratch_ = nullptr;
    }
    static fs::path output(std::size_t rank) { return dirs_->at(rank) / "ASCEND_PROFILER_OUTPUT"; }
    static json readJson(const fs::path& p) { return json::parse(readFile(p)); }

    // The pid of trace_view's process named `name` ("HCCL", "Ascend Hardware"); -1 if none.
    static std::int64_t processPid(const json& trace, const std::string& name) {
        for (const auto& e : trace)
            if (e["ph"] == "M" && e["name"] == "process_name" && e["args"]["name"] == name)
                return e["pid"];
        return -1;
    }

    static inline TempDir* scratch_ = nullptr;
    static inline std::vector<fs::path>* dirs_ = nullptr;
};

}  // namespace ascendsim::e2e
