// ReduceSum/Mean/Max over trailing and middle axes, and the per-channel BN training reductions.
#include <gtest/gtest.h>

#include <cmath>
#include <variant>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

// Reference reduction of an [A, R, B] view.
std::vector<double> reduceReference(const std::vector<float>& x, std::size_t a, std::size_t r, std::size_t b,
                                    const std::string& type) {
    std::vector<double> out(a * b, type == "ReduceMax" ? -INFINITY : 0.0);
    for (std::size_t i = 0; i < a; ++i)
        for (std::size_t k = 0; k < r; ++k)
            for (std::size_t j = 0; j < b; ++j) {
                const double v = x[(i * r + k) * b + j];
                double& o = out[i * b + j];
                o = type == "ReduceMax" ? std::max(o, v) : o + v;
            }
    if (type == "ReduceMean")
        for (auto& o : out) o /= static_cast<double>(r);
    return out;
}

void checkReduce(const std::string& type, std::vector<std::int64_t> shape, std::vector<std::int64_t> axes,
                 std::size_t a, std::size_t r, std::size_t b, DataType dtype) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", shape, dtype);
        const auto y = h.tensor("y", {static_cast<std::int64_t>(a * b)}, dtype);
        const auto in = h.fillRandom(x, -2, 2);
        auto op = makeOp(type, {x}, {y});
        op.attrs["axes"] = axes;
        op.blockDim = blockDim;
        h.run(op);
        expectNear(h.read(y), roundedTo(dtype, reduceReference(in, a, r, b, type)), 1e-3,
                   dtype == DataType::Fp16 ? 4e-3 : 1e-5, type + ", " + blockDimName(blockDim));
    }
}

TEST(VectorReduce, TrailingAxesReduceEachRow) {
    checkReduce("ReduceSum", {6, 5, 300}, {-1}, 30, 300, 1, DataType::Fp32);
    checkReduce("ReduceMean", {8, 64, 7, 7}, {2, 3}, 512, 49, 1, DataType::Fp16);  // global average pool
    checkReduce("ReduceMax", {10, 2000}, {1}, 10, 2000, 1, DataType::Fp32);
}

// A sum or mean of every element on the 220x runs as CANN's MIX_AIV reduce (reduce_all.h, §61):
// each block writes a partial to the workspace and waits at an all-AIV barrier (mode 0), also at
// block dim 1, and block 0 alone reads the partials and stores y. Values over the block-dim sweep;
// the coupled chip (no mode-0 flags) keeps a row reduction without a barrier.
TEST(VectorReduce, EveryElementSummedMeetsAtAnAllCoreBarrierOnSplitChips) {
    checkReduce("ReduceSum", {4096}, {0}, 1, 4096, 1, DataType::Fp32);
    checkReduce("ReduceMean", {3, 1, 700}, {0, 2}, 1, 2100, 1, DataType::Fp16);
    for (const bool split : {true, false}) {
        const ChipConfig chip = split ? ascend910B1() : coupledChip();
        CubeOpHarness h(chip);
        auto op = makeOp("ReduceSum", {h.tensor("x", {160}, DataType::Fp32)}, {h.tensor("y", {1}, DataType::Fp32)});
        op.attrs["axes"] = std::vector<std::int64_t>{0};
        op.blockDim = 1;
        const auto kernels = h.lower(op);
        ASSERT_EQ(kernels.size(), 1u);
        auto stream = kernels[0].program({0, CoreKind::Vector, 0, 3ull << 20});
        std::vector<Instruction> all, chunk;
        while (stream->next(chunk)) all.insert(all.end(), chunk.begin(), chunk.end()), chunk.clear();
        std::size_t allCoreSets = 0, allCoreWaits = 0, stores = 0;
        for (const Instruction& instruction : all) {
            if (const auto* flag = std::get_if<CrossCoreFlag>(&instruction.operands); flag && flag->mode == 0)
                (instruction.opcode == Opcode::CrossCoreSet ? allCoreSets : allCoreWaits) += 1;
            if (const auto* move = std::get_if<DataMove>(&instruction.operands)) stores += move->dst == MemSpace::GM;
        }
        EXPECT_EQ(allCoreSets, split ? 1u : 0u);
        EXPECT_EQ(allCoreWaits, split ? 1u : 0u);
        EXPECT_EQ(stores, split ? 2u : 1u);  // the partial, then y
    }
}

