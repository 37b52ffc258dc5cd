// Long tier: the cube families of the grade-A real samples stay where the cube mechanisms of
// docs/fidelity.md "Mechanisms" §6 put them (a converting FixPipe hidden behind the cube,
// operands already in a fractal layout loaded without ND2NZ, a broadcast batch folded into M, the
// filter gradient's batch split over the cores).
// Bounds = the numbers measured at the commit that added this test plus a margin; the samples
// live outside the repository ($ASCENDSIM_REAL_PROFILES, else /work/shared/reference/
// real-profiles) and the test skips without them.
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

// Replays a sample and returns the statistics of one op family; the bounds below were measured
// cold (the default before docs/fidelity.md §94) unless a test names the L2 state.
FidelityStats familyStats(const std::string& sample, const std::string& family,
                          const std::string& l2 = "cold") {
    ReplayOptions options;
    options.profileDir = (samplesRoot() / sample).string();
    options.configDir = defaultConfigDir();
    options.l2 = l2;
    PreparedReplay prepared = prepareReplay(options);
    runReplay(prepared, prepared.chip, false);
    return fidelityStats(fidelityInputs(prepared.report.kernels, family));
}

// Qwen3 rank 0 (the fitted set): the bf16 GEMMs' FixPipe ratio follows the hardware (0.294 off
// before the store overlapped the cube at its fitted conversion rate; measured 0.119) and the
// family geomean stays within 0.9-1.1 (measured 0.984). With K chunks as deep as L1 holds exactly
// (docs/fidelity.md "Mechanisms" §6) the family median is 7.7 % (12.2 % with 384-deep chunks).
TEST(ReplayCubeFidelity, QwenGemmsOverlapTheirConvertingFixPipe) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats s = familyStats("msinsight/ef63bc64/test/st/level2/rank_0_ascend_pt", "MatMul");
    ASSERT_GE(s.kernels, 10u);
    EXPECT_LE(s.meanAbsPipeError.at("aic_fixpipe_ratio"), 0.15);
    EXPECT_LE(s.meanAbsPipeError.at("aic_mte1_ratio"), 0.13);
    EXPECT_GE(s.geomeanRatio, 0.90);
    EXPECT_LE(s.geomeanRatio, 1.10);
    EXPECT_LE(s.medianAbsError, 0.10);
    // A resident only as a full load: the K = 1024 GEMMs reload A per tile as their MTE2 time
    // shows (family error 0.122; 0.159 with one m-tile's A resident).
    EXPECT_LE(s.meanAbsPipeError.at("aic_mte2_ratio"), 0.14);
}

// 910A (held out): its FRACTAL_NZ GEMMs and the AdaptiveAvgPool BatchMatMul (8192 products with a
// broadcast B) were 2.57x too slow as a family; measured 1.37 after the mechanisms. Session 15
// (fidmm, FRACTAL_NZ operands and C addressed as NZ in GM, docs/fidelity.md §50): median abs
// error 86.4 -> 57.6 %, geomean 1.406 -> 1.325 (MatMul68 2.57 -> 1.34x) -> bounds 0.60 / 1.35.
// Session 18 (fidmm6, docs/fidelity.md §67: a batched GEMM of one-chunk tiles keeps several
// batches' loads in flight): 55.4 -> 50.1 %, geomean 1.054 -> 1.001 (the grad BatchMatMuls 1.48 /
// 1.63 -> 1.06 / 1.21x) -> bounds 0.52 / 1.10.
// Session 22 (fid910amm, docs/fidelity.md §100: the fused BatchMatMul + Mul's shared operand
// reloaded every batch and queued on its line, TBE's batch loop with posted stores): median 49.9 ->
// 41.2 %, geomean 1.014 -> 1.346 -> bounds 0.43 / 1.36. The geomean bound is loosened: it stood near
// 1.0 only because the fused row (0.043x) and the forward LeftBatchMatMulV2 (0.474x) offset the
// M = 32 GEMMs' 1.3-2.4x; with both rows now at 0.93 / 0.99x it is those GEMMs' memory-side excess
// (§100a: the L2 state of a freshly written weight and the write rates), which no cube change owns.
// Session 28 (fidalexmm6, docs/fidelity.md §137: TBE's BL1 full load, a block's B read once into L1
// ahead of its stores): median 41.9 -> 43.1 % (this cold replay; the default timeline's family is
// unchanged at 25.4 %) -> bound 0.43 -> 0.44, loosened for the lead's agreement: the weight
// gradient [4096, 9216]'s 1.373 -> 1.395x crosses the median; its MTE2 busy comes right (0.244 ->
// 0.065, real 0.162) and the three store-bound weight gradients pay the full load's wait before
// their stores (the store rate is the memory side's, §132e).
TEST(ReplayCubeFidelity, Ascend910NzGemmsAndFoldedBatches) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats s = familyStats("msinsight/c1e639ee/test/data/pytorch/text/level1/rank0_ascend_pt", "MatMul");
    ASSERT_GE(s.kernels, 10u);
    EXPECT_LE(s.geomeanRatio, 1.36);
    EXPECT_LE(s.medianAbsError, 0.44);
}

