// The chip config loader: every shipped config loads and validates, inheritance overrides only
// what a child lists, and every error names file, key path and problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "sim/config/chip_config_loader.h"
#include "sim/config/shipped_configs.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;

std::string configDir() { return shippedConfigDir(); }

// A scratch folder holding a copy of Ascend910B1.yaml with one line edited.
class EditedConfig : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() /
               ("ascendsim_cfg_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
        std::ifstream in(fs::path(configDir()) / "Ascend910B1.yaml");
        original_.assign(std::istreambuf_iterator<char>(in), {});
    }
    void TearDown() override { fs::remove_all(dir_); }

    std::string write(const std::string& name, const std::string& text) {
        const fs::path path = dir_ / (name + ".yaml");
        std::ofstream(path) << text;
        return path.string();
    }
    std::string withReplaced(const std::string& pattern, const std::string& replacement) {
        const std::string edited = std::regex_replace(original_, std::regex(pattern), replacement,
                                                      std::regex_constants::format_first_only);
        EXPECT_NE(edited, original_) << "pattern did not match: " << pattern;
        return write("Ascend910B1", edited);
    }
    std::string errorOf(const std::string& path) {
        try {
            loadChipConfig(path);
        } catch (const ConfigError& e) {
            return e.what();
        }
        return "(no error)";
    }

    fs::path dir_;
    std::string original_;
};

TEST(ChipConfigLoader, Ascend910B1_LoadsTheIniValues) {
    const ChipConfig chip = loadChipByName("Ascend910B1", configDir());
    EXPECT_EQ(chip.name, "Ascend910B1");
    EXPECT_EQ(chip.organisation, CoreOrganisation::Split);
    EXPECT_EQ(chip.aiCoreCount, 24u);
    EXPECT_EQ(chip.vectorCoreCount, 48u);
    EXPECT_DOUBLE_EQ(chip.aiCoreFreqMhz, 1850.0);
    EXPECT_EQ(chip.bufferCapacity(MemSpace::L1), 524288u);
    EXPECT_EQ(chip.bufferCapacity(MemSpace::UB), 196608u);
    EXPECT_EQ(chip.alignment(MemSpace::L0A), 512u);
    EXPECT_EQ(chip.l2.sizeBytes, 201326592u);
    EXPECT_EQ(chip.ub.bankGroups * chip.ub.banksPerGroup, 48u);
    ASSERT_NE(chip.findPath(MemSpace::GM, MemSpace::L1), nullptr);
    EXPECT_FALSE(chip.findPath(MemSpace::GM, MemSpace::L1)->convertingCurve.bytes.empty());
    EXPECT_EQ(chip.findPath(MemSpace::L0C, MemSpace::UB), nullptr);
}

TEST(ChipConfigLoader, EveryShippedConfigLoadsAndValidates) {
    const auto chips = listChips(configDir());
    ASSERT_GE(chips.size(), 7u);
    for (const auto& name : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4",
                             "Ascend910_9391", "Ascend310P3", "Ascend910"}) {
        const auto found = std::find_if(chips.begin(), chips.end(),
                                        [&](const ChipSummary& s) { return s.name == name; });
        EXPECT_NE(found, chips.end()) << name;
    }
}

TEST(ChipConfigLoader, InheritingChipOverridesOnlyWhatItLists) {
    const ChipConfig b1 = loadChipByName("Ascend910B1", configDir());
    const ChipConfig b4 = loadChipByName("ascend910b4", configDir());
    EXPECT_EQ(b4.aiCoreCount, 20u);
    EXPECT_EQ(b4.vectorCoreCount, 40u);
    EXPECT_DOUBLE_EQ(b4.aiCoreFreqMhz, 1500.0);
    EXPECT_EQ(b4.l2.sizeBytes, 100663296u);
    EXPECT_EQ(b4.bufferCapacity(MemSpace::L1), b1.bufferCapacity(MemSpace::L1));
    EXPECT_EQ(b4.paths.size(), b1.paths.size());
    EXPECT_EQ(b4.cube.mmadOverheadCycles, b1.cube.mmadOverheadCycles);
}

