// `ascendsim msprof --export=on --output=PROF_DIR` on raw data alone (issue 14 item 3): the export
// equals, byte for byte, the one the collection wrote; it is deterministic; bad raw data is exit 2
// with the file and the byte offset, and nothing is written.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "cli_process.h"

namespace ascendsim::cli_test {
namespace {

fs::path freshDir(const std::string& name) {
    const fs::path dir = testing_scratch::scratchDir("msprof_export") / name;
    fs::remove_all(dir);
    return dir;
}

// An E2E collection of `workload` (its PROF_* directory), with the default profileConfig.
fs::path collect(const std::string& workload, const std::string& name, std::vector<std::string> extra = {}) {
    const fs::path out = freshDir(name);
    std::vector<std::string> args{"--workload", (sourceDir() / workload).string(), "--e2e", "--deterministic",
                                  "--output", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = runAscendsim(args);
    EXPECT_EQ(o.exitCode, 0) << o.err;
    return *fs::directory_iterator(out);
}

// A copy of the collection without its export: the raw data as a real collection leaves it.
fs::path rawCopy(const fs::path& prof, const std::string& name) {
    const fs::path copy = freshDir(name) / prof.filename();
    fs::create_directories(copy.parent_path());
    fs::copy(prof, copy, fs::copy_options::recursive);
    fs::remove_all(copy / "device_0/timeline");
    fs::remove_all(copy / "device_0/summary");
    return copy;
}

std::map<std::string, std::string> exported(const fs::path& prof) {
    std::map<std::string, std::string> files;
    for (const char* dir : {"device_0/timeline", "device_0/summary"})
        for (const auto& e : fs::directory_iterator(prof / dir))
            files[fs::relative(e.path(), prof).string()] = slurp(e.path());
    return files;
}

Outcome exportOnly(const fs::path& dir) { return runAscendsim({"msprof", "--export=on", "--output=" + dir.string()}); }

TEST(MsprofExport, RawDataAloneExportsTheCollectionsTimelineAndSummaryByteForByte) {
    // An AI Core and AI Vector workload (PMU records, shapes) and an AI CPU one (the AI CPU layer).
    for (const std::string workload : {"workloads/unit/elementwise_chain.yaml", "workloads/unit/aicpu_topk.yaml"}) {
        const fs::path prof = collect(workload, "collect");
        const fs::path copy = rawCopy(prof, "copy");
        const Outcome o = exportOnly(copy);
        ASSERT_EQ(o.exitCode, 0) << o.err;
        const auto want = exported(prof), got = exported(copy);
        EXPECT_GE(want.size(), 6u) << workload;
        ASSERT_EQ(want.size(), got.size()) << workload;
        for (const auto& [name, bytes] : want) EXPECT_EQ(got.at(name), bytes) << workload << ": " << name;
    }
}

TEST(MsprofExport, L2CacheAndStepTraceRecordsExportTheCollectionsL2CacheAndStepTrace) {
    const fs::path prof = collect("workloads/unit/matmul.yaml", "l2",
                                  {"--acl-prof", "ACL_PROF_L2CACHE=true,ACL_PROF_TRAINING_TRACE=true"});
    ASSERT_TRUE(fs::is_regular_file(prof / "device_0/data/l2_cache.data.0.slice_0"));
    ASSERT_TRUE(fs::is_regular_file(prof / "device_0/data/ts_track.data.0.slice_0"));
    const fs::path copy = rawCopy(prof, "l2_copy");
    ASSERT_EQ(exportOnly(copy).exitCode, 0);
    const auto want = exported(prof), got = exported(copy);
    for (const char* name : {"device_0/summary/l2_cache_0_1.csv", "device_0/summary/step_trace_0_1.csv",
                             "device_0/timeline/step_trace_0_1.json"})
        EXPECT_EQ(want.count(name), 1u) << name;
    EXPECT_EQ(got, want);

    const fs::path cut = rawCopy(prof, "l2_cut");
    const fs::path l2 = cut / "device_0/data/l2_cache.data.0.slice_0";
    const auto size = fs::file_size(l2);
    fs::resize_file(l2, size - 1);
    const Outcome o = exportOnly(cut);
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("l2_cache.data.0.slice_0: offset " + std::to_string(size - 72) + ": truncated L2 cache record"),
              std::string::npos)
        << o.err;
    EXPECT_FALSE(fs::exists(cut / "device_0/summary"));

    // The step's end mark turned into a second start: the step has no end.
    const fs::path unended = rawCopy(prof, "step_unended");
    std::fstream f(unended / "device_0/data/ts_track.data.0.slice_0", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(40 + 36);
    f.put('\x60');  // 60000 = 0xEA60
    f.close();
    const Outcome u = exportOnly(unended);
    EXPECT_EQ(u.exitCode, 2);
    EXPECT_NE(u.err.find("ts_track.data.0.slice_0: offset 40: step 0 starts twice"), std::string::npos) << u.err;
}

TEST(MsprofExport, The910AsHwtsLogAndAicoreDataExportTheCollectionWithItsMetricColumns) {
    // The 910A's task log (hwts.data) and PMU records (aicore.data) carry the task times and the
    // PipeUtilization counts: the raw-data export has the collection's metric columns.
    const fs::path prof = collect("workloads/unit/matmul.yaml", "hwts",
                                  {"--chip", "Ascend910", "--aicore-metrics-type", "1", "--acl-prof",
                                   "ACL_PROF_L2CACHE=true,ACL_PROF_TRAINING_TRACE=true"});
    const fs::path log = prof / "device_0/data/hwts.data.0.slice_0";
    ASSERT_TRUE(fs::is_regular_file(log));
    ASSERT_TRUE(fs::is_regular_file(prof / "device_0/data/aicore.data.0.slice_0"));
    EXPECT_FALSE(fs::exists(prof / "device_0/data/stars_soc.data.0.slice_0"));
    EXPECT_FALSE(fs::exists(prof / "device_0/data/ffts_profile.data.0.slice_0"));
    const fs::path copy = rawCopy(prof, "hwts_copy");
    ASSERT_EQ(exportOnly(copy).exitCode, 0);
    const auto want = exported(prof);
    EXPECT_GE(want.size(), 9u);
    const std::string& opSummary = want.at("device_0/summary/op_summary_0_1.csv");
    EXPECT_NE(opSummary.find("mac_ratio"), std::string::npos) << opSummary.substr(0, 400);
    EXPECT_EQ(exported(copy), want);
    ASSERT_EQ(exportOnly(copy).exitCode, 0);  // the same raw data again: the same bytes
    EXPECT_EQ(exported(copy), want);

    const fs::path bad = rawCopy(prof, "hwts_bad");
    std::fstream f(bad / "device_0/data/hwts.data.0.slice_0", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64);
    f.put('\x07');  // the second record's log type: 7 is neither start nor end
    f.close();
    const Outcome o = exportOnly(bad);
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("hwts.data.0.slice_0: offset 64: HWTS log type is neither start (0) nor end (1)"),
              std::string::npos)
        << o.err;
    EXPECT_FALSE(fs::exists(bad / "device_0/summary"));
}

// The records of a raw file whose u16 at offset 0 has `func` in its low 6 bits (STARS and FFTS PMU records).
std::size_t recordsWithFunc(const fs::path& file, std::size_t recordBytes, unsigned func) {
    const std::string bytes = slurp(file);
    std::size_t n = 0;
    for (std::size_t at = 0; at + recordBytes <= bytes.size(); at += recordBytes)
        if ((static_cast<unsigned char>(bytes[at]) & 0x3Fu) == func) ++n;
    return n;
}

TEST(MsprofExport, MixKernelsFftsPlusRecordsExportTheCollectionWithBothSidesMetricColumns) {
    // FlashAttentionScore is a MIX_AIC kernel: its FFTS+ sub-task log, its context PMU record (the
    // cube side) and the block PMU records of its vector side give the raw-data export the
    // collection's aic_ and aiv_ columns for it.
    const fs::path prof = collect("workloads/llama_decoder.yaml", "mix",
                                  {"--set", "layers=1", "--set", "decode_steps=1", "--aicore-metrics-type", "1"});
    const fs::path data = prof / "device_0/data";
    EXPECT_GT(recordsWithFunc(data / "stars_soc.data.0.slice_0", 64, 0b100010), 0u);  // FFTS+ sub-task starts
    EXPECT_EQ(recordsWithFunc(data / "stars_soc.data.0.slice_0", 64, 0b100010),
              recordsWithFunc(data / "stars_soc.data.0.slice_0", 64, 0b100011));
    EXPECT_GT(recordsWithFunc(data / "ffts_profile.data.0.slice_0", 128, 0b101001), 0u);  // block PMU records
    const fs::path copy = rawCopy(prof, "mix_copy");
    const Outcome o = exportOnly(copy);
    ASSERT_EQ(o.exitCode, 0) << o.err;
    const auto want = exported(prof);
    const std::string& opSummary = want.at("device_0/summary/op_summary_0_1.csv");
    const std::size_t fa = opSummary.find("FlashAttentionScore");
    ASSERT_NE(fa, std::string::npos);
    const std::string row = opSummary.substr(opSummary.rfind('\n', fa) + 1,
                                             opSummary.find('\n', fa) - opSummary.rfind('\n', fa) - 1);
    EXPECT_NE(row.find("MIX_AIC"), std::string::npos) << row;
    EXPECT_EQ(row.find("N/A,N/A,N/A"), std::string::npos) << row;  // both sides' metric cells are numbers
    EXPECT_EQ(exported(copy), want);

    // A block record lost: the MIX task lacks part of its second side.
    const fs::path cut = rawCopy(prof, "mix_cut");
    const fs::path pmu = cut / "device_0/data/ffts_profile.data.0.slice_0";
    std::string bytes = slurp(pmu);
    for (std::size_t at = 0; at + 128 <= bytes.size(); at += 128) {
        if ((static_cast<unsigned char>(bytes[at]) & 0x3Fu) != 0b101001) continue;
        bytes.erase(at, 128);
        break;
    }
    std::ofstream(pmu, std::ios::binary | std::ios::trunc) << bytes;
    const Outcome c = exportOnly(cut);
    EXPECT_EQ(c.exitCode, 2);
    EXPECT_NE(c.err.find("block PMU records"), std::string::npos) << c.err;
    EXPECT_FALSE(fs::exists(cut / "device_0/summary"));
}

// Every file of a PROF_* directory's export (timeline/, summary/ of its device, analyze/).
std::map<std::string, std::string> exportedWithAnalyze(const fs::path& prof) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(prof)) {
        const std::string rel = fs::relative(e.path(), prof).string();
        const bool exportedFile = rel.find("/timeline/") != std::string::npos ||
                                  rel.find("/summary/") != std::string::npos || rel.starts_with("analyze/");
        if (e.is_regular_file() && exportedFile) files[rel] = slurp(e.path());
    }
    return files;
}

