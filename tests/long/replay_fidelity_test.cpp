// Long tier: `replay` on every grade-A real sample set (reference/real-profiles README) fails
// when the simulator drifts further from hardware than it was when the bound was recorded. The
// samples live outside the repository: $ASCENDSIM_REAL_PROFILES, else /work/shared/reference/
// real-profiles; the test skips when neither exists. Bounds = the numbers measured at the commit
// that added this test (docs/fidelity.md "Baseline") plus about 5 points of margin; tighten them
// whenever the model improves.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "sim/config/chip_config_loader.h"
#include "sim/replay/replay_command.h"
#include "tests/long/real_samples_root.h"

namespace ascendsim {
namespace {

namespace fs = std::filesystem;

fs::path samplesRoot() { return realSamplesRoot(); }

// Replays a sample in the default (cold) L2 state and returns the statistics of all its kernels.
FidelityStats coldReplayStats(const char* sample) {
    ReplayOptions options;
    options.profileDir = (samplesRoot() / sample).string();
    options.configDir = defaultConfigDir();
    options.l2 = "cold";  // measured cold (q0's aiv_mte3 is 0.103 under the timeline, docs/fidelity.md §94)
    PreparedReplay prepared = prepareReplay(options);
    runReplay(prepared, prepared.chip, false);
    return fidelityStats(fidelityInputs(prepared.report.kernels));
}

struct SampleBound {
    const char* path;         // under the samples root
    const char* chip;         // the chip the replay must infer
    double maxMedianAbsError; // recorded median abs error + margin, in the default (timeline) L2 state
    double minCoverage;       // recorded share of compute-kernel time replayed − margin
    double maxColdMedianAbsError;  // the same under --l2 cold
};

// Recorded: median abs error 44.3 / 44.3 / 59.4 / 56.1 / 37.6 / 39.9 % (the AlexNet pair tightened in
// session 8 to 37.4 / 39.4 % measured at branch fidcnn, docs/fidelity.md §13); coverage as recorded
// after the CNN samples' op types were added (docs/fidelity.md, "Coverage of the CNN samples' op
// types"): 99.9 / 98.1 / 99.2 / 99.2 / 94.3 / 94.2 %, bound 5 points below. Tightened in session 8
// (docs/fidelity.md §10, §11): the Qwen3 rows to the measured 15.5 / 13.8 % + 5 points; the 910A
// rows (its own dispatch, latency and HBM fit, the transpose kernels) text rank0 31.4 %, 94.8 %;
// DB rank0 31.9 %, 94.7 %; text rank1 (held out) 31.8 %, 94.8 %. Session 9 (fid910a2, vnchwconv and
// LogSoftmax, docs/fidelity.md §20): text rank0 30.8 %, DB rank0 29.5 %, text rank1 30.6 %; (fidshort,
// cold instruction fetch and block stagger, docs/fidelity.md §21): AlexNet text 28.6 % -> bound 0.34;
// all merged (docs/fidelity.md "State at the end of session 9"): AlexNet DB 29.7 % -> bound 0.35.
// Session 10 (fidcover: Sort/TopK, the AI CPU dropout mask, Fill, long-row reductions, bool Cast,
// docs/fidelity.md "Coverage of every op type"): coverage 99.9 / 99.8 / 99.7 / 99.7 / 98.5 / 98.6 /
// 98.6 %, bound 1 point below (rounded down). Session 11 (fidsmall, the 910A's code fetch per launch,
// docs/fidelity.md §28): 910A text rank0 19.2 %, DB rank0 20.8 %, text rank1 20.4 % -> + 5 points.
// Session 11 merged (fidbank's read-only HBM efficiency, docs/fidelity.md §30): Qwen3 rank0 11.2 %,
// rank2 11.6 % -> bound 0.14 each. Session 12 (fidgm, one GM port per core's UB, docs/fidelity.md
// "One GM port per core's UB, taken in turns"): AlexNet text 28.8 % -> bound 0.32. Session 13
// (fidalexmm, the 910B2's per-core cold-read limit, docs/fidelity.md §41): AlexNet text 23.8 %,
// DB 24.4 % -> bounds 0.27 / 0.28. Session 16 (fidelem's 910A block stagger §56, fidcube4's TBE
// nd_2_nz / nz_2_nd and one-buffer forward convs §55, fidvec3's atomic ReduceSumD §54): 910A text
// rank0 16.4 %, DB rank0 18.0 %, text rank1 17.9 % -> bounds 0.19 / 0.21 / 0.21 (+ about 3 points).
// Session 17 (§58 launch-argument reads, §59 fp32 conv tiles, §61 TIK leading reads, §62 pooling
// barriers): AlexNet text 18.3 %, DB 16.3 % -> bounds 0.21 / 0.20; (§64, the 910A's MTE2 loads in
// flight) 910A text rank0 14.9 %, DB rank0 15.6 %, text rank1 15.9 % -> bounds 0.18 / 0.19 / 0.19.
// Session 18 (§67 the 910A's batched GEMM loads ahead, §70 its pooling gradient and write queue, §72
// its own UB -> GM curve): 910A text rank0 14.0 %, DB rank0 14.5 %, text rank1 14.7 % -> bounds
// 0.16 / 0.17 / 0.17. Session 19 (§74 padded bursts one by one on the 910B, §77 the fp32 input
// gradient's transposing weight loads): AlexNet text 16.9 %, DB 13.8 % -> bounds 0.19 / 0.16.
// Session 20 (§86 the 220x filter gradient's half-L0 steps, §90 CANN's MemSet chunks and TensorMove
// tiling read, §91 the Qwen3 chip's store acknowledgement): AlexNet text 15.6 %, DB 13.5 %, Qwen3
// rank 0 / 2 12.9 / 11.1 % -> AlexNet text bound 0.18 (+ about 2 points); the others unchanged.
// Session 35 (§175, TransData's binary per format pair, docs/fidelity.md): the two states get bounds
// of their own. Timeline 9.1 / 9.1 / 11.2 / 12.4 / 10.8 / 11.1 / 11.5 % -> + about 2.5 points; cold
// 13.1 / 11.7 / 17.6 / 17.9 / 13.5 / 15.8 / 14.9 % (AlexNet 16.4 / 15.5 before: cold already reads
// the chip's L2-held inputs from HBM, geomean 1.09, and the TransData rows now also fetch their code
// where the chip does) -> + about 2 points.
const SampleBound kSamples[] = {
    {"msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt", "Ascend910B4_1650", 0.12, 0.98, 0.15},
    {"msinsight/ef63bc64/test/st/level2/rank_2_ascend_pt", "Ascend910B4_1650", 0.12, 0.98, 0.14},
    {"msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "Ascend910B2", 0.14, 0.98, 0.20},
    {"msinsight/e5a31957/test/data/pytorch/db/level2/rank0_ascend_pt", "Ascend910B2", 0.15, 0.98, 0.20},
    {"msinsight/c1e639ee/test/data/pytorch/text/level1/rank0_ascend_pt", "Ascend910", 0.13, 0.97, 0.16},
    {"msinsight/c1e639ee/test/data/pytorch/db/level1/rank0_ascend_pt", "Ascend910", 0.14, 0.97, 0.18},
    {"msinsight/c1e639ee/test/data/pytorch/text/level1/rank1_ascend_pt", "Ascend910", 0.14, 0.97, 0.17},
};

// Session 21 (docs/fidelity.md §94): the timeline is the default L2 state; both it and cold meet
// these bounds (timeline 11.5 / 10.8 / 13.2 / 13.4 / 12.8 / 14.1 / 13.6 %, cold 12.9 / 11.1 / 15.6 /
// 13.5 / 13.8 / 14.5 / 14.5 % in kSamples' order), so the test replays each sample in both.
TEST(ReplayFidelity, GradeASamples_ErrorAndCoverageWithinRecordedBounds) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    for (const auto& [sample, l2] : [] {
             std::vector<std::pair<SampleBound, std::string>> runs;
             for (const auto& s : kSamples)
                 for (const char* state : {"timeline", "cold"}) runs.emplace_back(s, state);
             return runs;
         }()) {
        SCOPED_TRACE(sample.path + std::string(" --l2 ") + l2);
        ReplayOptions options;
        options.profileDir = (samplesRoot() / sample.path).string();
        options.configDir = defaultConfigDir();
        options.l2 = l2;
        PreparedReplay prepared = prepareReplay(options);
        EXPECT_EQ(prepared.report.chipName, sample.chip) << prepared.report.chipReason;
        runReplay(prepared, prepared.chip, false);
        const FidelityStats stats = fidelityStats(fidelityInputs(prepared.report.kernels));
        EXPECT_GT(stats.kernels, 40u);
        EXPECT_LE(stats.medianAbsError, l2 == "cold" ? sample.maxColdMedianAbsError : sample.maxMedianAbsError);
        EXPECT_GE(replayCoverage(prepared.report.kernels).share(), sample.minCoverage);
    }
}

// The Qwen3 sets' vector-side memory pipes (docs/fidelity.md §10): mean abs error of the MTE2 /
// MTE3 ratios measured 0.159 / 0.132 (rank 0) and 0.151 / 0.114 (rank 2) with HBM shared by
// processor sharing, against 0.184 / 0.198 and 0.167 / 0.184 before; bound = measured + 0.02.
// Session 10 (fidpipe, a vector queue that holds a tile, docs/fidelity.md §22): MTE3 0.113 / 0.092
// measured -> bounds 0.14 / 0.12; MTE2 0.150 / 0.155 within the old bounds. Session 11 (fidpipe2,
// FlashAttention's ND operands converted on their GM->L1 loads, docs/fidelity.md §27): the cube side's
// aic_mte2 0.147 -> 0.115 (rank 0), 0.170 -> 0.141 (rank 2) -> bounds 0.14 / 0.16. Session 12 (fidmm,
// CANN's 128x256 GEMM blocks with one L0C slot, docs/fidelity.md §34): aic_mte2 0.046 / 0.085 ->
// bounds 0.07 / 0.11. Session 13 (fidcube, MTE1 and MTE2 take turns on L1, docs/fidelity.md §38):
// aic_mte1 0.171 -> 0.083 (rank 0), 0.149 -> 0.084 (rank 2) -> bound 0.10 each. Session 18 (§66
// TensorMove's one buffer, §71 RmsNorm's one buffer): aiv_mte2 0.100 / 0.111, aiv_mte3 0.079 / 0.068
// -> bounds 0.12 / 0.13 and 0.10 / 0.09.
TEST(ReplayFidelity, QwenMemoryPipeRatiosWithinRecordedBounds) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const struct {
        const char* path;
        double maxMte2;
        double maxMte3;
        double maxAicMte2;
        double maxAicMte1;
    } kQwen[] = {{"msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt", 0.12, 0.10, 0.07, 0.10},
                 {"msinsight/ef63bc64/test/st/level2/rank_2_ascend_pt", 0.13, 0.09, 0.11, 0.10}};
    for (const auto& sample : kQwen) {
        SCOPED_TRACE(sample.path);
        const FidelityStats stats = coldReplayStats(sample.path);
        EXPECT_LE(stats.meanAbsPipeError.at("aiv_mte2_ratio"), sample.maxMte2);
        EXPECT_LE(stats.meanAbsPipeError.at("aiv_mte3_ratio"), sample.maxMte3);
        EXPECT_LE(stats.meanAbsPipeError.at("aic_mte2_ratio"), sample.maxAicMte2);
        EXPECT_LE(stats.meanAbsPipeError.at("aic_mte1_ratio"), sample.maxAicMte1);
    }
}

// The 910A's MTE2 ratio (docs/fidelity.md §134): with its counter's floor
// (pipes.block_mte2_floor_cycles 190) the mean abs error of the cold replay's mte2 ratios measured
// 0.096 (text rank 0) and 0.097 (text rank 1, held out), against 0.102 / 0.103 before -> bound 0.10.
// Session 28 (§139, the padded ND <-> FRACTAL_NZ as CANN's DSL tiles it: a block's share in one tile,
// `vor` block moves) measured 0.091 / 0.092 -> bound 0.095. Session 28 (§138's 910A GM -> UB rate,
// then §139h: the fp32 FRACTAL_Z <-> NCHW as CANN's vnchwconv loop, one pass) measured 0.086 / 0.087
// -> bound 0.09.
TEST(ReplayFidelity, The910AMte2RatioWithinRecordedBound) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    for (const char* path : {"msinsight/c1e639ee/test/data/pytorch/text/level1/rank0_ascend_pt",
                             "msinsight/c1e639ee/test/data/pytorch/text/level1/rank1_ascend_pt"}) {
        SCOPED_TRACE(path);
        EXPECT_LE(coldReplayStats(path).meanAbsPipeError.at("mte2_ratio"), 0.09);
    }
}

