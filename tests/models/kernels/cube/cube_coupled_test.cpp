// Cube kernels on a coupled chip (910/310P: hardware.md §2.1–§2.3) write their output through UB:
// L0C→UB on the vector pipe (with the fp32→fp16 conversion and the bias add), then UB→GM on MTE3,
// never a FixPipe move. The programs run on the FunctionalMachine with hazard checking (flags order
// every cross-pipe access) and match naive references; split-chip programs keep their FixPipe path.
#include <gtest/gtest.h>

#include <map>

#include "tests/models/kernels/cube_conv_reference.h"
#include "tests/models/kernels/cube_test_support.h"
#include "tests/models/kernels/test_chip.h"

namespace ascendsim::test {
namespace {

// Data moves of block 0 by path ("L0C->UB") and the pipe each executes on.
struct PathUse {
    std::uint64_t count = 0;
    Pipe pipe = Pipe::All;
};
std::map<std::string, PathUse> movesByPath(const LoweredKernel& kernel, CoreKind kind) {
    std::map<std::string, PathUse> paths;
    auto stream = kernel.program(BlockProgramRequest{0, kind, 0, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (instruction.opcode != Opcode::DataMove) continue;
            const auto& move = std::get<DataMove>(instruction.operands);
            auto& use = paths[std::string(memSpaceName(move.src)) + "->" + std::string(memSpaceName(move.dst))];
            ++use.count;
            use.pipe = instruction.pipe;
        }
        chunk.clear();
    }
    return paths;
}

std::vector<double> referenceMatmul(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>* bias,
                                    std::int64_t m, std::int64_t k, std::int64_t n) {
    std::vector<double> y(static_cast<std::size_t>(m * n));
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            double acc = bias ? (*bias)[static_cast<std::size_t>(j)] : 0.0;
            for (std::int64_t p = 0; p < k; ++p)
                acc += double(a[static_cast<std::size_t>(i * k + p)]) * b[static_cast<std::size_t>(p * n + j)];
            y[static_cast<std::size_t>(i * n + j)] = acc;
        }
    return y;
}

struct CoupledMatmulCase {
    std::int64_t m, k, n;
    bool bias;
    DataType biasType, outType;
    std::optional<std::uint32_t> blockDim;
};

void runCoupledMatmul(const CoupledMatmulCase& c) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    auto a = h.tensor("a", {c.m, c.k}, DataType::Fp16);
    auto b = h.tensor("b", {c.k, c.n}, DataType::Fp16);
    auto y = h.tensor("y", {c.m, c.n}, c.outType);
    const auto av = h.fillRandom(a), bv = h.fillRandom(b);
    std::vector<TensorInfo> inputs{a, b};
    std::vector<float> biasValues;
    if (c.bias) {
        auto bias = h.tensor("bias", {c.n}, c.biasType);
        biasValues = h.fillRandom(bias, -4.0f, 4.0f);
        inputs.push_back(bias);
    }
    h.fill(y, 4321.0f);  // every output element must be overwritten
    auto op = makeOp("MatMul", inputs, {y});
    op.blockDim = c.blockDim;
    h.run(op);
    const std::string what = "coupled MatMul " + std::to_string(c.m) + "x" + std::to_string(c.k) + "x" +
                             std::to_string(c.n) + (c.bias ? " bias " + std::string(dataTypeName(c.biasType)) : "") +
                             " -> " + std::string(dataTypeName(c.outType)) + " blockDim " +
                             (c.blockDim ? std::to_string(*c.blockDim) : "default");
    expectNear(h.read(y), referenceMatmul(av, bv, c.bias ? &biasValues : nullptr, c.m, c.k, c.n), 3e-2, 3e-3, what);
}

TEST(CubeCoupled, MatMulOutputGoesL0cToUbOnTheVectorPipeThenUbToGmOnMte3) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    auto op = makeOp("MatMul", {h.tensor("a", {256, 128}, DataType::Fp16), h.tensor("b", {128, 256}, DataType::Fp16)},
                     {h.tensor("y", {256, 256}, DataType::Fp16)});
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    auto paths = movesByPath(kernels[0], CoreKind::Coupled);
    EXPECT_EQ(paths.count("L0C->GM"), 0u);
    ASSERT_EQ(paths.count("L0C->UB"), 1u);
    ASSERT_EQ(paths.count("UB->GM"), 1u);
    EXPECT_EQ(paths["L0C->UB"].pipe, Pipe::Vector);
    EXPECT_EQ(paths["UB->GM"].pipe, Pipe::Mte3);
    EXPECT_EQ(paths["L0C->UB"].count, paths["UB->GM"].count);  // one staging round trip per tile
}