// Convolutions read NC1HWC0 / FRACTAL_Z operands and the filter gradient splits the batch over the
// cores and a strided img2col pays for its sparse L1 reads: AlexNet 910B2 Conv family median abs
// error 23.5 % -> 17.5 %, 910A 41.9 % -> 21.2 % (held out). The AlexNet bound was 0.20 until
// session 14: the 910B2's per-core cold-read limit (docs/fidelity.md §41, session 13) took its Conv
// family 18.8 -> 22.4 % while it took the whole set 28.3 -> 23.6 %, and §45's L1 turns 22.4 ->
// 22.9 %; the bound is now measured + 0.01, and the Conv rows' cold reads are open in §41.
// Session 17 (fidmm5, docs/fidelity.md §59: a whole output plane per position tile when the
// weights stream, the filter gradient's dy rows resident across column tiles): 22.9 -> 8.6 %, mean
// abs aic_mac error 0.120 -> 0.054, aic_mte2 0.400 -> 0.315 -> bounds 0.10 / 0.07 / 0.33.
// Session 17 (fidconv, docs/fidelity.md §63: the 910A forward convs' per-image schedule, weights
// GM->L0A and the img2col shared by an image's co-tiles): 910A rank0 Conv 21.6 -> 18.4 %, mean abs
// mte1_ratio error 0.194 -> 0.131, mte2_ratio 0.200 -> 0.164 -> bounds 0.20 / 0.15 / 0.18.
// Session 19 (fidalexcube, docs/fidelity.md §77: the fp32 input gradient's weights by a gathering
// transposing Load3Dv2, 256-position base blocks): AlexNet Conv 9.1 -> 7.3 %, mean abs aic_mte1
// error 0.211 -> 0.128, aic_mte2 0.314 -> 0.223, aic_mac 0.054 -> 0.0699 -> bounds mte1 0.14, mte2 0.24.
// Session 20 (fidalexfam, docs/fidelity.md §86: the 220x filter gradient's L0 steps fill an L0
// half): Conv 7.3 -> 7.1 %, mean abs aic_scalar error 0.201 -> 0.157 (new bound 0.17), aic_mte1
// 0.128 -> 0.116; aic_mac 0.0699 -> 0.0716 and aic_mte2 0.223 -> 0.247 (the filter gradients run
// 7-14 % shorter on the same modelled MTE2 busy, which was already 1.1-1.5x real) -> bounds 0.075 / 0.25.
// Session 22 (fidconv, docs/fidelity.md §105: the 910A's dw reads whole C0 blocks of x per column
// tile, its column tile fills an L0B half): 910A rank0 Conv (cold) mean abs mte1_ratio error 0.125
// -> 0.109, mte2_ratio 0.161 -> 0.135 (median 13.7 % both) -> bounds 0.12 / 0.15.
// Session 24 (fidalexcube2, docs/fidelity.md §115: the dw's x img2col at L0B's write rate, the
// convolution gradients' stores without the unit flag): AlexNet Conv (cold) 7.1 -> 6.4 %, mean abs
// aic_mte1 error 0.116 -> 0.069, aic_fixpipe 0.140 -> 0.102 -> bounds mte1 0.08, fixpipe 0.11 (new).
// Session 25 (fidalexconv, docs/fidelity.md §122: the fp32 input gradient's weight load issued as
// one Load3Dv2 per C0 of the step, the forward's stores without the unit flag): AlexNet Conv (cold)
// mean abs aic_scalar error 0.161 -> 0.141, aic_fixpipe 0.102 -> 0.094 -> bounds 0.15 / 0.10.
// Session 26 (fidalexconv2, docs/fidelity.md §126: the forward's and input gradient's fp32 stores
// at FixPipe's channel-split rate): AlexNet Conv (cold) aic_fixpipe 0.094 -> 0.065 (bound 0.07);
// aic_mac 0.066 -> 0.080 (bound raised 0.075 -> 0.085: the cold forward 13 x 13 rows' MAC ratio
// falls under the real as their right-length store lengthens them, §126b/c), median 6.3 -> 8.4 %.
// Session 27 (fidalexconv3, docs/fidelity.md §131: the stem's sub-C0 chunks share one C0 band and
// stream their weights; the stem filter gradient's single x buffer): AlexNet Conv (cold) median
// 8.4 -> 7.4 %, aic_mte2 0.238 -> 0.215 (bound 0.25 -> 0.22); aic_mac 0.080 -> 0.094 and aic_mte1
// 0.068 -> 0.086 (bounds raised 0.085 -> 0.10 and 0.08 -> 0.09: the two stem rows' cold times go
// 0.770 -> 1.042 and 0.720 -> 1.175, toward and past the real, and their MAC / MTE1 busy, unchanged
// in cycles, spread over the longer time; under the default timeline both pipes improve, §131c).
// Session 27, round two (fidalexconv3, docs/fidelity.md §131g: the split cube's filter gradient runs
// its reduction image by image, dy resident across an image's column tiles, one atomic store per
// image and tile): AlexNet Conv (cold) aic_mte2 0.215 -> 0.185 (bound 0.22 -> 0.19), aic_mac 0.094 ->
// 0.087; aic_mte1 0.086 -> 0.091 (bound raised 0.09 -> 0.095: the 13 x 13 dw rows' cold times go
// 1.129 / 1.013 / 0.957 -> 1.170 / 1.045 / 0.988 with the per-image stores, their MTE1 busy, unchanged
// in cycles, spread over the longer time; under the default timeline MTE1 improves, 0.053 -> 0.049).
// Session 28 (fidalexdw, docs/fidelity.md §136: the split cube's dw shares whole output rows and
// keeps one L0C buffer; its AtomicAddrClean is measured as the MemSet row it is): AlexNet Conv
// (cold) aic_mte2 0.185 -> 0.172 (bound 0.19 -> 0.18); median 7.4 -> 9.5 %, aic_mac 0.087 -> 0.119,
// aic_mte1 0.091 -> 0.119, aic_scalar 0.139 -> 0.156 (bounds raised 0.10 -> 0.125, 0.095 -> 0.125,
// 0.15 -> 0.16, the lead's call: cold, the dw rows were already 0.99-1.23x and their per-image stores
// now wait for the single L0C, 1.18-1.28x, spreading the same MAC / MTE1 / scalar busy over more
// time; under the default timeline the dw rows come to 0.94-1.07x and aic_mac to 0.078, §136d).
// Session 28 (fidalexconvfwd, docs/fidelity.md §135: the split cube's fp32 forward holds the input
// band of every channel a position tile, streams its weights in two-step chunks and steps in C0
// blocks; the fp32 input gradient's dy loads serve two weight chunks): AlexNet Conv (timeline, the
// default) aic_mte2 0.173 -> 0.129 (new timeline bound 0.14), median 7.1 -> 7.2 %; cold aic_mte2
// 0.185 -> 0.165 (bound 0.19 -> 0.17), aic_scalar 0.139 -> 0.124 (bound 0.15 -> 0.13), but the cold
// median 7.4 -> 11.4 % and aic_mte1 0.091 -> 0.097 (bounds raised 0.10 -> 0.12 and 0.095 -> 0.10):
// read from HBM, the two-step weight chunks' loads leave their latency exposed and the 13 x 13
// forward rows go 1.05-1.08 -> 1.13-1.17x, where under the timeline (the rows' real L2 state) they
// hold.
// Session 28, round two (fidalexdw, docs/fidelity.md §136h: the split cube's dw in CANN's ORDER_N, x
// kept over the co tiles and dy read per column tile): AlexNet Conv (cold) aic_mte2 0.172 -> 0.228
// (bound raised 0.18 -> 0.23, the lead's call: cold, the dw rows' per-column-tile dy reads lift their
// MTE2 0.45 -> 0.70-0.82 of the time; under the default timeline the Conv family's aic_mte2 goes
// 0.200 -> 0.169 and the 13 x 13 dw rows' MTE2 0.23-0.25 -> 0.53-0.55, real 0.42-0.58);
// aic_mac 0.119 -> 0.123, aic_mte1 0.119 -> 0.115, aic_scalar 0.156 -> 0.150.
// Session 28, merged (§135 + §136 with round two together, measured on the merged tree): AlexNet
// Conv (timeline, the default) median 7.1 -> 7.3 %, aic_mac 0.106 -> 0.072, aic_mte2 0.173 -> 0.126
// (timeline bound 0.14), aic_scalar 0.161 -> 0.152, aic_mte1 0.050 -> 0.080; cold median 7.4 ->
// 13.3 % (bound 0.14), aic_mac 0.087 -> 0.134 (bound 0.135), aic_mte1 0.091 -> 0.121 (bound 0.13),
// aic_mte2 0.185 -> 0.208 (bound 0.22), aic_scalar 0.139 -> 0.135: each branch's cold cost (weight
// chunks' HBM latency exposed, per-image stores waiting on one L0C, dy read per column tile) adds
// up; the lead's call, since the real rows ran with their data in L2 — the timeline state.
// Session 29 (fidalexconvfwd2, docs/fidelity.md §142: the split cube's fp32 forward takes co tiles as
// wide as L0C holds and steps the one-C1 stem a kernel row of C0 blocks deep on 80-position tiles):
// AlexNet Conv (timeline, the default) median 7.3 -> 6.4 % (bound 0.08 -> 0.07), aic_mte2 0.126 ->
// 0.102 (bound 0.14 -> 0.11), aic_scalar 0.152 -> 0.127; cold aic_mte2 0.208 -> 0.192 (bound 0.22 ->
// 0.20), aic_scalar 0.135 -> 0.114 (bound 0.16 -> 0.12), but the cold median 13.4 -> 14.8 % (bound
// 0.14 -> 0.15), aic_mac 0.134 -> 0.136 (0.135 -> 0.14) and aic_mte1 0.121 -> 0.133 (0.13 -> 0.14),
// for the lead to accept: read from HBM, the stem's weights, now read once per 80-position tile,
// take it 1.10 -> 1.24x cold, where under the timeline (the rows' real L2 state) it goes 0.78 -> 0.955x.
// Session 30 (fidbp2, docs/fidelity.md §151: the split cube's fp32 dw on CANN's block split, each tile
// storing once after its block's images): cold median 14.8 -> 12.3 % (bound 0.15 -> 0.13), aic_mac
// 0.135 -> 0.118 (0.14 -> 0.12), aic_mte2 0.181 -> 0.170 (0.20 -> 0.18), aic_scalar 0.107 -> 0.092
// (0.12 -> 0.10); timeline median 6.3 -> 5.3 % (0.07 -> 0.06), aic_mte2 0.089 -> 0.078 (0.11 -> 0.08);
// but cold aic_mte1 0.134 -> 0.154 (bound 0.14 -> 0.16) and aic_fixpipe 0.058 -> 0.087 (0.07 -> 0.09),
// for the lead to accept: the model's Load3D into L0B has no start cost (the dw rows' MTE1 0.42-0.54
// against 0.59-0.68; the 27 x 27 row's one 192-row co tile no longer Load3Ds x twice), and each
// block's dw share is stored once at FixPipe's plain rate where the chip's FixPipe runs ~21 B/cycle.
// Session 30 §151g (pipes.mte1_load3d_start_cycles 42 on the dw's Load3Ds into L0B): cold median
// 12.3 -> 13.2 % (bound 0.13 -> 0.14), aic_mac 0.118 -> 0.123 (0.12 -> 0.13), both still under main's.
// Session 32 (§156 landed, docs/fidelity.md §156g: the fp32 forward's K stream in whole L0 steps, its
// weight reads at the shared-line rate, L0C-square position tiles): cold median -> 0.151 (bound 0.14 ->
// 0.16), aic_mac -> 0.132 (0.13 -> 0.14), aic_scalar -> 0.070, for the lead to accept: read from HBM
// the forward rows go 1.12-1.26x (the shared-line floor adds to HBM latency the chip's rows did not
// see), where under the timeline (the rows' real L2 state) they are 0.92-1.06x and AlexNet's
// aic_scalar falls 0.111 -> 0.095.
TEST(ReplayCubeFidelity, ConvolutionFamiliesWithoutNd2NzLoads) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats alexnet = familyStats("msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "Conv");
    ASSERT_GE(alexnet.kernels, 10u);
    EXPECT_LE(alexnet.medianAbsError, 0.16);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_mac_ratio"), 0.14);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_mte1_ratio"), 0.16);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_fixpipe_ratio"), 0.09);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_mte2_ratio"), 0.18);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_scalar_ratio"), 0.10);
    const FidelityStats alexnetTimeline =
        familyStats("msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "Conv", "timeline");
    EXPECT_LE(alexnetTimeline.medianAbsError, 0.06);
    EXPECT_LE(alexnetTimeline.meanAbsPipeError.at("aic_mte2_ratio"), 0.08);
    const FidelityStats a910 = familyStats("msinsight/c1e639ee/test/data/pytorch/text/level1/rank0_ascend_pt", "Conv");
    ASSERT_GE(a910.kernels, 10u);
    EXPECT_LE(a910.medianAbsError, 0.20);
    EXPECT_LE(a910.meanAbsPipeError.at("mte1_ratio"), 0.12);
    EXPECT_LE(a910.meanAbsPipeError.at("mte2_ratio"), 0.15);
}

