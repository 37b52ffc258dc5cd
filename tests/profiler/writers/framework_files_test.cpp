#include "profiler/writers/tree/framework_files.h"

#include <gtest/gtest.h>

#include <cstring>

#include "profiler/assembly/sample_run.h"
#include "profiler/writers/tree/profiler_info.h"

namespace ascendsim {
namespace {

using testing_support::sampleRun;

struct Tlv {
    std::uint16_t type;
    std::string value;
};

template <typename T>
T readLe(const std::string& bytes, std::size_t offset) {
    T v{};
    std::memcpy(&v, bytes.data() + offset, sizeof(T));  // the test host is little-endian
    return v;
}

std::vector<Tlv> decodeTlv(const std::string& bytes) {
    std::vector<Tlv> out;
    std::size_t i = 0;
    while (i + 6 <= bytes.size()) {
        const auto type = readLe<std::uint16_t>(bytes, i);
        const auto len = readLe<std::uint32_t>(bytes, i + 2);
        out.push_back({type, bytes.substr(i + 6, len)});
        i += 6 + len;
    }
    EXPECT_EQ(i, bytes.size());
    return out;
}

TEST(FrameworkFiles, OpRangeRecordsAreA58ByteStructFollowedByNamedFields) {
    const auto run = sampleRun(1);
    const auto records = decodeTlv(encodeOpRange(run));
    ASSERT_EQ(records.size(), run.hostOps.size());
    const auto& first = records[0].value;
    ASSERT_GT(first.size(), kOpRangeStructBytes);
    EXPECT_EQ(readLe<std::int64_t>(first, 0), static_cast<std::int64_t>(monotonicNs(run.hostOps[0].startNs)));
    EXPECT_EQ(readLe<std::int64_t>(first, 8), static_cast<std::int64_t>(monotonicNs(run.hostOps[0].endNs)));
    EXPECT_EQ(readLe<std::uint64_t>(first, 24), testing_support::kSamplePid);
    const auto fields = decodeTlv(first.substr(kOpRangeStructBytes));
    ASSERT_FALSE(fields.empty());
    EXPECT_EQ(fields[0].type, 2);
    EXPECT_EQ(fields[0].value, "ProfilerStep#0");
}

TEST(FrameworkFiles, OpMarkRecordsAreA40ByteStructPlusName) {
    const auto run = sampleRun(1);
    const auto records = decodeTlv(encodeOpMark(run));
    ASSERT_EQ(records.size(), 4 * run.taskQueue.size());
    const auto name = run.taskQueue[0].opName;
    EXPECT_EQ(records[0].value.size(), kOpMarkStructBytes + 6 + name.size());
    EXPECT_EQ(readLe<std::uint64_t>(records[0].value, 8), 0u);  // enqueue start
    EXPECT_EQ(readLe<std::uint64_t>(records[1].value, 8), 1u);  // enqueue end
    EXPECT_EQ(readLe<std::uint64_t>(records[0].value, 16), run.taskQueue[0].correlationId);
}

TEST(FrameworkFiles, MemoryUsageRecordsAre77Bytes) {
    const auto run = sampleRun(1);
    const auto records = decodeTlv(encodeMemoryUsage(run));
    ASSERT_EQ(records.size(), run.memoryEvents.size());
    for (const auto& r : records) EXPECT_EQ(r.value.size(), kMemoryUsageStructBytes);
    EXPECT_EQ(static_cast<std::int8_t>(records[0].value[56]), 20);  // device_type NPU
    EXPECT_EQ(readLe<std::int64_t>(records[0].value, 16), run.memoryEvents[0].allocSize);
}

TEST(FrameworkFiles, PythonTracerFuncIsRaw33ByteStructsWithHashesInTheHashFile) {
    const auto run = sampleRun(1);
    const auto func = encodePythonTracerFunc(run);
    EXPECT_EQ(func.size(), 2 * run.pythonCalls.size() * kPythonTracerFuncBytes);
    const auto hashes = decodeTlv(encodePythonTracerHash(run));
    ASSERT_EQ(hashes.size(), 2u);
    for (const auto& h : hashes) {
        const auto key = readLe<std::uint64_t>(h.value, 0);
        const auto fields = decodeTlv(h.value.substr(kPythonTracerHashBytes));
        ASSERT_EQ(fields.size(), 1u);
        EXPECT_EQ(pythonFunctionHashKey(fields[0].value), key);
    }
}

}  // namespace
}  // namespace ascendsim
