// `ascendsim sweep` on the unit MatMul: one row per point, the varied block dim really applied,
// output identical whatever the number of worker processes, bad input refused with nothing written.
#include <gtest/gtest.h>

#include <sstream>

#include "sim/engine/e2e_support.h"
#include "sim/whatif/sweep.h"
#include "html_structure.h"

namespace ascendsim::e2e {
namespace {

SweepRequest matmulSweep(const fs::path& dir, unsigned jobs) {
    SweepRequest request;
    request.base = commandOptions(unitWorkload("matmul.yaml"), dir);
    request.base.level = "Level1";
    request.varies = {"op.matmul.block_dim=2,8,16"};
    request.jobs = jobs;
    request.csvPath = dir / ("sweep_" + std::to_string(jobs) + ".csv");
    return request;
}

TEST(Sweep, OneRowPerPointWithTheVariedBlockDim) {
    TempDir dir;
    std::ostringstream out, progress;
    SweepRequest request = matmulSweep(dir.path(), 2);
    request.htmlPath = (dir.path() / "sweep.html").string();
    ASSERT_EQ(runSweepCommand(request, out, progress), 0) << progress.str();
    const auto csv = readCsv(request.csvPath);
    ASSERT_EQ(csv.rows.size(), 3u);
    const std::vector<std::string> dims = {"2", "8", "16"};
    for (std::size_t r = 0; r < 3; ++r) {
        EXPECT_EQ(csv.cell(r, "op.matmul.block_dim"), dims[r]);
        EXPECT_EQ(csv.cell(r, "matmul.block_dim"), dims[r]);  // what the simulated kernel ran with
        EXPECT_GT(std::stod(csv.cell(r, "matmul.device_us")), 0.0);
        EXPECT_GE(std::stod(csv.cell(r, "step_us")), std::stod(csv.cell(r, "device_us")));
    }
    // Two blocks on 24 cores leave most cores idle: slower than sixteen.
    EXPECT_GT(std::stod(csv.cell(0, "matmul.device_us")), std::stod(csv.cell(2, "matmul.device_us")));
    // Plain progress lines (not a terminal), one per point.
    EXPECT_NE(progress.str().find("ascendsim sweep: 3/3 done"), std::string::npos) << progress.str();
    EXPECT_NE(out.str().find("fastest matmul:"), std::string::npos) << out.str();

    const auto charts = html_test::checkHtmlStructure(readFile(request.htmlPath));
    ASSERT_EQ(charts.count("sweep-0"), 1u);
    EXPECT_EQ(charts.at("sweep-0"), 6u);      // step and device lines, three points each
    EXPECT_EQ(charts.at("sweep-0-ops"), 3u);  // the matmul line
}

TEST(Sweep, OutputDoesNotDependOnTheNumberOfJobs) {
    TempDir dir;
    std::ostringstream out1, out2, progress;
    SweepRequest serial = matmulSweep(dir.path(), 1), parallel = matmulSweep(dir.path(), 2);
    serial.htmlPath = (dir.path() / "serial.html").string();
    parallel.htmlPath = (dir.path() / "parallel.html").string();
    ASSERT_EQ(runSweepCommand(serial, out1, progress), 0) << progress.str();
    ASSERT_EQ(runSweepCommand(parallel, out2, progress), 0) << progress.str();
    EXPECT_EQ(readFile(serial.csvPath), readFile(parallel.csvPath));
    EXPECT_EQ(readFile(serial.htmlPath), readFile(parallel.htmlPath));
    const auto table = [](std::string text) { return text.substr(0, text.find("sweep table written")); };
    EXPECT_EQ(table(out1.str()), table(out2.str()));
}

TEST(Sweep, BadKeyIsExitTwoAndWritesNothing) {
    TempDir dir;
    std::ostringstream out, err;
    SweepRequest request = matmulSweep(dir.path(), 2);
    request.varies = {"op.nosuchop.block_dim=1,2"};
    EXPECT_EQ(runSweepCommand(request, out, err), 2);
    EXPECT_NE(err.str().find("no op named 'nosuchop'"), std::string::npos) << err.str();
    EXPECT_FALSE(fs::exists(request.csvPath));
    request.varies = {"batch=1..0"};
    std::ostringstream err2;
    EXPECT_EQ(runSweepCommand(request, out, err2), 2);
    EXPECT_NE(err2.str().find("--vary batch=1..0"), std::string::npos) << err2.str();
}

TEST(Sweep, ChipAxisRunsEachChip) {
    TempDir dir;
    std::ostringstream out, progress;
    SweepRequest request = matmulSweep(dir.path(), 2);
    request.varies = {"chip=Ascend910B1,Ascend910B4"};
    ASSERT_EQ(runSweepCommand(request, out, progress), 0) << progress.str();
    const auto csv = readCsv(request.csvPath);
    ASSERT_EQ(csv.rows.size(), 2u);
    EXPECT_EQ(csv.cell(0, "chip"), "Ascend910B1");
    EXPECT_EQ(csv.cell(1, "chip"), "Ascend910B4");
}

}  // namespace
}  // namespace ascendsim::e2e