// The AlexNet 910B2 exports' vector-side scalar ratio (docs/fidelity.md §98): the TIK FRACTAL_Z
// TransData loop's scalar work in series with its moves, and the TIK Transpose's tiles in series,
// took the mean abs aiv_scalar error 0.115 -> 0.092 (text, fitted) and 0.119 -> 0.094 (DB, held
// out); bound = measured + about 0.015. Session 23 (§112, the fp32 NCHW ↔ NC1HWC0 TransData as
// CANN's DSL runs it: one vnchwconv pass, no Gather) took the mean abs aiv_vec error 0.120 -> 0.037
// (text and DB, cold; timeline 0.178 -> 0.036) -> bound 0.05. Session 26 (§127, the DSL
// MaxPoolGradWithArgmaxV1's col2img scalar loop and TransData's COMMON_ALIGN case) took aiv_scalar
// 0.083 -> 0.074 / 0.075 (text / DB, cold) -> bound 0.09. Session 26 (§129, a read of only the
// bytes a partial line's write put there is a hit, the 910B2's store acknowledgement on) took the
// mean abs aiv_mte3 error 0.085 -> 0.078 (text) and 0.083 -> 0.076 (DB), cold -> bound 0.09.
TEST(ReplayFidelity, AlexNetVectorCorePipeRatiosWithinRecordedBounds) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    for (const char* sample : {"msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt",
                               "msinsight/e5a31957/test/data/pytorch/db/level2/rank0_ascend_pt"}) {
        SCOPED_TRACE(sample);
        const FidelityStats stats = coldReplayStats(sample);
        EXPECT_LE(stats.meanAbsPipeError.at("aiv_scalar_ratio"), 0.09);
        EXPECT_LE(stats.meanAbsPipeError.at("aiv_vec_ratio"), 0.05);
        EXPECT_LE(stats.meanAbsPipeError.at("aiv_mte3_ratio"), 0.09);
    }
}

