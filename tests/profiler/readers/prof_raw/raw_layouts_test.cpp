// The raw record layouts (profiler/writers/prof_raw/raw_layouts.h): one definition per record,
// whose decode gives back what its encode wrote, at the sizes msprof's parsers read, and whose
// decode names the file and the record's offset when the bytes are cut short or corrupt.
#include <gtest/gtest.h>

#include "profiler/writers/communication/communication_timeline.h"
#include "profiler/writers/prof_raw/raw_ge_enums.h"
#include "profiler/writers/prof_raw/raw_hccl_data.h"
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

    const RawStarsLog acsq = roundTrip(RawStarsLog{RawStarsLog::kFuncEnd, kSqeAiv, 5, 9, 1000, 5}, 64);
    EXPECT_EQ(acsq.func, RawStarsLog::kFuncEnd);
    EXPECT_EQ(acsq.sqeType, kSqeAiv);
    EXPECT_EQ(acsq.acsqId, 5u);

    RawFftsPmu pmu;
    pmu.counter = 3;
    pmu.streamId = 2;
    pmu.taskId = 8;
    pmu.fftsType = 2;
    pmu.totalCycles = 5000;
    pmu.pmu = {1, 2, 3, 4, 5, 6, 7, 8};
    pmu.start = 10;
    pmu.end = 20;
    const RawFftsPmu p = roundTrip(pmu, 128);
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

// The fields msprof's Python parsers read, at the offsets their struct formats give them.
template <typename T>
T at(const std::string& bytes, std::size_t offset) {
    T v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v |= static_cast<T>(static_cast<T>(static_cast<unsigned char>(bytes[offset + i])) << (8 * i));
    return v;
}

TEST(RawLayouts, MixBlockPmuSubtaskLogAndThe910AsAicorePmuSitWhereMsprofReadsThem) {
    // FFTS_BLOCK_PMU_FMT "4HQ2HBBHLHH12Q": ffts type = byte 21 >> 5, core type = byte 20 & 1,
    // core id = byte 20 >> 1, sub-block id u16 at 28, block id u16 at 30, total cycles u64 at 32.
    RawFftsPmu block;
    block.func = RawFftsPmu::kFuncBlock;
    block.streamId = 3;
    block.taskId = 17;
    block.subtaskType = 6;  // MIX_AIC
    block.coreType = 1;     // AIV
    block.coreId = 37;
    block.fftsType = 4;     // FFTS+
    block.blockId = 11;
    block.totalCycles = 900;
    block.pmu = {1, 2, 3, 4, 5, 6, 7, 8};
    RawRecordBuffer out;
    encodeRaw(block, out);
    const std::string b = out.bytes();
    ASSERT_EQ(b.size(), 128u);
    EXPECT_EQ(at<std::uint16_t>(b, 0) & 0x3F, 0b101001);
    EXPECT_EQ(at<std::uint16_t>(b, 16) & 0xFF, 6);
    EXPECT_EQ(static_cast<unsigned char>(b[20]) & 1, 1);
    EXPECT_EQ(static_cast<unsigned char>(b[20]) >> 1, 37);
    EXPECT_EQ(static_cast<unsigned char>(b[21]) >> 5, 4);
    EXPECT_EQ(at<std::uint16_t>(b, 30), 11);
    EXPECT_EQ(at<std::uint64_t>(b, 32), 900u);
    EXPECT_EQ(at<std::uint64_t>(b, 48 + 7 * 8), 8u);
    const RawFftsPmu back = roundTrip(block, 128);
    EXPECT_EQ(back.func, RawFftsPmu::kFuncBlock);
    EXPECT_EQ(back.coreId, 37u);
    EXPECT_EQ(back.blockId, 11u);
    EXPECT_EQ(back.pmu, block.pmu);

    // FFTS_PLUS_LOG_FMT "4HQ4H10L": sub-task type u16 at 16 (low 8 bits), sub-task id at 18,
    // ffts type at 20 (>> 13), thread id at 22; the STARS magic at 2.
    RawStarsLog sub;
    sub.func = RawStarsLog::kFuncSubtaskEnd;
    sub.sqeType = kSqeAiCore;
    sub.streamId = 3;
    sub.taskId = 17;
    sub.sysCount = 5000;
    sub.subtaskType = 7;
    sub.subtaskId = 0;
    sub.fftsType = 4;
    RawRecordBuffer log;
    encodeRaw(sub, log);
    const std::string l = log.bytes();
    EXPECT_EQ(at<std::uint16_t>(l, 2), 0x6BD3);
    EXPECT_EQ(at<std::uint16_t>(l, 16), 7);
    EXPECT_EQ(at<std::uint16_t>(l, 20) >> 13, 4);
    const RawStarsLog s = roundTrip(sub, 64);
    EXPECT_TRUE(s.subtask());
    EXPECT_FALSE(s.start());
    EXPECT_EQ(s.subtaskType, 7u);
    EXPECT_EQ(s.fftsType, 4u);

    // AIC_PMU_FMT "BBHHHII10Q8I": counter = byte 0 >> 4, task id u16 at 6, total cycles u64 at 16,
    // the 8 counts at 32, stream id u32 at 96.
    RawAicPmu aic;
    aic.counter = 9;
    aic.taskId = 300;
    aic.totalCycles = 123456;
    aic.pmu = {8, 7, 6, 5, 4, 3, 2, 1};
    aic.streamId = 5;
    RawRecordBuffer aicOut;
    encodeRaw(aic, aicOut);
    const std::string c = aicOut.bytes();
    ASSERT_EQ(c.size(), 128u);
    EXPECT_EQ(static_cast<unsigned char>(c[0]) >> 4, 9);
    EXPECT_EQ(at<std::uint16_t>(c, 6), 300);
    EXPECT_EQ(at<std::uint64_t>(c, 16), 123456u);
    EXPECT_EQ(at<std::uint64_t>(c, 32), 8u);
    EXPECT_EQ(at<std::uint32_t>(c, 96), 5u);
    const RawAicPmu a = roundTrip(aic, 128);
    EXPECT_EQ(a.counter, 9u);
    EXPECT_EQ(a.pmu, aic.pmu);
    EXPECT_EQ(a.streamId, 5u);
}