TEST(VectorReduce, LeadingAndMiddleAxesFoldRowsOfColumns) {
    checkReduce("ReduceSum", {512, 768}, {0}, 1, 512, 768, DataType::Fp32);  // a bias gradient
    checkReduce("ReduceMean", {3, 40, 100}, {1}, 3, 40, 100, DataType::Fp32);
    checkReduce("ReduceMax", {4, 33, 20}, {1}, 4, 33, 20, DataType::Fp16);
    checkReduce("ReduceSum", {20000, 24}, {0}, 1, 20000, 24, DataType::Fp32);  // several tiles per chunk
    // The whole R fits in 500 columns of the 192 KiB UB: the chunk rounds down to 496, not up to 504.
    checkReduce("ReduceMax", {32, 1000}, {0}, 1, 32, 1000, DataType::Fp32);
}

// Reference of a reduction over any set of axes of a row-major x.
std::vector<double> reduceAxesReference(const std::vector<float>& x, const std::vector<std::int64_t>& shape,
                                        const std::vector<bool>& reduced, const std::string& type) {
    std::size_t outCount = 1, count = 1;
    for (std::size_t d = 0; d < shape.size(); ++d)
        (reduced[d] ? count : outCount) *= static_cast<std::size_t>(shape[d]);
    std::vector<double> out(outCount, type == "ReduceMax" ? -INFINITY : 0.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        std::size_t rest = i, o = 0, scale = 1;
        for (std::size_t d = shape.size(); d-- > 0;) {
            const auto extent = static_cast<std::size_t>(shape[d]);
            if (!reduced[d]) o += rest % extent * scale, scale *= extent;
            rest /= extent;
        }
        out[o] = type == "ReduceMax" ? std::max(out[o], double{x[i]}) : out[o] + x[i];
    }
    if (type == "ReduceMean")
        for (auto& o : out) o /= static_cast<double>(count);
    return out;
}

// [R1, A, R2] (e.g. a bias gradient over N and H·W) is one kernel without a workspace; other
// non-adjacent patterns run one pass per reduced run through the workspace.
TEST(VectorReduce, NonAdjacentAxesRunOneKernelForOuterAndInnerElseOnePassPerRun) {
    const ChipConfig chip = ascend910B1();
    struct Case {
        std::string type;
        std::vector<std::int64_t> shape, axes;
        std::size_t kernels;
    };
    for (const Case& c : std::vector<Case>{{"ReduceSum", {4, 5, 6}, {0, 2}, 1},
                                           {"ReduceMean", {3, 1, 8, 5, 70}, {0, 3}, 2},
                                           {"ReduceMax", {2, 3, 4, 5, 6}, {0, 2, 4}, 3},
                                           {"ReduceSum", {32, 16, 300}, {0, 2}, 1},
                                           {"ReduceMean", {6, 40, 128}, {0, 2}, 1},
                                           {"ReduceMax", {5, 7, 169}, {0, 2}, 1}}) {
        std::vector<bool> reduced(c.shape.size());
        std::int64_t outCount = 1;
        for (auto a : c.axes) reduced[static_cast<std::size_t>(a)] = true;
        for (std::size_t d = 0; d < c.shape.size(); ++d)
            if (!reduced[d]) outCount *= c.shape[d];
        for (const auto& blockDim : blockDimSweep()) {
            CubeOpHarness h(chip);
            const auto x = h.tensor("x", c.shape, DataType::Fp32);
            const auto y = h.tensor("y", {outCount}, DataType::Fp32);
            const auto in = h.fillRandom(x, -2, 2);
            auto op = makeOp(c.type, {x}, {y});
            op.attrs["axes"] = c.axes;
            op.blockDim = blockDim;
            const auto kernels = h.run(op);
            EXPECT_EQ(kernels.size(), c.kernels) << c.type;
            EXPECT_EQ(kernels.back().workspaceBytes > 0, c.kernels > 1) << c.type;
            expectNear(h.read(y), reduceAxesReference(in, c.shape, reduced, c.type), 1e-3, 1e-5,
                       c.type + ", " + blockDimName(blockDim));
        }
    }
}