// Issue 10's pipe target in the default replay state (the timeline): every pipe's mean abs ratio
// error ≤ 0.08 on every grade-A sample. Session 34 (§173, §174: CANN's DSL PoolingWithArg and
// PoolingGradWithArg schedules for the fp32 MaxPool pair) took AlexNet aiv_mte2 0.0820 / 0.0826 →
// 0.0774 / 0.0780 (text / DB), the last vector-side pipe over the target. The one pipe still over is
// AlexNet's aic_scalar, 0.0915 / 0.0942: its remaining error needs a scalar-counter trace on the chip
// (docs/fidelity.md "State at the end of session 34"), so it is held at its measured value + 0.005
// instead of the target, to catch drift. Session 35 (§178, the eager write-back bounded by the dirty
// lines L2 holds: MatMulV3 dW fc6 1.38 → 0.88×) took it to 0.0877 / 0.0904 -> 0.0927 / 0.0954.
TEST(ReplayFidelity, DefaultStatePipeRatiosMeetTheIssueTarget) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    constexpr double kTarget = 0.08;
    for (const SampleBound& sample : kSamples) {
        SCOPED_TRACE(sample.path);
        ReplayOptions options;
        options.profileDir = (samplesRoot() / sample.path).string();
        options.configDir = defaultConfigDir();  // every other option at the command's default
        PreparedReplay prepared = prepareReplay(options);
        runReplay(prepared, prepared.chip, false);
        const FidelityStats stats = fidelityStats(fidelityInputs(prepared.report.kernels));
        const bool alexNet = std::string(sample.chip) == "Ascend910B2";
        const bool alexNetDb = alexNet && std::string(sample.path).find("/db/") != std::string::npos;
        for (const auto& [pipe, error] : stats.meanAbsPipeError) {
            SCOPED_TRACE(pipe);
            const double bound = alexNet && pipe == "aic_scalar_ratio" ? (alexNetDb ? 0.0954 : 0.0927) : kTarget;
            EXPECT_LE(error, bound);
        }
    }
}