// Session 21 (fidalexmm, docs/fidelity.md §97: the small-shape fp32 GEMMs load B into L0B one
// 16-column fractal column at a time): AlexNet 910B2 MatMul family mean abs aic_scalar error 0.341
// -> 0.255 (the M = 32 rows' scalar 0.41-0.49 of real -> 0.80-1.38), times unchanged (median 41.8 %:
// the family's cold error is the L2 state and the write path, §50, §67e) -> bounds 0.28 / 0.45.
TEST(ReplayCubeFidelity, AlexNetSkinnyFp32GemmsIssueTheirFractalColumnLoads) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats alexnet = familyStats("msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "MatMul");
    ASSERT_GE(alexnet.kernels, 9u);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_scalar_ratio"), 0.28);
    EXPECT_LE(alexnet.medianAbsError, 0.45);
}

// Session 25 (fidalexmm3, docs/fidelity.md §119: a one-m-tile fp32 GEMM runs CANN's legacy N split,
// and every core reads all of A at once, taking turns on its lines), default L2 state (timeline):
// AlexNet 910B2 MatMul family median abs error 30.8 -> 14.5 % (fc8 forward on its 21 blocks 1.48 ->
// 0.86x, dX fc6 0.87 -> 1.00x), mean abs aic_mte2 error 0.210 -> 0.175 (the held-weight dX GEMMs'
// MTE2 0.62 / 0.57 -> 0.96 / 0.83, real 0.91 / 0.74) -> bounds 0.17 / 0.19.
// Session 29 (fidalexmm7, docs/fidelity.md §141: TBE deals the one-step weight gradients out as its
// m_dim x n_dim core grid, each core loading its A rows and B columns once): the family's mean abs
// aic_mte2 error 0.128 -> 0.104 (dW fc7's MTE2 0.427 -> 0.155, real 0.085) -> bound 0.11.
TEST(ReplayCubeFidelity, AlexNetOneMTileGemmsSplitNAndShareTheirA) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats alexnet = familyStats(
        "msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "MatMul", "timeline");
    ASSERT_GE(alexnet.kernels, 9u);
    EXPECT_LE(alexnet.medianAbsError, 0.17);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_mte2_ratio"), 0.11);
}