// Block 0's program of ReduceSum [32, 8, 169] over axes 0 and 2 on one block of `chip`.
std::vector<Instruction> outerAndInnerSumProgram(const ChipConfig& chip) {
    CubeOpHarness h(chip);
    auto op = makeOp("ReduceSum", {h.tensor("x", {32, 8, 169}, DataType::Fp32)}, {h.tensor("y", {8}, DataType::Fp32)});
    op.attrs["axes"] = std::vector<std::int64_t>{0, 2};
    op.blockDim = 1;
    const auto kernels = h.lower(op);
    EXPECT_EQ(kernels.size(), 1u);
    auto stream = kernels[0].program(BlockProgramRequest{.blockIdx = 0});
    std::vector<Instruction> program, chunk;
    while (stream->next(chunk)) {
        program.insert(program.end(), chunk.begin(), chunk.end());
        chunk.clear();
    }
    return program;
}

TEST(VectorReduce, OuterAndInnerReductionWaitsForThePreviousFoldBeforeEachLoad) {
    // One buffer: every tile's loads but the first tile's wait for the vector pipe to release the
    // buffer, so a load never overlaps the fold of the previous one (the real kernels' serial pipe
    // ratios). The 910A stages one sample a tile; the 220x as many samples as the UB holds (§146).
    struct Loads {
        std::uint64_t loads = 0, tiles = 0, tilesAfterRelease = 0;
    };
    auto loadsOn = [](const ChipConfig& chip) {
        Loads counts;
        bool released = false, inTileLoads = false;
        for (const auto& instruction : outerAndInnerSumProgram(chip)) {
            if (instruction.opcode == Opcode::WaitFlag) {
                const auto& f = std::get<Flag>(instruction.operands);
                if (f.src == Pipe::Vector && f.dst == Pipe::Mte2) released = true;
            }
            const bool load = instruction.opcode == Opcode::DataMove &&
                              std::get<DataMove>(instruction.operands).src == MemSpace::GM;
            if (load) {
                ++counts.loads;
                if (!inTileLoads) {
                    ++counts.tiles;
                    if (released) ++counts.tilesAfterRelease;
                }
                released = false;
            }
            if (instruction.opcode != Opcode::Scalar) inTileLoads = load;
        }
        return counts;
    };
    const Loads coupled = loadsOn(coupledChip());
    EXPECT_EQ(coupled.loads, 32u);  // x[n, 0:8, :] for every n
    EXPECT_EQ(coupled.tiles, 32u);
    EXPECT_EQ(coupled.tilesAfterRelease, coupled.tiles - 1);
    const Loads split = loadsOn(ascend910B1());
    EXPECT_EQ(split.loads, 32u);
    EXPECT_LT(split.tiles, 32u);
    // The first tile's loads wait too: for the setup's zeroing of the padded stage.
    EXPECT_EQ(split.tilesAfterRelease, split.tiles);
}

