// The command line of the what-if jobs: --overrides FILE feeds --set entries (the command line's
// own --set wins), a bad file is exit 2, and `sweep` takes the main command's run options.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "sim/engine/e2e_support.h"
#include "sim/whatif/whatif_commands.h"

namespace ascendsim::e2e {
namespace {

struct Parsed {
    SimulationOptions options;
    std::optional<int> exitCode;
    std::string out, err;
};

Parsed parseAndRun(std::vector<std::string> args) {
    Parsed parsed;
    parsed.options.configDir = (sourceDir() / "configs").string();
    CLI::App app{"test"};
    app.add_option("--workload,-w", parsed.options.workloadPath);
    app.add_option("--set", parsed.options.setOverrides);
    WhatIfCommands commands(app, parsed.options);
    std::vector<const char*> argv = {"ascendsim"};
    for (const auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    std::ostringstream out, err;
    parsed.exitCode = commands.run(out, err);
    parsed.out = out.str();
    parsed.err = err.str();
    return parsed;
}

TEST(WhatIfCommands, OverridesFileEntriesComeBeforeTheCommandLineSets) {
    TempDir dir;
    const fs::path file = dir.path() / "overrides.yaml";
    std::ofstream(file) << "op.matmul.block_dim: 8\nm: 512\n";
    const Parsed parsed = parseAndRun({"-w", "x.yaml", "--overrides", file.string(), "--set", "m=256"});
    EXPECT_FALSE(parsed.exitCode);  // a plain run: the caller goes on
    EXPECT_EQ(parsed.options.setOverrides,
              (std::vector<std::string>{"op.matmul.block_dim=8", "m=512", "m=256"}));  // the last --set wins
}

TEST(WhatIfCommands, BadOverridesFileIsExitTwo) {
    TempDir dir;
    const fs::path file = dir.path() / "overrides.yaml";
    std::ofstream(file) << "- not a mapping\n";
    const Parsed parsed = parseAndRun({"--overrides", file.string()});
    ASSERT_TRUE(parsed.exitCode);
    EXPECT_EQ(*parsed.exitCode, 2);
    EXPECT_NE(parsed.err.find(file.string() + ":1:"), std::string::npos) << parsed.err;
}

TEST(WhatIfCommands, SweepTakesTheRunOptionsAfterTheSubcommand) {
    TempDir dir;
    const fs::path csv = dir.path() / "s.csv";
    const Parsed parsed = parseAndRun({"sweep", "-w", unitWorkload("matmul.yaml").string(), "--vary", "m=256,512",
                                       "--jobs", "1", "--csv", csv.string()});
    ASSERT_TRUE(parsed.exitCode);
    EXPECT_EQ(*parsed.exitCode, 0) << parsed.err;
    EXPECT_EQ(readCsv(csv).rows.size(), 2u);
}

}  // namespace
}  // namespace ascendsim::e2e
