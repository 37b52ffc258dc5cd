// The HTML reports in a real browser (long tier): headless Chromium (Debian `chromium`) opens the
// report of a full-size run, a sweep, a tune and a compare, runs their scripts and dumps the DOM.
// Every chart must have drawn as many points or bars as its data holds, and the page must log no
// console message. A screenshot of each lands in $TMPDIR/ascendsim_report_screenshots for a
// person to look at. Skips when chromium is not installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "sim/engine/e2e_support.h"
#include "sim/whatif/sweep.h"
#include "sim/whatif/tuner.h"

namespace ascendsim::e2e {
namespace {

const fs::path kChromium = "/usr/bin/chromium";

fs::path screenshotDir() {
    const fs::path dir = fs::temp_directory_path() / "ascendsim_report_screenshots";
    fs::create_directories(dir);
    return dir;
}

// Runs chromium headless on `page` with a fresh profile; returns its exit code.
int chromium(const fs::path& page, const std::string& action, const fs::path& stdoutFile, const fs::path& stderrFile) {
    TempDir profile;
    const std::string command = kChromium.string() +
                                " --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
                                " --disable-component-update --disable-sync --hide-scrollbars --enable-logging=stderr"
                                " --v=0 --virtual-time-budget=10000 --window-size=1100,2800 --user-data-dir=" +
                                profile.path().string() + " " + action + " file://" + fs::absolute(page).string() +
                                " >" + stdoutFile.string() + " 2>" + stderrFile.string();
    return std::system(command.c_str());
}

// Opens the page, checks what its charts drew, saves a screenshot; returns the charts drawn.
std::size_t expectChartsRendered(const fs::path& page, const std::string& kind) {
    SCOPED_TRACE(kind);
    const fs::path dom = page.string() + ".dom", log = page.string() + ".log";
    EXPECT_EQ(chromium(page, "--dump-dom", dom, log), 0) << readFile(log);
    const std::string html = readFile(dom), messages = readFile(log);
    EXPECT_EQ(messages.find(":CONSOLE"), std::string::npos) << "the page logged to the console:\n" << messages;

    const std::regex canvas(R"re(<canvas class="chart" id="([^"]+)" data-expected="(\d+)"[^>]*data-rendered="(\d+)")re");
    std::size_t charts = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), canvas); it != std::sregex_iterator(); ++it) {
        EXPECT_EQ((*it)[3].str(), (*it)[2].str()) << "chart " << (*it)[1].str() << " drew another number of points";
        EXPECT_GT(std::stoul((*it)[3].str()), 0u) << (*it)[1].str();
        ++charts;
    }
    const std::string source = readFile(page);
    std::size_t declared = 0;
    for (std::size_t at = source.find("<canvas class=\"chart\""); at != std::string::npos;
         at = source.find("<canvas class=\"chart\"", at + 1))
        ++declared;
    EXPECT_EQ(charts, declared) << "a chart did not render";
    EXPECT_NE(html.find("data-charts-rendered=\"" + std::to_string(declared) + "\""), std::string::npos);

    const fs::path png = screenshotDir() / (kind + ".png");
    EXPECT_EQ(chromium(page, "--screenshot=" + png.string(), page.string() + ".shot.out", log), 0) << readFile(log);
    EXPECT_TRUE(fs::exists(png) && fs::file_size(png) > 10000) << png;
    std::cout << "screenshot of the " << kind << " report: " << png.string() << "\n";
    return charts;
}

TEST(HtmlReportsInBrowser, EveryReportKindRendersItsCharts) {
    if (!fs::exists(kChromium)) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
    TempDir dir;

    // A full-size run: the roofline holds hundreds of kernels.
    auto run = commandOptions(sourceDir() / "workloads" / "resnet50.yaml", dir.path() / "run");
    run.htmlPath = (dir.path() / "run.html").string();
    const auto outcome = runCommand(run);
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    EXPECT_EQ(expectChartsRendered(run.htmlPath, "run"), 3u);  // step split, pipes, roofline

    SweepRequest sweep;
    sweep.base = commandOptions(unitWorkload("matmul.yaml"), dir.path());
    sweep.base.level = "Level1";
    sweep.varies = {"op.matmul.block_dim=2,8,16,24,48", "chip=Ascend910B1,Ascend910B4"};
    sweep.jobs = 2;
    sweep.csvPath = dir.path() / "sweep.csv";
    sweep.htmlPath = (dir.path() / "sweep.html").string();
    std::ostringstream out, err;
    ASSERT_EQ(runSweepCommand(sweep, out, err), 0) << err.str();
    EXPECT_EQ(expectChartsRendered(sweep.htmlPath, "sweep"), 4u);  // per varied key: ops, step and device

    TuneRequest tune;
    tune.base = sweep.base;
    tune.all = true;
    tune.jobs = 2;
    tune.overridesPath = (dir.path() / "overrides.yaml").string();
    tune.htmlPath = (dir.path() / "tune.html").string();
    ASSERT_EQ(runTuneCommand(tune, out, err), 0) << err.str();
    EXPECT_EQ(expectChartsRendered(tune.htmlPath, "tune"), 1u);

    // The chip what-if of docs/what-if.md: the main job on the 910B4.
    auto variant = commandOptions(sourceDir() / "workloads" / "resnet50.yaml", dir.path() / "variant");
    variant.chipName = "Ascend910B4";
    ASSERT_EQ(runCommand(variant).exitCode, 0);
    const fs::path compareHtml = dir.path() / "compare.html";
    ASSERT_EQ(runCompareCommand(onlyProfilerDir(dir.path() / "run").string(), onlyProfilerDir(dir.path() / "variant").string(),
                                15, out, err, compareHtml.string()),
              0)
        << err.str();
    EXPECT_EQ(expectChartsRendered(compareHtml, "compare"), 2u);  // step split, top changes
}

}  // namespace
}  // namespace ascendsim::e2e