// The 220x (docs/fidelity.md §146): every staged row of R2 is reduced by one vcadd to one
// partial a 256 B repeat, and the scalar unit takes the tile's partials after a V → S hand-off;
// the coupled 910A keeps the elementwise fold (no row partials, no hand-off).
TEST(VectorReduce, OuterAndInnerReductionOnTheSplitChipReducesEveryRowToPartialsForTheScalarUnit) {
    struct Counts {
        std::uint64_t rowReductions = 0, handOffs = 0, scalarCycles = 0;
    };
    auto countsOn = [](const ChipConfig& chip) {
        Counts counts;
        bool afterHandOff = false;
        for (const auto& instruction : outerAndInnerSumProgram(chip)) {
            if (instruction.opcode == Opcode::Vector) {
                const auto& v = std::get<VectorInstr>(instruction.operands);
                if (v.op == VectorOp::ReduceSum && v.repeats == 3 && v.mask == 64) ++counts.rowReductions;
            }
            if (instruction.opcode == Opcode::WaitFlag) {
                const auto& f = std::get<Flag>(instruction.operands);
                afterHandOff = f.src == Pipe::Vector && f.dst == Pipe::Scalar;
                if (afterHandOff) ++counts.handOffs;
                continue;
            }
            if (instruction.opcode == Opcode::Scalar && afterHandOff)
                counts.scalarCycles += std::get<ScalarWork>(instruction.operands).cycles;
            afterHandOff = false;
        }
        return counts;
    };
    const Counts split = countsOn(ascend910B1());
    EXPECT_EQ(split.rowReductions, 32u * 8u);  // ceil(169 / 64) = 3 repeats a row, every row of every sample
    EXPECT_GE(split.handOffs, 1u);
    EXPECT_EQ(split.scalarCycles, 32u * 8u * 3u * 6u);  // 6 cycles a partial (kScalarCyclesPerRowPartial)
    const Counts coupled = countsOn(coupledChip());
    EXPECT_EQ(coupled.rowReductions, 0u);
    EXPECT_EQ(coupled.handOffs, 0u);
}

void checkBnReduce(bool gradient, DataType dtype, std::int64_t n, std::int64_t c, std::int64_t hw) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {n, c, hw, 1}, dtype);
        const auto dy = h.tensor("dy", {n, c, hw, 1}, dtype);
        const auto mean = h.tensor("mean", {c}, DataType::Fp32), var = h.tensor("var", {c}, DataType::Fp32);
        const auto out0 = h.tensor("out0", {c}, DataType::Fp32), out1 = h.tensor("out1", {c}, DataType::Fp32);
        const auto xs = h.fillRandom(x, -2, 2), gs = h.fillRandom(dy, -1, 1);
        const auto ms = h.fillRandom(mean, -0.2f, 0.2f), vs = h.fillRandom(var, 0.5, 2);
        auto op = gradient ? makeOp("BNTrainingUpdateGrad", {dy, x, mean, var}, {out0, out1})
                           : makeOp("BNTrainingReduce", {x}, {out0, out1});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> e0(static_cast<std::size_t>(c)), e1(static_cast<std::size_t>(c));
        for (std::size_t i = 0; i < xs.size(); ++i) {
            const std::size_t ch = i / static_cast<std::size_t>(hw) % static_cast<std::size_t>(c);
            if (gradient) {
                e0[ch] += gs[i] * (xs[i] - ms[ch]) / std::sqrt(vs[ch] + 1e-5);
                e1[ch] += gs[i];
            } else {
                e0[ch] += xs[i];
                e1[ch] += double{xs[i]} * xs[i];
            }
        }
        const std::string what = std::string(gradient ? "BNTrainingUpdateGrad " : "BNTrainingReduce ") + blockDimName(blockDim);
        expectNear(h.read(out0), e0, 1e-3, 1e-4, what + " output 0");
        expectNear(h.read(out1), e1, 1e-3, 1e-4, what + " output 1");
    }
}

TEST(VectorReduce, BnTrainingReduceSumsAndSquaresPerChannel) {
    checkBnReduce(false, DataType::Fp16, 6, 10, 49);
    checkBnReduce(false, DataType::Fp32, 200, 3, 300);  // several tiles per channel: atomic adds
}

TEST(VectorReduce, BnTrainingUpdateGradGivesScaleAndOffsetGradients) {
    checkBnReduce(true, DataType::Fp32, 5, 12, 64);
    checkBnReduce(true, DataType::Fp16, 64, 4, 196);
}

// Planes bigger than UB (ResNet-50's 112×112 at fp16 needs ~250 KB with dy and fp32 copies):
// each plane is split into chunks whose fp32 partial sums accumulate; a partial last chunk.
TEST(VectorReduce, BnReductionsSplitPlanesThatDoNotFitInUb) {
    checkBnReduce(true, DataType::Fp16, 2, 3, 110 * 110);
    checkBnReduce(false, DataType::Fp32, 2, 2, 20000);
}

}  // namespace
}  // namespace ascendsim::test