TEST(ChipConfigLoader, CoupledChipsHaveTheCoupledPaths) {
    const ChipConfig p3 = loadChipByName("Ascend310P3", configDir());
    EXPECT_EQ(p3.organisation, CoreOrganisation::Coupled);
    EXPECT_EQ(p3.aiCoreCount, 8u);
    EXPECT_EQ(p3.vectorCoreCount, 7u);
    EXPECT_NE(p3.findPath(MemSpace::L0C, MemSpace::UB), nullptr);
    const ChipConfig a = loadChipByName("Ascend910", configDir());
    EXPECT_EQ(a.organisation, CoreOrganisation::Coupled);
    EXPECT_EQ(a.aiCoreCount, 32u);
}

TEST(ChipConfigLoader, UnknownChipNameListsTheKnownOnes) {
    try {
        loadChipByName("Ascend999", configDir());
        FAIL() << "expected ConfigError";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("Ascend910B1"), std::string::npos) << e.what();
    }
}

TEST_F(EditedConfig, NegativeWaysNamesFileKeyAndValue) {
    const std::string path = withReplaced("ways: 16", "ways: -4");
    const std::string error = errorOf(path);
    EXPECT_NE(error.find(path + ": l2.ways: expected a positive integer, got -4"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("(line "), std::string::npos) << error;
}

// yaml-cpp 0.7 never returns on a NUL inside a document (fuzz finding on workloads): chip files
// are read by the same guarded reader, so the byte is an error at its line.
TEST_F(EditedConfig, AControlByteIsAnErrorAtItsLineNotAHang) {
    const std::string path = withReplaced("ways: 16", std::string("ways: 1\0", 9) + "6");
    const std::string error = errorOf(path);
    EXPECT_NE(error.find("control character 0x00 is not allowed in YAML"), std::string::npos) << error;
    EXPECT_NE(error.find("(line "), std::string::npos) << error;
}

TEST_F(EditedConfig, ASecondYamlDocumentIsAnError) {
    const std::string error = errorOf(write("two_documents", original_ + "---\nname: other\n"));
    EXPECT_NE(error.find("more than one YAML document"), std::string::npos) << error;
}

// fuzz_chip_config finding: a root file without `paths` threw yaml-cpp's InvalidNode (exit 1, or
// a crash where only ConfigError was caught) instead of naming the missing list.
TEST_F(EditedConfig, ARootFileWithoutPathsNamesTheMissingList) {
    const std::string withoutPaths = original_.substr(0, original_.find("\npaths:") + 1);
    const std::string error = errorOf(write("no_paths", withoutPaths));
    EXPECT_NE(error.find(": paths: missing required list"), std::string::npos) << error;
}

// The same finding's file said `cores:` twice: yaml-cpp keeps both and finds the first, so the
// second section was dropped without a word.
TEST_F(EditedConfig, AKeyGivenTwiceIsAnErrorAtItsSecondLine) {
    const std::string error = errorOf(withReplaced("\npaths:", "\ncores:"));
    EXPECT_NE(error.find(": cores: key is given twice"), std::string::npos) << error;
    const std::string beforePaths = original_.substr(0, original_.find("\npaths:") + 1);
    const auto pathsLine = std::count(beforePaths.begin(), beforePaths.end(), '\n') + 1;
    EXPECT_NE(error.find("(line " + std::to_string(pathsLine) + ")"), std::string::npos) << error;
}

// Checks run on the loaded chip (ranges, cross-field rules) name the line that set the value:
// in an `inherits:` file that sets it, that file's line; a value only the parent sets, the
// parent's line.
TEST_F(EditedConfig, ARangeErrorNamesTheLineThatSetTheValue) {
    write("Ascend910B1", original_);
    const std::string child = write("what_if", "name: what_if\ninherits: Ascend910B1\nvector:\n"
                                               "  result_latency_cycles: 4294967295\n");
    const std::string error = errorOf(child);
    EXPECT_NE(error.find("what_if.yaml: vector.result_latency_cycles: 4.29497e+09 cycles is outside"),
              std::string::npos) << error;
    EXPECT_NE(error.find("(line 4)"), std::string::npos) << error;

    const std::string parentError = errorOf(withReplaced("hit_latency_cycles: [0-9]+", "hit_latency_cycles: 7000000"));
    const std::string beforeKey = original_.substr(0, original_.find("hit_latency_cycles:"));
    const auto keyLine = std::count(beforeKey.begin(), beforeKey.end(), '\n') + 1;
    EXPECT_NE(parentError.find("Ascend910B1.yaml: l2.hit_latency_cycles:"), std::string::npos) << parentError;
    EXPECT_NE(parentError.find("(line " + std::to_string(keyLine) + ")"), std::string::npos) << parentError;
}

TEST_F(EditedConfig, MissingRequiredKeyIsNamed) {
    const std::string error = errorOf(withReplaced("  ai_cores: 24[^\n]*\n", ""));
    EXPECT_NE(error.find("cores.ai_cores: missing required key"), std::string::npos) << error;
}

TEST_F(EditedConfig, ARootHcclSectionNeedsEveryFigure) {
    const std::string error = errorOf(withReplaced("  reduce_bandwidth_gbps: [^\n]*\n", ""));
    EXPECT_NE(error.find("hccl.reduce_bandwidth_gbps: missing required key"), std::string::npos)
        << error;
}

TEST(ChipConfigLoader, The910BFamilyHasTheHcclLinkModelAnd310PHasNone) {
    const ChipConfig b4 = loadChipByName("Ascend910B4", configDir());
    EXPECT_EQ(b4.hccl.npusPerServer, 8u);  // inherited from Ascend910B1
    EXPECT_GT(b4.hccl.linkBandwidthGBps, 0.0);
    EXPECT_LT(b4.hccl.reduceBandwidthGBps, b4.hccl.linkBandwidthGBps);
    EXPECT_EQ(loadChipByName("Ascend310P3", configDir()).hccl.linkBandwidthGBps, 0.0);
}

TEST_F(EditedConfig, UnknownKeyIsRejected) {
    const std::string error = errorOf(withReplaced("ways: 16", "wayz: 16"));
    EXPECT_NE(error.find("l2.wayz: unknown key"), std::string::npos) << error;
}

TEST_F(EditedConfig, SplitCoreCountsMustBeConsistent) {
    const std::string error = errorOf(withReplaced("vector_cores: 48", "vector_cores: 47"));
    EXPECT_NE(error.find("cores.vector_cores: split organisation needs"), std::string::npos)
        << error;
}

TEST_F(EditedConfig, NonMonotoneCurveIsRejected) {
    const std::string error = errorOf(withReplaced("\\[2048, 192\\]", "[2048, 100]"));
    EXPECT_NE(error.find("paths[0].curve[1]: cycles must not decrease"), std::string::npos)
        << error;
}

TEST_F(EditedConfig, UnknownMemoryNameIsRejected) {
    const std::string error = errorOf(withReplaced("to: L1  ", "to: L9  "));
    EXPECT_NE(error.find("paths[0].to: unknown memory 'L9'"), std::string::npos) << error;
}

TEST_F(EditedConfig, PathWithoutAPipeIsRejected) {
    const std::string error = errorOf(withReplaced("from: UB\n    to: UB", "from: L0A\n    to: UB"));
    EXPECT_NE(error.find("no pipe moves data L0A->UB"), std::string::npos) << error;
}

// A per-burst restart cost past 10^6 cycles is no copy a core makes (the chip's per-event bound).
TEST_F(EditedConfig, PathBurstCostIsBounded) {
    const std::string error = errorOf(withReplaced("burst_cycles: 14 ", "burst_cycles: 4e9 "));
    EXPECT_NE(error.find("].burst_cycles: 4e+09 cycles is outside"), std::string::npos) << error;
}

TEST_F(EditedConfig, PathPaddedBurstCostIsBounded) {
    const std::string error = errorOf(withReplaced("padded_burst_cycles: 70 ", "padded_burst_cycles: 4e9 "));
    EXPECT_NE(error.find("].padded_burst_cycles: 4e+09 cycles is outside"), std::string::npos) << error;
}

TEST_F(EditedConfig, UbBankingMustCoverTheUb) {
    const std::string error = errorOf(withReplaced("banks_per_group: 3", "banks_per_group: 4"));
    EXPECT_NE(error.find("ub_banking: bank_groups x banks_per_group x bank_bytes"),
              std::string::npos)
        << error;
}

TEST_F(EditedConfig, InheritanceCycleIsReported) {
    write("A", "inherits: B\nname: A\n");
    const std::string b = write("B", "inherits: A\nname: B\n");
    EXPECT_NE(errorOf(b).find("inheritance cycle"), std::string::npos) << errorOf(b);
}

TEST_F(EditedConfig, HbmEfficiencyAboveOneNamesKeyAndLine) {
    const std::string error = errorOf(withReplaced("read_efficiency: [0-9.]+", "read_efficiency: 1.3"));
    EXPECT_NE(error.find("hbm.read_efficiency: expected a number in (0.000000, 1.000000], got 1.3"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find("(line "), std::string::npos) << error;
    EXPECT_NE(errorOf(withReplaced("write_efficiency: [0-9.]+", "write_efficiency: 0")).find("hbm.write_efficiency"),
              std::string::npos);
}

// hbm.outstanding_read_lines_per_core ships 0 in Ascend910B1 (docs/fidelity.md §17; the 910B2 sets
// its own 12, §41) and reads an edited value.
TEST_F(EditedConfig, OutstandingReadLinesAreReadAndNegativeIsRejected) {
    EXPECT_EQ(loadChipConfig((fs::path(configDir()) / "Ascend910B1.yaml").string()).hbm.outstandingReadLinesPerCore, 0u);
    const std::string edited =
        withReplaced("outstanding_read_lines_per_core: [0-9]+", "outstanding_read_lines_per_core: 12");
    EXPECT_EQ(loadChipConfig(edited).hbm.outstandingReadLinesPerCore, 12u);
    const std::string error =
        errorOf(withReplaced("outstanding_read_lines_per_core: [0-9]+", "outstanding_read_lines_per_core: -3"));
    EXPECT_NE(error.find("hbm.outstanding_read_lines_per_core"), std::string::npos) << error;
}

TEST_F(EditedConfig, AbsurdScalarCostIsRejected) {
    const std::string error =
        errorOf(withReplaced("scalar_cycles_per_instruction: [0-9]+", "scalar_cycles_per_instruction: 5000"));
    EXPECT_NE(error.find("pipes.scalar_cycles_per_instruction: expected at most 1000"), std::string::npos) << error;
}

TEST_F(EditedConfig, ConversionRateAbovePeakIsRejected) {
    const std::string error = errorOf(withReplaced("dtype_conversion_bytes_per_cycle: 80 ",
                                                   "dtype_conversion_bytes_per_cycle: 500 "));
    EXPECT_NE(error.find(".dtype_conversion_bytes_per_cycle: a converting move cannot outrun the path's peak"),
              std::string::npos)
        << error;
}

TEST(ChipConfigLoader, The910BFamilyHasTheFittedStreamingAndScalarMechanisms) {
    for (const char* name : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4"}) {
        const ChipConfig chip = loadChipByName(name, configDir());
        EXPECT_LT(chip.hbm.readEfficiency, chip.hbm.writeEfficiency) << name;
        EXPECT_GT(chip.scalarCyclesPerInstruction, 0u) << name;
        EXPECT_GT(chip.blockPrologueScalarCycles, 0u) << name;
        EXPECT_GT(chip.scalarCyclesPerInstructionAic, chip.scalarCyclesPerInstruction) << name;
    }
}

TEST_F(EditedConfig, YamlSyntaxErrorNamesTheFile) {
    const std::string path = write("Broken", "name: [unclosed\n");
    EXPECT_NE(errorOf(path).find(path + ": YAML syntax error"), std::string::npos) << errorOf(path);
}

}  // namespace
}  // namespace ascendsim

namespace ascendsim {
namespace {

// DESIGN.md: every number in a chip config carries its source. Each `key: value` line of the
// shipped configs (other than names) has a comment saying where the value comes from.
TEST(ShippedChipConfigs, EveryValueLineCarriesASourceComment) {
    const std::regex leafValue(R"(^\s*(- )?[A-Za-z_0-9]+:\s*[^\s#{].*$)");
    const std::regex structural(R"(^\s*(- )?(name|schema_version|inherits|from):)");
    std::size_t checked = 0;
    for (const auto& entry : fs::directory_iterator(configDir())) {
        if (entry.path().extension() != ".yaml") continue;
        std::ifstream in(entry.path());
        std::string line;
        for (int number = 1; std::getline(in, line); ++number) {
            if (!std::regex_match(line, leafValue) || std::regex_search(line, structural)) continue;
            ++checked;
            EXPECT_NE(line.find('#'), std::string::npos)
                << entry.path().filename().string() << ":" << number << " has no source: " << line;
        }
    }
    EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace ascendsim
