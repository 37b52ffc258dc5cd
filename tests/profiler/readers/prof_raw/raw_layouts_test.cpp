// The raw record layouts (profiler/writers/prof_raw/raw_layouts.h): one definition per record,
// whose decode gives back what its encode wrote, at the sizes msprof's parsers read, and whose
// decode names the file and the record's offset when the bytes are cut short or corrupt.
#include <gtest/gtest.h>

#include "profiler/writers/prof_raw/raw_ge_enums.h"
#include "profiler/writers/prof_raw/raw_layouts.h"

namespace ascendsim {
namespace {

template <typename Record>
Record roundTrip(const Record& r, std::size_t expectedBytes) {
    RawRecordBuffer out;
    encodeRaw(r, out);
    EXPECT_EQ(out.size(), expectedBytes);
    RawRecordReader in("file", out.bytes());
    const Record back = decodeRaw<Record>(in);
    EXPECT_TRUE(in.atEnd());
    return back;
}

TEST(RawLayouts, EveryRecordDecodesAsItWasEncodedAtMsprofsSizes) {
    const RawApiEvent api = roundTrip(RawApiEvent{20000, 327681, 7, 100, 250, 99}, 40);
    EXPECT_EQ(api.type, 327681u);
    EXPECT_EQ(api.end, 250u);
    EXPECT_EQ(api.itemId, 99u);

    RawNodeBasicInfo node;
    node.header = {10000, 0, 7, RawNodeBasicInfo::kDataBytes, 123};
    node.opName = 1ULL << 60;
    node.taskType = 5;
    node.opType = 42;
    node.blockNum = 24 | (2u << 16);
    node.opFlag = 1;
    const RawNodeBasicInfo n = roundTrip(node, 64);
    EXPECT_EQ(n.header.timestamp, 123u);
    EXPECT_EQ(n.opName, node.opName);
    EXPECT_EQ(n.blockNum, node.blockNum);
    EXPECT_EQ(n.opFlag, 1u);

    RawTaskTrack track;
    track.header = {5000, 0, 7, RawTaskTrack::kDataBytes, 456};
    track.streamId = 3;
    track.taskId = 70000;
    track.taskType = 2;
    track.kernelName = 77;
    const RawTaskTrack t = roundTrip(track, 64);
    EXPECT_EQ(t.taskId, 70000u);
    EXPECT_EQ(t.kernelName, 77u);

    RawTensorInfo tensors;
    tensors.header.threadId = 7;
    tensors.opName = 11;
    tensors.tensors.push_back({0, geFormatNumber("NC1HWC0"), geDataTypeNumber("FLOAT16"), {32, 4, 56, 56, 16}});
    tensors.tensors.push_back({1, geFormatNumber("ND"), geDataTypeNumber("DT_BF16"), {}});
    const RawTensorInfo ti = roundTrip(tensors, 256);
    ASSERT_EQ(ti.tensors.size(), 2u);
    EXPECT_EQ(ti.header.level, 10000u);  // MSPROF_REPORT_NODE_LEVEL, type tensor_info 1
    EXPECT_EQ(ti.header.type, 1u);
    EXPECT_EQ(*geFormatName(ti.tensors[0].format), "NC1HWC0");
    EXPECT_EQ(*geDataTypeName(ti.tensors[1].dataType), "DT_BF16");
    EXPECT_EQ(ti.tensors[0].shape[4], 16u);

    const RawAcsqRecord acsq = roundTrip(RawAcsqRecord{RawAcsqRecord::kFuncEnd, kSqeAiv, 5, 9, 1000, 5}, 64);
    EXPECT_EQ(acsq.func, RawAcsqRecord::kFuncEnd);
    EXPECT_EQ(acsq.sqeType, kSqeAiv);
    EXPECT_EQ(acsq.acsqId, 5u);

    RawContextPmu pmu;
    pmu.counter = 3;
    pmu.streamId = 2;
    pmu.taskId = 8;
    pmu.fftsType = 2;
    pmu.totalCycles = 5000;
    pmu.pmu = {1, 2, 3, 4, 5, 6, 7, 8};
    pmu.start = 10;
    pmu.end = 20;
    const RawContextPmu p = roundTrip(pmu, 128);
    EXPECT_EQ(p.fftsType, 2u);
    EXPECT_EQ(p.pmu, pmu.pmu);
    EXPECT_EQ(p.end, 20u);

    RawMsprofTx tx;
    tx.threadId = 7;
    tx.segment = 1;
    tx.processId = 1234;
    tx.eventType = 2;
    tx.start = 100;
    tx.end = 200;
    tx.markId = 4;
    tx.domainId = 99;
    tx.message = "forward";
    const RawMsprofTx x = roundTrip(tx, 256);
    EXPECT_EQ(x.message, "forward");
    EXPECT_EQ(x.segment, 1u);
    EXPECT_EQ(x.end, 200u);

    RawAicpuNode cpu;
    cpu.streamId = 2;
    cpu.taskId = 2;
    cpu.runStartTick = 500;
    cpu.runEndTick = 900;
    cpu.submitTick = 400;
    cpu.dispatchUs = 1;
    RawL2Cache l2;
    l2.streamId = 3;
    l2.taskId = 65000;
    l2.events = {40, 20, 30, 5, 3, 0, 0, 1ULL << 40};
    const RawL2Cache l = roundTrip(l2, 72);  // L2_CACHE_STRUCT_FMT "HHHH8Q"
    EXPECT_EQ(l.taskId, 65000u);
    EXPECT_EQ(l.events, l2.events);

    RawStepTrace step;
    step.timestamp = 123456;
    step.indexId = 13;
    step.tagId = RawStepTrace::kStepEnd;
    const RawStepTrace st = roundTrip(step, 40);  // STEP_TRACE_FMT "BBHLQQQHHHH"
    EXPECT_EQ(st.timestamp, 123456u);
    EXPECT_EQ(st.indexId, 13u);
    EXPECT_EQ(st.tagId, RawStepTrace::kStepEnd);

    RawHwtsLog hwts;
    hwts.logType = RawHwtsLog::kEnd;
    hwts.counter = 15;
    hwts.taskType = 1;
    hwts.taskId = 60000;
    hwts.sysCount = 1ULL << 40;
    hwts.streamId = 2047;
    const RawHwtsLog h = roundTrip(hwts, 64);  // HWTS_LOG_FMT "BBHHHQ12I"
    EXPECT_EQ(h.logType, RawHwtsLog::kEnd);
    EXPECT_EQ(h.counter, 15u);
    EXPECT_EQ(h.taskId, 60000u);
    EXPECT_EQ(h.sysCount, 1ULL << 40);
    EXPECT_EQ(h.streamId, 2047u);

    const RawAicpuNode c = roundTrip(cpu, 256);
    EXPECT_EQ(c.submitTick, 400u);
    EXPECT_EQ(c.runEndTick, 900u);
}

TEST(RawLayouts, ATruncatedRecordNamesTheFileAndTheOffsetWhereItBegins) {
    RawRecordBuffer out;
    encodeRaw(RawApiEvent{20000, 1, 7, 1, 2, 3}, out);
    encodeRaw(RawApiEvent{20000, 1, 7, 4, 5, 6}, out);
    const std::string cut = out.bytes().substr(0, 70);
    RawRecordReader in("host/data/unaging.api_event.data.slice_0", cut);
    try {
        decodeAll<RawApiEvent>(in);
        FAIL() << "no error";
    } catch (const RawDataError& e) {
        EXPECT_STREQ(e.what(), "host/data/unaging.api_event.data.slice_0: offset 40: truncated MsprofApi record: 30 of 40 bytes");
    }
}

TEST(RawLayouts, AWrongMagicNumberOrFuncTypeIsAnError) {
    RawRecordBuffer out;
    encodeRaw(RawAcsqRecord{RawAcsqRecord::kFuncStart, kSqeAiCore, 1, 1, 10, 1}, out);
    std::string bytes = out.bytes();
    bytes[2] = 0;  // the STARS magic number
    RawRecordReader in("stars", bytes);
    EXPECT_THROW(decodeRaw<RawAcsqRecord>(in), RawDataError);
    RawRecordBuffer pmu;
    encodeRaw(RawContextPmu{}, pmu);
    std::string p = pmu.bytes();
    p[0] = 0;  // func type 0 is not a context PMU record
    RawRecordReader pin("ffts", p);
    EXPECT_THROW(decodeRaw<RawContextPmu>(pin), RawDataError);
}

TEST(RawLayouts, AFixedFieldIsWrittenFromTheLayoutAndCheckedOnReading) {
    // The writer sets tensor_info's level, type and dataLen from the layout, whatever the header holds.
    RawTensorInfo info;
    info.header.level = 1;
    RawRecordBuffer out;
    encodeRaw(info, out);
    encodeRaw(info, out);
    std::string bytes = out.bytes();
    EXPECT_EQ(static_cast<unsigned char>(bytes[2]), 10000 & 0xFF);
    bytes[256 + 2] = 0x0F;  // the second record's level, now 9999
    bytes[256 + 3] = 0x27;
    RawRecordReader in("tensor_info", bytes);
    try {
        decodeAll<RawTensorInfo>(in);
        FAIL() << "no error";
    } catch (const RawDataError& e) {
        EXPECT_STREQ(e.what(), "tensor_info: offset 256: tensor_info level 9999 (expected 10000)");
    }
}

TEST(RawLayouts, AFixedBitFieldOrACountAboveItsLimitNamesTheFieldAndTheValue) {
    RawRecordBuffer pmu;
    encodeRaw(RawContextPmu{}, pmu);
    std::string p = pmu.bytes();
    p[0] = 0x21;  // func type 33 in the low 6 bits
    RawRecordReader pin("ffts", p);
    try {
        decodeRaw<RawContextPmu>(pin);
        FAIL() << "no error";
    } catch (const RawDataError& e) {
        EXPECT_STREQ(e.what(), "ffts: offset 0: context PMU func type 33 (expected 40)");
    }
    RawRecordBuffer tensors;
    encodeRaw(RawTensorInfo{}, tensors);
    std::string t = tensors.bytes();
    t[32] = 6;  // the tensor count: at most 5 fit
    RawRecordReader tin("tensor_info", t);
    try {
        decodeRaw<RawTensorInfo>(tin);
        FAIL() << "no error";
    } catch (const RawDataError& e) {
        EXPECT_STREQ(e.what(), "tensor_info: offset 0: tensor_info tensor count 6 (at most 5)");
    }
}

TEST(RawLayouts, GeNamesAndNumbersMapBothWaysAsMsprofPrintsThem) {
    for (const char* name : {"FLOAT", "FLOAT16", "DT_BF16", "INT8", "UINT8", "INT16", "INT32", "INT64", "BOOL"})
        EXPECT_EQ(geDataTypeName(geDataTypeNumber(name)), std::string(name)) << name;
    for (const char* name : {"NCHW", "NHWC", "ND", "NC1HWC0", "FRACTAL_Z", "FRACTAL_NZ"})
        EXPECT_EQ(geFormatName(geFormatNumber(name)), std::string(name)) << name;
    EXPECT_EQ(geDataTypeNumber("FLOAT16"), 1u);  // ge_enum_constant.py GeDataType
    EXPECT_EQ(geFormatNumber("FRACTAL_NZ"), 29u);
}

}  // namespace
}  // namespace ascendsim
