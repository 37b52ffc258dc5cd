// `ascendsim replay` end to end on small fixtures: the three files, the summary's coverage and
// not-replayed list, and the bad-input / I/O exit codes with no partial output.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "profiler/format/csv_reader.h"
#include "sim/config/chip_config_loader.h"
#include "sim/replay/run/calibration.h"
#include "sim/replay/replay_command.h"
#include "sim/replay/replay_fixtures.h"

namespace ascendsim {
namespace {

using namespace replay_fixtures;

struct Outcome {
    int code = 0;
    std::string out, err;
};

Outcome replay(const fs::path& profile, const fs::path& output, const std::string& chip = "") {
    ReplayOptions options;
    options.profileDir = profile.string();
    options.outputDir = output.string();
    options.configDir = defaultConfigDir();
    options.chip = chip;
    std::ostringstream out, err;
    const int code = runReplayCommand(options, out, err);
    return {code, out.str(), err.str()};
}

TEST(ReplayCommand, TextProfile_FilesSummaryCoverageAndNotReplayedList) {
    const auto root = testing_scratch::scratchDir("replay_cmd");
    const auto result = replay(textProfile(root, "q", kernelDetails83()), root / "out");
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_NE(result.out.find("chip Ascend910B4_1650: inferred"), std::string::npos) << result.out;
    // The second Add finds its binary's code resident (code_residency.h): a kernel of its own.
    EXPECT_NE(result.out.find("compute kernels: 4 rows, 4 distinct; communication (excluded): 1 tasks, 500.000 us"),
              std::string::npos)
        << result.out;
    // MatMul 20.08 + Add 2 × 6.22 of 92.52 µs compute time are replayed; ScatterNdUpdate (60 µs, no rule) is not.
    EXPECT_NE(result.out.find("3 of 4 distinct kernels replayed = 35.1 %"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("ScatterNdUpdate: 1 distinct, 1 rows, 60.000 us: no catalog op for type ScatterNdUpdate"), std::string::npos);

    const CsvTable kernels = readCsvFile(root / "out" / "replay_kernels.csv");
    ASSERT_EQ(kernels.rows.size(), 4u);
    const auto status = *csvColumn(kernels, "Status");
    const auto ratio = *csvColumn(kernels, "Sim/Real");
    const auto type = *csvColumn(kernels, "Type");
    EXPECT_EQ(kernels.rows[0][status], "replayed");
    EXPECT_GT(std::stod(kernels.rows[0][ratio]), 0.0);
    std::size_t adds = 0;
    for (const auto& row : kernels.rows) {
        if (row[type] == "Add") {
            ++adds;
            EXPECT_EQ(row[*csvColumn(kernels, "Occurrences")], "1");
        }
        if (row[type] == "ScatterNdUpdate") {
            EXPECT_EQ(row[status], "not replayed: no catalog op for type ScatterNdUpdate");
        }
    }
    EXPECT_EQ(adds, 2u);  // its cold and its code-resident launch
    EXPECT_TRUE(csvColumn(kernels, "real aic_mac_ratio") && csvColumn(kernels, "sim aiv_vec_ratio"));
    EXPECT_NE(kernels.rows[0][*csvColumn(kernels, "sim aic_mac_ratio")], "N/A");

    const CsvTable families = readCsvFile(root / "out" / "replay_families.csv");
    ASSERT_GE(families.rows.size(), 4u);  // all, MatMul, elementwise, ScatterNdUpdate
    EXPECT_EQ(families.rows[0][0], "all");
    EXPECT_EQ(families.rows[0][*csvColumn(families, "Replayed")], "3");  // MatMul, Add cold, Add resident
    EXPECT_TRUE(fs::is_regular_file(root / "out" / "replay_summary.txt"));
    fs::remove_all(root);
}

TEST(ReplayCommand, DbProfileWithGivenChip) {
    const auto root = testing_scratch::scratchDir("replay_cmd_db");
    const auto result = replay(dbProfile(root, "d"), root / "out", "Ascend910B1");
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_NE(result.out.find("chip Ascend910B1: given by --chip"), std::string::npos);
    EXPECT_NE(result.out.find("export db, era 8.0"), std::string::npos);
    fs::remove_all(root);
}

TEST(ReplayCommand, BadInput_ExitTwoAndNoOutput) {
    const auto root = testing_scratch::scratchDir("replay_bad");
    fs::create_directories(root / "empty");
    auto result = replay(root / "empty", root / "out");
    EXPECT_EQ(result.code, 2);
    EXPECT_NE(result.err.find("not a torch_npu profile"), std::string::npos) << result.err;
    EXPECT_FALSE(fs::exists(root / "out"));

    result = replay(textProfile(root, "era", "x,y,z\n1,2,3\n"), root / "out");
    EXPECT_EQ(result.code, 2);
    EXPECT_NE(result.err.find("kernel_details.csv:1: not a kernel_details header of a known era"), std::string::npos);
    EXPECT_FALSE(fs::exists(root / "out"));

    const fs::path notDb = root / "nodb_ascend_pt" / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db";
    writeText(notDb, "this is not a database, just text long enough to have a header..........................");
    result = replay(root / "nodb_ascend_pt", root / "out");
    EXPECT_EQ(result.code, 2) << result.err;
    EXPECT_NE(result.err.find("ascend_pytorch_profiler_0.db"), std::string::npos) << result.err;

    result = replay(textProfile(root, "chip", kernelDetails83()), root / "out", "NoSuchChip");
    EXPECT_EQ(result.code, 2) << result.err;
    EXPECT_FALSE(fs::exists(root / "out"));
    fs::remove_all(root);
}

// Rows no chip could have run (a negative extent, tensors past device memory, 2^63 elements) are
// listed as not replayed with the reason, and the replay returns at once instead of simulating
// petabytes of work.
TEST(ReplayCommand, ImpossibleShapesAreListedNotSimulated) {
    const auto root = testing_scratch::scratchDir("replay_impossible");
    std::string text = kHeader83;
    const auto addRow = [&text](const std::string& in, const std::string& out) {
        text += "13,0,4294967295,101,2,aclnnAdd_AddAiCore_Add,Add,dynamic,AI_VECTOR_CORE,1764246877080100.000\t,5.0,"
                "1.000000,40,0,NO,\"\"\"" + in + "\"\"\",DT_BF16;DT_BF16,ND;ND,\"\"\"" + out + "\"\"\",DT_BF16,ND,N/A," +
                kAivZeroAic + "4.0,264000,1.0,0.25,0.4,0.1,3.0,0.75,2.0,0.5,0.01,0.000\n";
    };
    addRow("64,-5;64,-5", "64,5");
    addRow("400000000,400000;400000000,400000", "400000000,400000");
    addRow("9223372036854775807;9223372036854775807", "9223372036854775807");
    addRow("64,1024;64,1024", "64,1024");
    const auto result = replay(textProfile(root, "q", text), root / "out", "Ascend910B4_1650");
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_NE(result.out.find("shape '64,-5' has a negative dimension"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("more than the chip's"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("more than 2^63 bytes"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1 of 4 distinct kernels replayed"), std::string::npos) << result.out;
}

TEST(ReplayCommand, UnwritableOutput_ExitOneWithErrnoText) {
    const auto root = testing_scratch::scratchDir("replay_io");
    writeText(root / "file", "x");
    const auto result = replay(textProfile(root, "q", kernelDetails83()), root / "file" / "out");
    EXPECT_EQ(result.code, 1);
    EXPECT_NE(result.err.find("cannot create"), std::string::npos) << result.err;
    fs::remove_all(root);
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

using namespace replay_fixtures;

TEST(ReplayCommand, WarmL2_SecondLaunchIsMeasuredAndNeverSlowerThanCold) {
    const auto root = testing_scratch::scratchDir("replay_warm");
    const fs::path profile = textProfile(root, "q", kernelDetails83());
    ReplayOptions options;
    options.profileDir = profile.string();
    options.configDir = defaultConfigDir();
    options.l2 = "cold";
    PreparedReplay cold = prepareReplay(options);
    runReplay(cold, cold.chip, false);
    options.l2 = "warm";
    PreparedReplay warm = prepareReplay(options);
    runReplay(warm, warm.chip, false);
    ASSERT_TRUE(cold.report.kernels[1].simulated && warm.report.kernels[1].simulated);
    // The Add's 256 KiB of inputs fit in L2: the second launch reads them from L2.
    EXPECT_LT(warm.report.kernels[1].simulated->durationUs, cold.report.kernels[1].simulated->durationUs);
    options.l2 = "lukewarm";
    EXPECT_THROW(prepareReplay(options), ReplayInputError);
    fs::remove_all(root);
}

// Calibrate options fitting the 8.3-era fixture profile written under `root`, from `baseChip`, into
// root / `outputName`.
CalibrateOptions fixtureCalibration(const fs::path& root, const std::string& baseChip, const std::string& outputName) {
    CalibrateOptions options;
    options.profileDirs = {textProfile(root, "q", kernelDetails83()).string()};
    options.baseChip = baseChip;
    options.configDir = defaultConfigDir();
    options.outputFile = (root / outputName).string();
    return options;
}

TEST(CalibrateCommand, WritesAnInheritingChipWhoseFittedValuesCarryTheirErrors) {
    const auto root = testing_scratch::scratchDir("calibrate");
    CalibrateOptions options = fixtureCalibration(root, "Ascend910B4_1650", "my_chip.yaml");
    // The fixture's kernels move a few KiB a core: since the Qwen3 part's per-core cold-read limit
    // (docs/fidelity.md §145) their time follows HBM's latency, not its bandwidth.
    options.only = {"hbm.read_latency_cycles"};
    options.evaluations = 3;
    std::ostringstream out, err;
    ASSERT_EQ(runCalibrateCommand(options, out, err), 0) << err.str();
    std::ifstream in(options.outputFile);
    const std::string yaml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(yaml.find("inherits: Ascend910B4_1650\nname: my_chip\n"), std::string::npos) << yaml;
    EXPECT_NE(yaml.find("# Objective: mean squared log(sim/real)."), std::string::npos);
    EXPECT_NE(yaml.find("hbm:\n  read_latency_cycles: "), std::string::npos) << yaml;
    EXPECT_NE(yaml.find("# fitted: 400 -> "), std::string::npos) << yaml;
    // The file is a loadable chip: the fitted chip replays the same profile.
    const ChipConfig fitted = loadChipByName(options.outputFile, options.configDir);
    EXPECT_EQ(fitted.name, "my_chip");
    EXPECT_EQ(fitted.aiCoreCount, 20u);

    options.baseChip.clear();
    std::ostringstream err2;
    EXPECT_EQ(runCalibrateCommand(options, out, err2), 2);
    EXPECT_NE(err2.str().find("--chip BASE is required"), std::string::npos);
    options.baseChip = "Ascend910B4_1650";
    options.only = {"hbm.speed"};
    EXPECT_EQ(runCalibrateCommand(options, out, err2), 2);
    fs::remove_all(root);
}

// A trial the chip's own checks reject is skipped, not fatal: with the concurrent capacity at the
// nominal HBM rate, every bandwidth below it is an invalid chip (hbm.concurrent_capacity_gbps), as
// on the shipped 910A; the fit runs on and says how many trials it left out.
TEST(CalibrateCommand, ATrialOutsideTheChipsValidRangeIsSkippedNotFatal) {
    const auto root = testing_scratch::scratchDir("calibrate_range");
    const fs::path tight = root / "tight.yaml";
    std::ofstream(tight) << "schema_version: 1\ninherits: Ascend910B4_1650\nname: tight\n"
                            "hbm:\n  concurrent_capacity_gbps: 800\n";
    CalibrateOptions options = fixtureCalibration(root, tight.string(), "fit.yaml");
    options.only = {"hbm.bandwidth_gbps"};
    options.evaluations = 4;
    std::ostringstream out, err;
    ASSERT_EQ(runCalibrateCommand(options, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("trial values outside the chip's valid range (not replayed)"), std::string::npos)
        << out.str();
    fs::remove_all(root);
}

// Every key calibrate fits is a chip key `--chip-set` takes, read back by the parameter's getter
// (a misspelt key would make every trial fail to load), and a DRAM efficiency's search stops at 1.
TEST(CalibrateCommand, EveryCalibratedKeyIsAChipKeyItsGetterReads) {
    ASSERT_GE(calibrationParameters().size(), 9u);
    const ChipConfig base = loadChipByName("Ascend910B2", defaultConfigDir());
    for (const CalibrationParameter& p : calibrationParameters()) {
        const double start = p.value(base);
        ASSERT_GT(start, 0.0) << p.key << " is not set on the 910B2: calibrate would skip it";
        const double trial = p.integer ? std::round(start * 0.75) : start * 0.75;
        std::ostringstream text;
        text << std::string(p.key) << "=" << trial;
        const ChipConfig edited = loadChipByName("Ascend910B2", defaultConfigDir(), {text.str()});
        EXPECT_DOUBLE_EQ(p.value(edited), trial) << p.key;
        EXPECT_LT(p.lowFactor, 1.0) << p.key;
        EXPECT_GT(std::min(start * p.highFactor, p.maxValue), start * p.lowFactor) << p.key;
        if (std::string(p.key).find("efficiency") != std::string::npos) {
            EXPECT_EQ(p.maxValue, 1.0) << p.key;
        }
    }
}

}  // namespace
}  // namespace ascendsim