TEST(RawLayouts, AWrongMagicNumberOrFuncTypeIsAnError) {
    RawRecordBuffer out;
    encodeRaw(RawStarsLog{RawStarsLog::kFuncStart, kSqeAiCore, 1, 1, 10, 1}, out);
    std::string bytes = out.bytes();
    bytes[2] = 0;  // the STARS magic number
    RawRecordReader in("stars", bytes);
    EXPECT_THROW(decodeRaw<RawStarsLog>(in), RawDataError);
    RawRecordBuffer pmu;
    encodeRaw(RawFftsPmu{}, pmu);
    std::string p = pmu.bytes();
    p[0] = 0;  // func type 0 is neither a context nor a block PMU record
    RawRecordReader pin("ffts", p);
    EXPECT_THROW(decodeRaw<RawFftsPmu>(pin), RawDataError);
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

TEST(RawLayouts, AnUnknownFuncTypeOrACountAboveItsLimitNamesTheRecordOrTheValue) {
    RawRecordBuffer pmu;
    encodeRaw(RawFftsPmu{}, pmu);
    std::string p = pmu.bytes();
    p[0] = 0x21;  // func type 33 in the low 6 bits
    RawRecordReader pin("ffts", p);
    try {
        decodeRaw<RawFftsPmu>(pin);
        FAIL() << "no error";
    } catch (const RawDataError& e) {
        EXPECT_STREQ(e.what(), "ffts: offset 0: FFTS PMU func type is neither a context (40) nor a block (41) record");
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

namespace ascendsim {
namespace {

TEST(RawLayouts, HcclInfoCarriesEveryFieldOfEachHcclTaskWhereHcclInfoFmtPutsIt) {
    CommunicationOpRecord op;
    op.groupName = "17522688603477080586";
    op.dataType = "BFP16";
    op.rankSize = 8;
    const std::vector<HcclTask> tasks = {
        {HcclTaskKind::NotifyRecord, 1, 0, 0, 0, 3, 4, 0, HcclLinkType::None},
        {HcclTaskKind::NotifyWait, 2, 1, 0, 0, 3, 5, 0, HcclLinkType::None},
        {HcclTaskKind::Memcpy, 1, 2, 0, 0, 3, 4, 1u << 20, HcclLinkType::Hccs},
        {HcclTaskKind::ReduceInline, 0, 3, 0, 0, 3, kNoPeerRank, 4096, HcclLinkType::OnChip},
        {HcclTaskKind::Memcpy, 3, 4, 0, 0, 3, 6, 512, HcclLinkType::Rdma},
        {HcclTaskKind::Memcpy, 4, 5, 0, 0, 3, 7, 64, HcclLinkType::Sio},
        {HcclTaskKind::Memcpy, 5, 6, 0, 0, 3, 2, 32, HcclLinkType::Pcie},
    };
    RawTypeDictionary dict;
    for (const HcclTask& task : tasks) {
        RawHcclInfo info = hcclInfoOf(op, task, dict);
        info.header.threadId = 7;
        info.header.timestamp = 555;
        RawRecordBuffer out;
        encodeRaw(info, out);
        ASSERT_EQ(out.size(), 256u);  // HCCL_INFO_FMT "HHIII4Q6IQ2Id3Q6I112B"
        const std::string& b = out.bytes();
        EXPECT_EQ(at<std::uint16_t>(b, 2), 5500u);
        EXPECT_EQ(at<std::uint64_t>(b, 24), dict.hashOf(hcclTaskName(task.kind)));  // itemId: the task's name
        EXPECT_EQ(at<std::uint64_t>(b, 72), hcclNotifyId(task));       // notifyID, as the timelines print it
        EXPECT_EQ(at<std::uint64_t>(b, 40), 17522688603477080586ULL);  // groupName
        EXPECT_EQ(at<std::uint32_t>(b, 48), task.srcRank);             // localRank
        EXPECT_EQ(at<std::uint32_t>(b, 52), task.dstRank);             // remoteRank
        EXPECT_EQ(at<std::uint32_t>(b, 56), 8u);                       // rankSize
        EXPECT_EQ(at<std::uint32_t>(b, 64), task.plane);               // planeID
        EXPECT_EQ(at<std::uint32_t>(b, 68), task.contextId);           // ctxID
        EXPECT_EQ(at<std::uint64_t>(b, 112), task.sizeBytes);          // dataSize
        EXPECT_EQ(at<std::uint32_t>(b, 124), 11u);                     // dataType BFP16
        RawRecordReader in("hccl_info", b);
        const RawHcclInfo decoded = decodeRaw<RawHcclInfo>(in);
        EXPECT_FALSE(hcclTaskOf(decoded, "hcom_allReduce_").has_value());  // an op's name is no task's
        const auto back = hcclTaskOf(decoded, hcclTaskName(task.kind));
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->kind, task.kind);
        EXPECT_EQ(back->plane, task.plane);
        EXPECT_EQ(back->contextId, task.contextId);
        EXPECT_EQ(back->srcRank, task.srcRank);
        EXPECT_EQ(back->dstRank, task.dstRank);
        EXPECT_EQ(back->sizeBytes, task.sizeBytes);
        EXPECT_EQ(back->link, task.link);
    }
}

TEST(RawLayouts, HcclOpInfoIsA64ByteCompactRecordOfTheNodeLevel) {
    RawHcclOpInfo o;
    o.header = {RawHcclOpInfo::kLevel, RawHcclOpInfo::kType, 7, RawHcclOpInfo::kDataBytes, 555};
    o.dataType = 4;
    o.algType = 1234;
    o.count = 4194304;
    o.groupName = 42;
    RawRecordBuffer out;
    encodeRaw(o, out);
    ASSERT_EQ(out.size(), 64u);  // HCCL_OP_INFO_FMT "HHIIIQBBQQQ" + 14 B
    EXPECT_EQ(at<std::uint8_t>(out.bytes(), 25), 4u);
    EXPECT_EQ(at<std::uint64_t>(out.bytes(), 34), 4194304u);
    RawRecordReader in("hccl_op_info", out.bytes());
    const RawHcclOpInfo back = decodeRaw<RawHcclOpInfo>(in);
    EXPECT_EQ(back.algType, 1234u);
    EXPECT_EQ(back.groupName, 42u);
    // A record of another node-level type is not an hccl_op_info.
    std::string bytes = out.bytes();
    bytes[4] = 0;  // type 0: node_basic_info
    RawRecordReader wrong("hccl_op_info", bytes);
    EXPECT_THROW(decodeRaw<RawHcclOpInfo>(wrong), RawDataError);
}

}  // namespace
}  // namespace ascendsim
