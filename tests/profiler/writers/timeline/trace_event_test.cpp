// TraceEvent renders itself without building JSON objects; these tests hold its two renderings to
// the JSON renderers they replace: the Python style to json.dumps' text (appendPythonJson of the
// same event as an ordered_json object), the compact style to nlohmann's dump().
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "profiler/format/time_format.h"
#include "profiler/writers/timeline/trace_event.h"

namespace ascendsim {
namespace {

std::string rendered(const TraceEvent& e, TraceJsonStyle style) {
    std::string out;
    appendTraceEvent(out, e, style);
    return out;
}

void expectBothStylesMatchTheirJsonRenderers(const TraceEvent& e) {
    const OrderedJson json = traceEventJson(e);
    EXPECT_EQ(rendered(e, TraceJsonStyle::Python), dumpPythonJson(json, false));
    EXPECT_EQ(rendered(e, TraceJsonStyle::Compact), json.dump());
}

TEST(TraceEvent, KeysKeepTheirOrderAndArgsSitWhereTheirPlaceIs) {
    TraceEvent e{TraceMembers(4), TraceMembers(2)};
    e.members.add("name", "MatMul").add("args", TraceValue::argsPlace()).add("ph", "X");
    e.args.add("Task Id", 7U).add("Batch Id", 0);
    EXPECT_EQ(rendered(e, TraceJsonStyle::Python), R"({"name": "MatMul", "args": {"Task Id": 7, "Batch Id": 0}, "ph": "X"})");
    EXPECT_EQ(rendered(e, TraceJsonStyle::Compact), R"({"name":"MatMul","args":{"Task Id":7,"Batch Id":0},"ph":"X"})");
    expectBothStylesMatchTheirJsonRenderers(e);
}

TEST(TraceEvent, EmptyArgsAreAnEmptyObject) {
    TraceEvent e{TraceMembers(2), {}};
    e.members.add("name", "Free").add("args", TraceValue::argsPlace());
    EXPECT_EQ(rendered(e, TraceJsonStyle::Python), R"({"name": "Free", "args": {}})");
    expectBothStylesMatchTheirJsonRenderers(e);
}

TEST(TraceEvent, TimestampsAreTheThreeDecimalMicrosecondString) {
    TraceEvent e{TraceMembers(1), {}};
    e.members.add("ts", TraceValue::timestamp(1736405443881410320ULL));
    EXPECT_EQ(rendered(e, TraceJsonStyle::Python), R"({"ts": "1736405443881410.320"})");
    EXPECT_EQ(e.members.find("ts")->timestampText(), nsToUsString(1736405443881410320ULL));
    expectBothStylesMatchTheirJsonRenderers(e);
}

TEST(TraceEvent, StringsEscapeAsTheJsonRenderersDo) {
    for (const char* text : {"plain", "quote \" and \\ backslash", "tab\tnew\nline\r", "bell \x07 and \x1f",
                             "del \x7f", "caf\xc3\xa9 \xe4\xb8\xad", "emoji \xf0\x9f\x98\x80", ""}) {
        TraceEvent e{TraceMembers(1), {}};
        e.members.add("name", text);
        expectBothStylesMatchTheirJsonRenderers(e);
    }
}

TEST(TraceEvent, NumbersPrintAsTheJsonRenderersPrintThem) {
    std::vector<double> reals = {0.0, -0.0, 1.0, 0.5, 0.1, 100.0, 1452.0, 3.6500000000000004, 1e-5, 1e-4,
                                 1.5e-7, 1e15, 1e16, 123456789012345678.0, 1e300, -2.5, 5e-324,
                                 std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity()};
    std::mt19937_64 random(15);
    std::uniform_real_distribution<double> exponent(-12.0, 20.0);
    for (int i = 0; i < 2000; ++i) reals.push_back(std::pow(10.0, exponent(random)) * (i % 2 ? 1.0 : -1.0));
    // Durations: ns / 1000 as the writers compute them.
    for (std::uint64_t ns = 0; ns < 3000; ns += 7) reals.push_back(static_cast<double>(ns) / 1000.0);
    for (const double value : reals) {
        TraceEvent e{TraceMembers(1), {}};
        e.members.add("dur", value);
        expectBothStylesMatchTheirJsonRenderers(e);
    }
    TraceEvent integers{TraceMembers(4), {}};
    integers.members.add("u", std::numeric_limits<std::uint64_t>::max()).add("i", std::numeric_limits<std::int64_t>::min());
    integers.members.add("pid", 4294967295U).add("zero", 0);
    EXPECT_EQ(rendered(integers, TraceJsonStyle::Compact),
              R"({"u":18446744073709551615,"i":-9223372036854775808,"pid":4294967295,"zero":0})");
    expectBothStylesMatchTheirJsonRenderers(integers);
}

TEST(TraceEvent, AccessorsReadNamePidAndTextArgs) {
    TraceEvent e{TraceMembers(3), TraceMembers(2)};
    e.members.add("name", "process_labels").add("pid", 2097184U).add("args", TraceValue::argsPlace());
    e.args.add("labels", "NPU 0").add("sort_index", 3);
    EXPECT_EQ(e.name(), "process_labels");
    EXPECT_EQ(e.pid(), 2097184U);
    ASSERT_NE(e.argText("labels"), nullptr);
    EXPECT_EQ(*e.argText("labels"), "NPU 0");
    EXPECT_EQ(e.argText("sort_index"), nullptr);  // not text
    EXPECT_EQ(e.argText("missing"), nullptr);
    EXPECT_THROW((void)e.args.find("labels")->asReal(), std::logic_error);
}

}  // namespace
}  // namespace ascendsim
