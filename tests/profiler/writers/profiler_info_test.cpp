#include "profiler/writers/tree/profiler_info.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "profiler/assembly/sample_run.h"
#include "profiler/writers/csv_table_test_support.h"
#include "profiler/writers/json/json_text.h"
#include "profiler/writers/tree/profiler_metadata.h"

namespace ascendsim {
namespace {

using testing_support::referenceRoot;
using testing_support::sampleRun;

std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Key paths of a JSON tree in order ("config.common_config.activities", ...).
void keyPaths(const OrderedJson& j, const std::string& prefix, std::vector<std::string>& out) {
    if (!j.is_object()) return;
    for (const auto& [k, v] : j.items()) {
        out.push_back(prefix + k);
        keyPaths(v, prefix + k + ".", out);
    }
}

ProfilerConfig sampleConfig(FormatVersion version) {
    ProfilerConfig c;
    c.formatVersion = version;
    c.level = ProfilerLevel::Level2;
    c.schedule = ProfilerSchedule{0, 1, 1, 1, 12};
    c.recordShapes = true;
    c.profileMemory = true;
    return c;
}

TEST(ProfilerInfo, KeyOrderMatchesTheCurrentSample) {
    const auto sample = readFile(referenceRoot() / "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt/profiler_info_0.json");
    if (sample.empty()) GTEST_SKIP() << "reference samples not available";
    auto run = sampleRun(1);
    run.rankId = 0;
    const auto ours = renderProfilerInfo(run, sampleConfig(FormatVersion::Cann83), 0, run.endNs);
    std::vector<std::string> expected, actual;
    keyPaths(OrderedJson::parse(sample), "", expected);
    keyPaths(OrderedJson::parse(ours), "", actual);
    EXPECT_EQ(actual, expected);
    EXPECT_NE(ours.find("\n    \"config\": {\n        \"common_config\": {"), std::string::npos);
    EXPECT_NE(ours.back(), '\n');
    EXPECT_NE(ours.find("\"rank_id\": \"0\""), std::string::npos);
}

TEST(ProfilerInfo, KeyOrderMatchesTheEarly2025Sample) {
    const auto sample = readFile(referenceRoot() /
                                 "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/profiler_info_0.json");
    if (sample.empty()) GTEST_SKIP() << "reference samples not available";
    auto run = sampleRun(1);
    run.rankId = 0;
    const auto ours = renderProfilerInfo(run, sampleConfig(FormatVersion::Cann80), 0, run.endNs);
    std::vector<std::string> expected, actual;
    keyPaths(OrderedJson::parse(sample), "", expected);
    keyPaths(OrderedJson::parse(ours), "", actual);
    EXPECT_EQ(actual, expected);
    EXPECT_NE(ours.find("\"_export_type\": \"text\""), std::string::npos);
}

TEST(ProfilerInfo, RankIdOnlyWithARank) {
    auto run = sampleRun(1);
    EXPECT_EQ(profilerInfoFileName(run), "profiler_info.json");
    EXPECT_EQ(renderProfilerInfo(run, ProfilerConfig{}, 0, 10).find("rank_id"), std::string::npos);
    run.rankId = 3;
    EXPECT_EQ(profilerInfoFileName(run), "profiler_info_3.json");
}

TEST(ProfilerInfo, EndInfoMapsMonotonicTimeToWallTime) {
    const auto run = sampleRun(1);
    const auto info = OrderedJson::parse(renderProfilerInfo(run, ProfilerConfig{}, 10'000, run.endNs));
    const auto wall = info["end_info"]["collectionTimeEnd"].get<std::uint64_t>();
    const auto mono = info["end_info"]["MonotonicTimeEnd"].get<std::uint64_t>();
    EXPECT_EQ(wall - mono, run.epochNs - kMonotonicAtStartNs);
    EXPECT_EQ(info["start_info"]["syscnt_enable"], false);
    EXPECT_EQ(info["start_info"]["start_monotonic"], monotonicNs(10'000));
    EXPECT_TRUE(info["config"]["common_config"]["schedule"].is_null());
}

TEST(ProfilerMetadata, CurrentEraIsOneLineWithEnvironmentAndTraceId) {
    ProfilerConfig config;
    const auto id = profilerTraceId(sampleRun(1), 0, true);
    const auto text = renderProfilerMetadata(config, id);
    EXPECT_EQ(text.find('\n'), std::string::npos);
    EXPECT_NE(text.find("{\"ENV_VARIABLES\": {\"ASCEND_GLOBAL_LOG_LEVEL\": \"\", "), std::string::npos);
    EXPECT_NE(text.find("\"HCCL_ALGO\": \"\""), std::string::npos);
    EXPECT_NE(text.find("\"trace_id\": \"" + id + "\""), std::string::npos);
    config.exportTypes = {ExportType::Db};
    EXPECT_EQ(renderProfilerMetadata(config, id).find("ENV_VARIABLES"), std::string::npos);
    EXPECT_TRUE(hasProfilerMetadata(config));  // the trace_id alone
}

// The 8.0-era db samples (e5a31957, 8a264688 db/level*) have no profiler_metadata.json: without
// text export the dict is empty and torch_npu writes nothing.
TEST(ProfilerMetadata, EarlyEraDbOnlyRunHasNoMetadataFile) {
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Cann80;
    EXPECT_TRUE(hasProfilerMetadata(config));
    config.exportTypes = {ExportType::Db};
    EXPECT_FALSE(hasProfilerMetadata(config));
    config.formatVersion = FormatVersion::Era2024;
    config.exportTypes = {ExportType::Text};
    EXPECT_FALSE(hasProfilerMetadata(config));
}

TEST(ProfilerMetadata, TraceIdIs32UppercaseHexAndDeterministic) {
    const auto run = sampleRun(1);
    const auto a = profilerTraceId(run, 0, true);
    EXPECT_EQ(a.size(), 32u);
    for (char c : a) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')) << a;
    EXPECT_EQ(a, profilerTraceId(run, 0, true));
    EXPECT_NE(a, profilerTraceId(run, 1, true));
}

TEST(ProfilerMetadata, EarlyEraMatchesTheIndentedSample) {
    const auto sample = readFile(referenceRoot() /
                                 "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt/profiler_metadata.json");
    if (sample.empty()) GTEST_SKIP() << "reference samples not available";
    ProfilerConfig config;
    config.formatVersion = FormatVersion::Cann80;
    EXPECT_EQ(renderProfilerMetadata(config, "unused"), sample);
}

TEST(JsonText, PythonSeparatorsFloatsAndEscapes) {
    OrderedJson j;
    j["a"] = 1452.0;
    j["b"] = "x;\r\ny\"";
    j["c"] = OrderedJson::array({1, 2});
    EXPECT_EQ(dumpPythonJson(j, false), "{\"a\": 1452.0, \"b\": \"x;\\r\\ny\\\"\", \"c\": [1, 2]}");
    EXPECT_EQ(dumpPythonJson(OrderedJson("é"), true), "\"\\u00e9\"");
    EXPECT_EQ(dumpPythonJson(OrderedJson("é"), false), "\"é\"");
}

}  // namespace
}  // namespace ascendsim
