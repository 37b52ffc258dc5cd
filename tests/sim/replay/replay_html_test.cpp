// `ascendsim replay --html FILE` on a small fixture: one self-contained page whose scatter holds
// one point per replayed kernel, whose family chart has a bar per family and measure, and whose
// tables list the replayed kernels and the ones not replayed.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "profiler/report/html/chart_library.h"
#include "sim/config/chip_config_loader.h"
#include "sim/replay/replay_command.h"
#include "sim/replay/replay_fixtures.h"
#include "tests/sim/whatif/html_structure.h"

namespace ascendsim {
namespace {

using namespace replay_fixtures;

std::string readAll(const fs::path& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ReplayHtml, ScatterFamiliesAndTablesInOneSelfContainedPage) {
    if (!chartLibraryAvailable()) GTEST_SKIP() << "built without libjs-chart.js";
    const auto root = testing_scratch::scratchDir("replay_html");
    ReplayOptions options;
    options.profileDir = textProfile(root, "q", kernelDetails83()).string();
    options.outputDir = (root / "out").string();
    options.configDir = defaultConfigDir();
    options.htmlPath = (root / "replay.html").string();
    std::ostringstream out, err;
    ASSERT_EQ(runReplayCommand(options, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("HTML report written to " + options.htmlPath), std::string::npos);
    const std::string html = readAll(options.htmlPath);
    const auto charts = html_test::checkHtmlStructure(html);
    // MatMul and Add (cold and code-resident launches) replayed; the band lines are not data
    EXPECT_EQ(charts.at("sim-vs-real"), 3u);
    EXPECT_EQ(charts.at("family-errors"), 4u);  // MatMul, elementwise × (median error, within band)
    EXPECT_NE(html.find("\"label\":\"sim = real\""), std::string::npos);
    EXPECT_NE(html.find("\"label\":\"+20 %\""), std::string::npos);
    EXPECT_NE(html.find("id=\"kernel-0\""), std::string::npos);  // the scatter's link targets
    EXPECT_NE(html.find("no catalog op for type ScatterNdUpdate"), std::string::npos);
    // Self-contained: apart from the inline library's own licence comments, no http(s) URL.
    std::string withoutLibrary = html;
    const std::string library(chartLibrarySource());
    const std::size_t at = withoutLibrary.find(library);
    ASSERT_NE(at, std::string::npos);
    withoutLibrary.erase(at, library.size());
    EXPECT_EQ(withoutLibrary.find("http://"), std::string::npos);
    EXPECT_EQ(withoutLibrary.find("https://"), std::string::npos);
    fs::remove_all(root);
}

TEST(ReplayHtml, UnwritableHtmlPathIsAnIoError) {
    if (!chartLibraryAvailable()) GTEST_SKIP() << "built without libjs-chart.js";
    const auto root = testing_scratch::scratchDir("replay_html_bad");
    ReplayOptions options;
    options.profileDir = textProfile(root, "q", kernelDetails83()).string();
    options.outputDir = (root / "out").string();
    options.configDir = defaultConfigDir();
    options.htmlPath = (root / "no_such_dir" / "replay.html").string();
    std::ostringstream out, err;
    EXPECT_EQ(runReplayCommand(options, out, err), 1);
    EXPECT_NE(err.str().find("no_such_dir"), std::string::npos) << err.str();
    EXPECT_FALSE(fs::exists(options.htmlPath));
    EXPECT_FALSE(fs::exists(root / "out" / "replay_kernels.csv"));  // no partial output
    fs::remove_all(root);
}

}  // namespace
}  // namespace ascendsim