// Session 26 (fidalexmm4, docs/fidelity.md §125: TBE's GEMM kernel — the MatMulV2 rows and the
// small-shape fp32 GEMMs — stores after the cube on a plain event), default L2 state (timeline):
// AlexNet 910B2 MatMul family mean abs aic_fixpipe error 0.114 -> 0.057 (fc8 forward 0.212 -> 0.001,
// real 0.007; dW fc8 0.732 -> 0.329, real 0.299), times unchanged -> bound 0.07 (new).
// Session 26 (fidalexmte1, docs/fidelity.md §130: the same kernel's fractal-column B loads are each
// an MTE1 load, paying the L1 -> L0B curve's fixed cost): mean abs aic_mte1 error 0.099 -> 0.073
// (the K-deep M = 32 rows' MTE1 busy 0.58-0.72 -> 0.75-0.82 of real), median 14.5 % unchanged ->
// bound 0.08 (new).
TEST(ReplayCubeFidelity, AlexNetTbeGemmsStoreAfterTheCube) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats alexnet = familyStats(
        "msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "MatMul", "timeline");
    ASSERT_GE(alexnet.kernels, 9u);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_fixpipe_ratio"), 0.07);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_mte1_ratio"), 0.08);
}

// Session 27 (fidalexmm5, docs/fidelity.md §132: TBE's kernel in CANN's unaligned pattern moves each
// operand fractal L1 -> L0 by itself): the two unaligned MatMulV2 rows (fc8 forward, N = 1000: 0.855 ->
// 0.971; its weight gradient, M = 1000: 0.691 -> 0.949) take the MatMul family's median abs error
// 14.5 % -> 11.8 %, within +-20 % 55.6 -> 66.7 %, mean abs aic_scalar error 0.208 -> 0.150 (fc8's
// 0.109 -> 0.819, real 0.891) -> bounds 0.13 and 0.17 (new).
// Session 31 (fidmmscalar2, docs/fidelity.md §158: only the operands with a ragged edge or on TBE's
// img2col path move by fractals, and the unaligned kernel runs its tiles one after another): dW fc8's
// scalar 0.758 -> 0.368 (real 0.373), its time 0.908 -> 0.843x, so it becomes the family's middle row:
// mean abs aic_scalar 0.152 -> 0.110 (bound 0.17 -> 0.12), median 12.5 -> 13.5 % (bound 0.13 -> 0.14).
TEST(ReplayCubeFidelity, AlexNetUnalignedTbeGemmsMoveEachFractal) {
    if (!fs::is_directory(samplesRoot())) GTEST_SKIP() << "no real samples at " << samplesRoot();
    const FidelityStats alexnet = familyStats(
        "msinsight/e5a31957/test/data/pytorch/text/level2/rank0_ascend_pt", "MatMul", "timeline");
    ASSERT_GE(alexnet.kernels, 9u);
    EXPECT_LE(alexnet.medianAbsError, 0.14);
    EXPECT_LE(alexnet.meanAbsPipeError.at("aic_scalar_ratio"), 0.12);
}

}  // namespace
}  // namespace ascendsim