TEST(CubeCoupled, SplitChipKeepsTheFixPipeStore) {
    const auto chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("MatMul", {h.tensor("a", {256, 128}, DataType::Fp16), h.tensor("b", {128, 256}, DataType::Fp16),
                                h.tensor("bias", {256}, DataType::Fp16)},
                     {h.tensor("y", {256, 256}, DataType::Fp16)});
    auto paths = movesByPath(h.lower(op).at(0), CoreKind::Cube);
    ASSERT_EQ(paths.count("L0C->GM"), 1u);
    EXPECT_EQ(paths["L0C->GM"].pipe, Pipe::FixPipe);
    EXPECT_EQ(paths.count("L1->BT"), 1u);  // the bias still goes through the bias table
    EXPECT_EQ(paths.count("L0C->UB") + paths.count("UB->GM") + paths.count("GM->UB"), 0u);
}

TEST(CubeCoupled, MatMulMatchesReferenceForEveryBlockDim) {
    for (std::optional<std::uint32_t> blockDim : {std::optional<std::uint32_t>{1}, std::optional<std::uint32_t>{},
                                                  std::optional<std::uint32_t>{5}})
        runCoupledMatmul({200, 300, 260, false, DataType::Fp16, DataType::Fp16, blockDim});
}

TEST(CubeCoupled, MatMulBiasIsAddedInUbWithoutABiasTable) {
    runCoupledMatmul({130, 64, 200, true, DataType::Fp16, DataType::Fp16, std::nullopt});
    runCoupledMatmul({70, 96, 300, true, DataType::Fp16, DataType::Fp16, 1u});  // two tiles: both bias slots in flight
    runCoupledMatmul({150, 1100, 300, true, DataType::Fp16, DataType::Fp16, 1u});  // and K chunks preloaded across tiles
    auto chip = coupledChip();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::BiasTable)] = 0;  // real 910/310P configs have no BT
    CubeOpHarness h(chip);
    auto op = makeOp("MatMul", {h.tensor("a", {64, 64}, DataType::Fp16), h.tensor("b", {64, 64}, DataType::Fp16),
                                h.tensor("bias", {64}, DataType::Fp16)},
                     {h.tensor("y", {64, 64}, DataType::Fp16)});
    auto paths = movesByPath(h.lower(op).at(0), CoreKind::Coupled);
    EXPECT_EQ(paths.count("L1->BT"), 0u);
    EXPECT_EQ(paths["GM->UB"].count, 1u);
}

TEST(CubeCoupled, MatMulBiasOfAnotherDtypeIsCastBeforeTheAdd) {
    runCoupledMatmul({48, 32, 80, true, DataType::Fp16, DataType::Fp32, std::nullopt});
    runCoupledMatmul({48, 32, 80, true, DataType::Fp32, DataType::Fp16, std::nullopt});
}

TEST(CubeCoupled, Conv2DMatchesReferenceThroughUb) {
    const auto chip = coupledChip();
    const ConvShape s{2, 20, 12, 11, 24, 3, 3, 1, 1, 1, 1, 1, 1};
    for (DataType outType : {DataType::Fp16, DataType::Fp32}) {
        CubeOpHarness h(chip);
        auto x = h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16);
        auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16);
        auto y = h.tensor("y", {s.n, s.co, s.outH(), s.outW()}, outType);
        const auto xv = h.fillRandom(x), wv = h.fillRandom(w);
        h.fill(y, 777.0f);
        auto op = makeOp("Conv2D", {x, w}, {y});
        op.attrs["strides"] = std::vector<std::int64_t>{1, 1};
        op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
        op.blockDim = 3;
        h.run(op);
        const bool half = outType == DataType::Fp16;
        expectNear(h.read(y), referenceConv(s, xv, wv), half ? 2e-2 : 1e-3, half ? 2e-3 : 1e-4,
                   "coupled Conv2D -> " + std::string(dataTypeName(outType)));
    }
}