TEST(MsprofExport, CollectivesHcclRecordsExportTheCollectionsHcclLayerAndAnalyze) {
    // unit/allreduce: two ranks, one AllReduce a step. Each rank's raw data carries the collective's
    // node, hccl_op_info, its own task (task_track, STARS ACSQ) and one hccl_info and FFTS+
    // sub-task per HCCL task; its raw-only export equals the collection's, HCCL layer and
    // communication*.json included.
    const fs::path out = freshDir("allreduce");
    const Outcome run = runAscendsim({"--workload", (sourceDir() / "workloads/unit/allreduce.yaml").string(), "--e2e",
                                      "--deterministic", "--output", out.string()});
    ASSERT_EQ(run.exitCode, 0) << run.err;
    std::size_t ranks = 0;
    for (const auto& entry : fs::directory_iterator(out)) {
        const fs::path prof = entry.path();
        ++ranks;
        EXPECT_GT(fs::file_size(prof / "host/data/unaging.additional.hccl_info.slice_0"), 0u);
        EXPECT_EQ(fs::file_size(prof / "host/data/aging.compact.hccl_op_info.slice_0"), 64u * 2);  // one a step
        const auto want = exportedWithAnalyze(prof);
        const fs::path copy = freshDir("allreduce_copy_" + std::to_string(ranks)) / prof.filename();
        fs::create_directories(copy.parent_path());
        fs::copy(prof, copy, fs::copy_options::recursive);
        for (const auto& [name, bytes] : want) fs::remove(copy / name);
        fs::remove_all(copy / "analyze");
        ASSERT_TRUE(exportedWithAnalyze(copy).empty());
        const Outcome o = exportOnly(copy);
        ASSERT_EQ(o.exitCode, 0) << o.err;
        EXPECT_EQ(exportedWithAnalyze(copy), want);
        std::string msprof;
        for (const auto& [name, bytes] : want)
            if (name.find("/timeline/msprof_") != std::string::npos) msprof = bytes;
        EXPECT_NE(msprof.find("\"name\":\"HCCL\""), std::string::npos) << "no HCCL layer";
        EXPECT_NE(msprof.find("Notify Wait"), std::string::npos) << "no HCCL task";
        EXPECT_NE(msprof.find("hcom_allReduce_"), std::string::npos);
        std::string communication;
        for (const auto& [name, bytes] : want)
            if (name == "analyze/communication.json") communication = bytes;
        EXPECT_NE(communication.find("\"HCCS\""), std::string::npos) << communication.substr(0, 300);
        if (ranks != 1) continue;
        // HCCL's context range lost (msprof could not pair its hccl_info with contexts): exit 2.
        const fs::path noRange = freshDir("allreduce_no_range") / prof.filename();
        fs::create_directories(noRange.parent_path());
        fs::copy(copy, noRange, fs::copy_options::recursive);
        for (const auto& [name, bytes] : want) fs::remove(noRange / name);
        fs::remove_all(noRange / "analyze");
        ASSERT_TRUE(fs::remove(noRange / "host/data/unaging.additional.context_id_info.slice_0"));
        const Outcome r = exportOnly(noRange);
        EXPECT_EQ(r.exitCode, 2);
        EXPECT_NE(r.err.find("context_id_info"), std::string::npos) << r.err;
        EXPECT_TRUE(exportedWithAnalyze(noRange).empty());
        // The HCCL tasks' sub-task records lost: exit 2 naming hccl_info, nothing exported.
        const fs::path cut = freshDir("allreduce_cut") / prof.filename();
        fs::create_directories(cut.parent_path());
        fs::copy(copy, cut, fs::copy_options::recursive);
        for (const auto& [name, bytes] : want) fs::remove(cut / name);
        fs::remove_all(cut / "analyze");
        fs::path log;
        for (const auto& e : fs::recursive_directory_iterator(cut))
            if (e.path().filename().string().starts_with("stars_soc.data.")) log = e.path();
        std::string bytes = slurp(log);
        std::string kept;
        for (std::size_t at = 0; at + 64 <= bytes.size(); at += 64) {
            const unsigned func = static_cast<unsigned char>(bytes[at]) & 0x3Fu;
            if (func != 0b100010 && func != 0b100011) kept += bytes.substr(at, 64);
        }
        ASSERT_LT(kept.size(), bytes.size());
        std::ofstream(log, std::ios::binary | std::ios::trunc) << kept;
        const Outcome c = exportOnly(cut);
        EXPECT_EQ(c.exitCode, 2);
        EXPECT_NE(c.err.find("hccl_info"), std::string::npos) << c.err;
        EXPECT_TRUE(exportedWithAnalyze(cut).empty());
    }
    EXPECT_EQ(ranks, 2u);
}