// Issue 10's per-kernel targets on every other grade-A export `replay` can rebuild (the Level0
// exports record no op types; Qwen3 ranks 1 and 3 were cut down to DBs too large for the reference
// tree): the AlexNet run's other rank and exports, the 910A's DB rank 1. Session 35 (§175) measured,
// in kExtraSamples' order: median 11.9 / 11.2 / 12.1 / 10.5 / 11.1 / 11.2 / 9.4 %, geomean 0.955 /
// 0.952 / 0.960 / 0.961 / 0.957 / 0.953 / 0.986, within ±20 % 73.3 / 73.8 / 71.5 / 75.6 / 73.3 / 70.9 /
// 76.8 % — each inside the issue's targets, which are the bounds; every pipe ≤ 0.08 but AlexNet's
// aic_scalar (0.0912–0.0945, held at 0.0995 as in DefaultStatePipeRatiosMeetTheIssueTarget). With
// §176–§178 merged: median 11.8 / 11.1 / 12.0 / 10.5 / 11.2 / 11.2 / 9.6 %, geomean 0.942–0.975,
// within 75.0 / 75.6 / 73.8 / 76.7 / 73.8 / 72.1 / 77.6 %, aic_scalar 0.0874–0.0907 -> held at 0.0957.
TEST(ReplayFidelity, EveryOtherGradeAExportMeetsTheIssueTargets) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const char* const kExtraSamples[] = {
        "msinsight/e5a31957/test/data/pytorch/text/level2/rank1_ascend_pt",
        "msinsight/e5a31957/test/data/pytorch/text/level1/rank0_ascend_pt",
        "msinsight/e5a31957/test/data/pytorch/text/level1/rank1_ascend_pt",
        "msinsight/e5a31957/test/data/pytorch/db/level2/rank1_ascend_pt",
        "msinsight/e5a31957/test/data/pytorch/db/level1/rank0_ascend_pt",
        "msinsight/e5a31957/test/data/pytorch/db/level1/rank1_ascend_pt",
        "msinsight/c1e639ee/test/data/pytorch/db/level1/rank1_ascend_pt",
    };
    for (const char* path : kExtraSamples) {
        SCOPED_TRACE(path);
        ReplayOptions options;
        options.profileDir = (samplesRoot() / path).string();
        options.configDir = defaultConfigDir();  // every other option at the command's default
        PreparedReplay prepared = prepareReplay(options);
        runReplay(prepared, prepared.chip, false);
        const FidelityStats stats = fidelityStats(fidelityInputs(prepared.report.kernels));
        EXPECT_GT(stats.kernels, 100u);
        EXPECT_LE(stats.medianAbsError, 0.15);
        EXPECT_GE(stats.geomeanRatio, 0.9);
        EXPECT_LE(stats.geomeanRatio, 1.1);
        EXPECT_GE(stats.withinBandShare, 0.70);
        for (const auto& [pipe, error] : stats.meanAbsPipeError) {
            SCOPED_TRACE(pipe);
            EXPECT_LE(error, prepared.chip.name == "Ascend910B2" && pipe == "aic_scalar_ratio" ? 0.0957 : 0.08);
        }
    }
}