TEST(CubeCoupled, FilterGradSplitReductionAccumulatesWithUbToGmAtomicAdds) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    const ConvShape s{4, 16, 20, 20, 32, 3, 3, 1, 1, 1, 1, 1, 1};
    auto x = h.tensor("x", {s.n, s.c, s.h, s.w}, DataType::Fp16);
    auto dy = h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp16);
    auto dw = h.tensor("dw", {s.co, s.c, s.kh, s.kw}, DataType::Fp32);
    auto op = makeOp("Conv2DBackpropFilter", {x, dy}, {dw});
    op.attrs["strides"] = std::vector<std::int64_t>{1, 1};
    op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    op.attrs["filter_size"] = std::vector<std::int64_t>{s.co, s.c, s.kh, s.kw};
    const auto xv = h.fillRandom(x), dyv = h.fillRandom(dy);
    h.fill(dw, 555.0f);
    const auto kernels = h.run(op);
    ASSERT_EQ(kernels.size(), 2u);  // zero fill on the AI cores, then atomic accumulation
    EXPECT_EQ(kernels[0].type, TaskType::AiCore);
    expectNear(h.read(dw), referenceConvFilterGrad(s, xv, dyv), 2e-3, 1e-4, "coupled filter grad");
}

TEST(CubeCoupled, ConvInputGradMatchesReferenceThroughUb) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    const ConvShape s{2, 12, 9, 9, 20, 3, 3, 2, 2, 1, 1, 1, 1};
    auto dy = h.tensor("dy", {s.n, s.co, s.outH(), s.outW()}, DataType::Fp16);
    auto w = h.tensor("w", {s.co, s.c, s.kh, s.kw}, DataType::Fp16);
    auto dx = h.tensor("dx", {s.n, s.c, s.h, s.w}, DataType::Fp32);
    const auto dyv = h.fillRandom(dy), wv = h.fillRandom(w);
    h.fill(dx, 777.0f);
    auto op = makeOp("Conv2DBackpropInput", {dy, w}, {dx});
    op.attrs["strides"] = std::vector<std::int64_t>{2, 2};
    op.attrs["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    op.attrs["input_size"] = std::vector<std::int64_t>{s.n, s.c, s.h, s.w};
    h.run(op);
    expectNear(h.read(dx), referenceConvInputGrad(s, dyv, wv), 1e-3, 1e-4, "coupled input grad");
}

TEST(CubeCoupled, StagingThatDoesNotFitUbIsALoweringError) {
    auto chip = coupledChip();
    chip.bufferBytes[static_cast<std::size_t>(MemSpace::UB)] = 32 * 1024;  // < 2 slots of 128 x 128 fp16
    CubeOpHarness h(chip);
    auto op = makeOp("MatMul", {h.tensor("a", {256, 128}, DataType::Fp16), h.tensor("b", {128, 256}, DataType::Fp16)},
                     {h.tensor("y", {256, 256}, DataType::Fp16)});
    try {
        h.lower(op);
        FAIL() << "expected a LoweringError";
    } catch (const LoweringError& error) {
        EXPECT_NE(std::string(error.what()).find("UB"), std::string::npos) << error.what();
    }
}

TEST(CubeCoupled, FunctionalMachineRejectsAFixPipeMoveOnACoupledCore) {
    const auto chip = coupledChip();
    FunctionalMachine machine(chip, 1 << 20);
    KernelTask task;
    task.type = TaskType::AiCore;
    task.blockDim = 1;
    task.program = [](const BlockProgramRequest&) -> std::unique_ptr<InstructionStream> {
        class OneMove final : public InstructionStream {
        public:
            bool next(std::vector<Instruction>& out) override {
                if (done_) return false;
                DataMove move;
                move.src = MemSpace::L0C;
                move.dst = MemSpace::GM;
                move.burstBytes = 64;
                move.srcType = move.dstType = DataType::Fp32;
                out.push_back(Instruction::move(move));
                done_ = true;
                return true;
            }

        private:
            bool done_ = false;
        };
        return std::make_unique<OneMove>();
    };
    EXPECT_THROW(machine.runKernel(task), std::runtime_error);
}

TEST(CubeCoupled, AttentionIsALoweringErrorNamingTheOrganisation) {
    const auto chip = coupledChip();
    CubeOpHarness h(chip);
    auto op = makeOp("FlashAttentionScore", {h.tensor("q", {1, 2, 64, 64}, DataType::Fp16),
                                             h.tensor("k", {1, 2, 64, 64}, DataType::Fp16),
                                             h.tensor("v", {1, 2, 64, 64}, DataType::Fp16)},
                     {h.tensor("out", {1, 2, 64, 64}, DataType::Fp16)});
    try {
        h.lower(op);
        FAIL() << "expected a LoweringError";
    } catch (const LoweringError& error) {
        EXPECT_NE(std::string(error.what()).find("separate AIC/AIV"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace ascendsim::test