TEST(MsprofExport, TheTimelineHasTheFourLayersTopToBottom) {
    const fs::path copy = rawCopy(collect("workloads/unit/aicpu_topk.yaml", "layers"), "layers_copy");
    ASSERT_EQ(exportOnly(copy).exitCode, 0);
    const auto events = nlohmann::json::parse(slurp(copy / "device_0/timeline/msprof_0_1.json"));
    std::map<std::uint64_t, std::string> names;
    std::map<std::string, int> sort;
    for (const auto& e : events)
        if (e["ph"] == "M" && e["name"] == "process_name") names[e["pid"].get<std::uint64_t>()] = e["args"]["name"];
    for (const auto& e : events)
        if (e["ph"] == "M" && e["name"] == "process_sort_index")
            sort[names[e["pid"].get<std::uint64_t>()]] = e["args"]["sort_index"].get<int>();
    ASSERT_TRUE(sort.count("MsprofTx") && sort.count("CANN") && sort.count("Task Scheduler") && sort.count("AI CPU"));
    EXPECT_LT(sort["MsprofTx"], sort["CANN"]);
    EXPECT_LT(sort["CANN"], sort["Task Scheduler"]);
    EXPECT_LT(sort["Task Scheduler"], sort["AI CPU"]);
    // chrome://tracing's rules: ph, ts (but on metadata), pid and tid on every event, dur on every X.
    std::size_t aiCpuTasks = 0;
    for (const auto& e : events) {
        ASSERT_TRUE(e.contains("ph") && e.contains("pid") && e.contains("tid")) << e.dump();
        if (e["ph"] != "M") {
            EXPECT_TRUE(e.contains("ts")) << e.dump();
        }
        if (e["ph"] == "X") {
            EXPECT_TRUE(e.contains("dur")) << e.dump();
        }
        if (e["ph"] == "X" && names[e["pid"].get<std::uint64_t>()] == "AI CPU") ++aiCpuTasks;
    }
    EXPECT_EQ(aiCpuTasks, 1u);
}