// `--l2 timeline` (docs/fidelity.md §23) on the fitted Qwen3 rank 0: all kernels 14.0 %, the
// TensorMoves whose input the kernel before wrote 36.2 % (254 % cold), Slice / ConcatD 13.0 %
// (45.7 % cold), measured at the commit that added the mode; bound = measured + ~1-4 points.
// Session 12 (fidgm: a core's loads and stores take turns on its UB's GM port, the Qwen3 part's L2
// at 5 x its own HBM; docs/fidelity.md "One GM port per core's UB, taken in turns"): TensorMove
// 25.6 % -> bound 0.28.
TEST(ReplayFidelity, QwenTimelineL2StateWithinRecordedBounds) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    ReplayOptions options;
    options.profileDir = (samplesRoot() / "msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt").string();
    options.configDir = defaultConfigDir();
    options.l2 = "timeline";
    PreparedReplay prepared = prepareReplay(options);
    runReplay(prepared, prepared.chip, false);
    EXPECT_LE(fidelityStats(fidelityInputs(prepared.report.kernels)).medianAbsError, 0.15);
    EXPECT_LE(fidelityStats(fidelityInputs(prepared.report.kernels, "TensorMove")).medianAbsError, 0.28);
    EXPECT_LE(fidelityStats(fidelityInputs(prepared.report.kernels, "Slice / ConcatD")).medianAbsError, 0.17);
}

}  // namespace
}  // namespace ascendsim