TEST(MsprofExport, SameRawDataSameBytesAndAParentFolderExportsEachCollection) {
    const fs::path prof = collect("workloads/unit/matmul.yaml", "det",
                                  {"--acl-prof", "ACL_PROF_L2CACHE=true,ACL_PROF_TRAINING_TRACE=true"});
    const fs::path a = rawCopy(prof, "det_a"), b = rawCopy(prof, "det_b");
    ASSERT_EQ(exportOnly(a).exitCode, 0);
    ASSERT_EQ(exportOnly(b.parent_path()).exitCode, 0);  // msprof also takes the folder holding PROF_*
    EXPECT_EQ(exported(a), exported(b));
    ASSERT_EQ(exportOnly(a).exitCode, 0);  // exporting again replaces the export with the same bytes
    EXPECT_EQ(exported(a), exported(b));
}

TEST(MsprofExport, TruncatedOrCorruptRawDataIsExitTwoWithTheFileAndOffsetAndWritesNothing) {
    const fs::path prof = collect("workloads/unit/matmul.yaml", "bad");
    const fs::path cut = rawCopy(prof, "cut");
    const fs::path track = cut / "host/data/aging.compact.task_track.slice_0";
    const auto size = fs::file_size(track);
    fs::resize_file(track, size - 10);  // the last 64-byte record loses 10 bytes
    Outcome o = exportOnly(cut);
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("aging.compact.task_track.slice_0: offset " + std::to_string(size - 64)), std::string::npos)
        << o.err;
    EXPECT_NE(o.err.find("truncated"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(cut / "device_0/timeline"));

    const fs::path corrupt = rawCopy(prof, "corrupt");
    const fs::path log = corrupt / "device_0/data/stars_soc.data.0.slice_0";
    std::fstream f(log, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(64 + 2);  // the second record's magic number
    f.put('\x00');
    f.close();
    o = exportOnly(corrupt);
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("stars_soc.data.0.slice_0: offset 64: bad magic number"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(corrupt / "device_0/summary"));

    o = exportOnly(freshDir("empty"));
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("no PROF_* directory"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace ascendsim::cli_test
