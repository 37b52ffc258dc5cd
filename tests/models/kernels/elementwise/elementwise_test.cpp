// Binary arithmetic with broadcasting, activations, Cast and TensorMove, run on the
// FunctionalMachine against references computed here.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

#include "tests/models/kernels/vector_test_support.h"
#include "tests/support/sanitized_build.h"

namespace ascendsim::test {
namespace {

struct BinaryCase {
    std::string type;
    std::vector<std::int64_t> shape1, shape2, outShape;
    DataType dtype;
};

double applyBinary(const std::string& type, double a, double b) {
    if (type == "Add") return a + b;
    if (type == "Sub") return a - b;
    if (type == "Mul") return a * b;
    return a / b;
}

// Reference numpy broadcasting by index arithmetic.
std::size_t sourceIndex(const std::vector<std::int64_t>& outShape, const std::vector<std::int64_t>& shape,
                        std::size_t flat) {
    std::size_t index = 0, stride = 1;
    for (std::size_t k = shape.size(); k-- > 0;) {
        const std::size_t d = outShape.size() - shape.size() + k;
        std::size_t outStride = 1;
        for (std::size_t e = d + 1; e < outShape.size(); ++e) outStride *= static_cast<std::size_t>(outShape[e]);
        const std::size_t coordinate = flat / outStride % static_cast<std::size_t>(outShape[d]);
        if (shape[k] != 1) index += coordinate * stride;
        stride *= static_cast<std::size_t>(shape[k]);
    }
    return index;
}

void checkBinary(const BinaryCase& c, const ChipConfig& chip = ascend910B1()) {
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x1 = h.tensor("x1", c.shape1, c.dtype);
        const auto x2 = h.tensor("x2", c.shape2, c.dtype);
        const auto y = h.tensor("y", c.outShape, c.dtype);
        const bool divide = c.type == "RealDiv";
        const auto a = h.fillRandom(x1, isFloat(c.dtype) ? -4.0f : -60.0f, isFloat(c.dtype) ? 4.0f : 60.0f);
        const auto b = h.fillRandom(x2, divide ? 0.5f : -4.0f, divide ? 4.0f : 60.0f);
        auto op = makeOp(c.type, {x1, x2}, {y});
        op.blockDim = blockDim;
        const auto kernels = h.run(op);
        ASSERT_EQ(kernels.size(), 1u);
        if (blockDim) {
            EXPECT_EQ(kernels[0].blockDim, *blockDim);
        }
        std::vector<double> expected(static_cast<std::size_t>(y.elementCount()));
        for (std::size_t i = 0; i < expected.size(); ++i)
            expected[i] = roundToType(applyBinary(c.type, a[sourceIndex(c.outShape, c.shape1, i)],
                                                  b[sourceIndex(c.outShape, c.shape2, i)]),
                                      c.dtype);
        expectNear(h.read(y), expected, absoluteTolerance(c.dtype), relativeTolerance(c.dtype),
                   c.type + " " + std::string(dataTypeName(c.dtype)) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorElementwise, AddOfSameShapesMatchesForEveryBlockDim) {
    checkBinary({"Add", {3, 5000}, {3, 5000}, {3, 5000}, DataType::Fp16});
}

TEST(VectorElementwise, AddBroadcastsABiasRowOverLeadingDims) {
    checkBinary({"Add", {64, 300}, {300}, {64, 300}, DataType::Fp32});
}

TEST(VectorElementwise, MulBroadcastsPerChannelValuesAlongRows) {
    checkBinary({"Mul", {2, 6, 7, 7}, {1, 6, 1, 1}, {2, 6, 7, 7}, DataType::Fp16});
}

// 14x14 planes span several 256 B repeats, and a tile holds many planes: the per-channel value is
// applied one column of repeats at a time down the rows (repeat stride = row pitch).
TEST(VectorElementwise, PerChannelValuesOverMultiRepeatPlanesGoColumnByColumn) {
    checkBinary({"Mul", {2, 40, 14, 14}, {1, 40, 1, 1}, {2, 40, 14, 14}, DataType::Fp32});
    checkBinary({"Add", {3, 24, 14, 14}, {1, 24, 1, 1}, {3, 24, 14, 14}, DataType::Fp16});
}

// Qwen3's RoPE frequencies, Mul [4096,1] x [64] (docs/fidelity.md §43): every output row reads
// the same [64] row. It is read from GM once per tile and copied down the tile in UB (a Copy whose
// source repeat stride is 0), as CANN's broadcast keeps it in UB (the real row's MTE2 busy, 0.036,
// is that of one small read a block), not once per row; the products stay exact.
TEST(VectorElementwise, ARowEveryRowReadsAlikeIsReadOnceATileAndCopiedInUb) {
    checkBinary({"Mul", {4096, 1}, {64}, {4096, 64}, DataType::Fp32});
    const ChipConfig chip = ascend910B1();  // the harness keeps a reference: no temporary
    CubeOpHarness h(chip);
    const auto x1 = h.tensor("x1", {4096, 1}, DataType::Fp32);
    const auto x2 = h.tensor("x2", {64}, DataType::Fp32);
    const auto y = h.tensor("y", {4096, 64}, DataType::Fp32);
    const auto kernels = h.lower(makeOp("Mul", {x1, x2}, {y}));
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t rowReads = 0, tileStores = 0, rowCopies = 0;
    forEachBlockInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) {
        if (i.opcode == Opcode::DataMove) {
            const auto& m = std::get<DataMove>(i.operands);
            rowReads += m.src == MemSpace::GM && m.srcAddr >= x2.deviceAddr && m.srcAddr < x2.deviceAddr + x2.bytes();
            tileStores += m.dst == MemSpace::GM;
        }
        if (i.opcode == Opcode::Vector) {
            const auto& v = std::get<VectorInstr>(i.operands);
            rowCopies += v.op == VectorOp::Copy && v.src0RepeatStride == 0 && v.repeats > 1;
        }
    });
    EXPECT_GT(tileStores, 0u);
    EXPECT_EQ(rowReads, tileStores);  // one read of the row per tile (one store per tile)
    EXPECT_EQ(rowCopies, tileStores);  // 64 fp32 = one 256 B column, copied down the tile's rows
}

TEST(VectorElementwise, SubBroadcastsAOneElementTensor) {
    checkBinary({"Sub", {1000}, {1}, {1000}, DataType::Fp32});
}

// A tensor times (or plus) a one-element tensor: the element is the scalar operand of vmuls/vadds,
// read from UB (docs/fidelity.md §52d), on either side, in fp32 and in bf16's fp32 compute type;
// no binary vector instruction reads a broadcast block over the tensor.
TEST(VectorElementwise, OneElementOperandIsTheScalarOfTheScalarForm) {
    checkBinary({"Mul", {3, 1000}, {}, {3, 1000}, DataType::Fp32});
    checkBinary({"Add", {1}, {2, 700}, {2, 700}, DataType::Fp32});
    checkBinary({"Mul", {4, 300}, {1}, {4, 300}, DataType::Bf16});
    const ChipConfig chip = ascend910B1();  // the harness keeps a reference: no temporary
    CubeOpHarness h(chip);
    const auto x1 = h.tensor("x1", {4096, 64}, DataType::Fp32);
    const auto x2 = h.tensor("x2", {}, DataType::Fp32);
    const auto y = h.tensor("y", {4096, 64}, DataType::Fp32);
    const auto kernels = h.lower(makeOp("Mul", {x1, x2}, {y}));
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t scalarFormRepeats = 0, binaryMuls = 0;
    forEachBlockInstruction(kernels[0], CoreKind::Vector, [&](const Instruction& i) {
        if (i.opcode != Opcode::Vector) return;
        const auto& v = std::get<VectorInstr>(i.operands);
        if (v.op == VectorOp::Muls && v.scalarUbAddr != VectorInstr::kImmediateScalar) scalarFormRepeats += v.repeats;
        binaryMuls += v.op == VectorOp::Mul;
    });
    EXPECT_EQ(scalarFormRepeats, 4096u * 64u / 64u);  // every fp32 repeat of the output
    EXPECT_EQ(binaryMuls, 0u);
}

TEST(VectorElementwise, RealDivBroadcastsBothInputs) {
    checkBinary({"RealDiv", {4, 1, 5}, {3, 5}, {4, 3, 5}, DataType::Fp32});
    checkBinary({"RealDiv", {1, 3, 40}, {5, 1, 40}, {5, 3, 40}, DataType::Fp16});
}

TEST(VectorElementwise, Bf16AddComputesInFp32AndRoundsOnce) {
    checkBinary({"Add", {2, 777}, {2, 777}, {2, 777}, DataType::Bf16});
}

TEST(VectorElementwise, IntegerArithmeticIsExact) {
    checkBinary({"Mul", {5, 100}, {5, 100}, {5, 100}, DataType::Int32});
    checkBinary({"Add", {300}, {300}, {300}, DataType::Int8});  // saturates like the reference
}

// BERT's attention mask add ([B,heads,S,S] + [B,1,1,S]): many short rows whose per-row Gather
// table entries the first UB estimate leaves out; the tile must shrink until every buffer fits.
TEST(VectorElementwise, AttentionMaskBroadcastShrinksItsTileToFitUb) {
    checkBinary({"Add", {2, 4, 128, 128}, {2, 1, 1, 128}, {2, 4, 128, 128}, DataType::Fp16});
}

TEST(VectorElementwise, LongRowsAreSplitIntoChunksAcrossBlocks) {
    checkBinary({"Add", {2, 70000}, {70000}, {2, 70000}, DataType::Fp32});
}

using UnaryReference = double (*)(double);

void checkUnary(const std::string& type, DataType dtype, std::int64_t count, UnaryReference reference) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {count}, dtype);
        const auto y = h.tensor("y", {count}, dtype);
        const auto in = h.fillRandom(x, -6.0f, 6.0f);
        auto op = makeOp(type, {x}, {y});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) expected[i] = reference(in[i]);
        // Transcendental sequences round at every step: allow a few fp16 ulps more.
        expectNear(h.read(y), expected, 4 * absoluteTolerance(dtype), 4 * relativeTolerance(dtype),
                   type + " " + std::string(dataTypeName(dtype)) + ", " + blockDimName(blockDim));
    }
}

TEST(VectorActivation, ReluGeluSwishMatchTheirFormulas) {
    auto relu = [](double x) { return x > 0 ? x : 0.0; };
    auto gelu = [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); };
    auto swish = [](double x) { return x / (1 + std::exp(-x)); };
    checkUnary("Relu", DataType::Fp16, 40000, relu);
    checkUnary("Gelu", DataType::Fp32, 30001, gelu);
    checkUnary("Gelu", DataType::Fp16, 5000, gelu);
    checkUnary("Swish", DataType::Fp32, 9999, swish);
    checkUnary("Swish", DataType::Bf16, 2048, swish);
}

TEST(VectorActivation, ReluGradPassesGradientWhereInputIsPositive) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto dy = h.tensor("dy", {3, 4099}, DataType::Fp16);
        const auto x = h.tensor("x", {3, 4099}, DataType::Fp16);
        const auto dx = h.tensor("dx", {3, 4099}, DataType::Fp16);
        const auto g = h.fillRandom(dy, -3, 3);
        const auto in = h.fillRandom(x, -1, 1);
        auto op = makeOp("ReluGrad", {dy, x}, {dx});
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(g.size());
        for (std::size_t i = 0; i < g.size(); ++i) expected[i] = in[i] > 0 ? g[i] : 0.0;
        expectNear(h.read(dx), expected, 0, 0, "ReluGrad, " + blockDimName(blockDim));
    }
}

void checkCast(DataType from, DataType to, float lo, float hi) {
    const ChipConfig chip = ascend910B1();
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {7, 1001}, from);
        const auto y = h.tensor("y", {7, 1001}, to);
        const auto in = h.fillRandom(x, lo, hi);
        auto op = makeOp("Cast", {x}, {y});
        op.attrs["dst_type"] = std::string(dataTypeName(to));
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) expected[i] = roundToType(in[i], to);
        expectNear(h.read(y), expected, 0, 0,
                   "Cast " + std::string(dataTypeName(from)) + "->" + std::string(dataTypeName(to)));
    }
}

TEST(VectorCast, ConvertsBetweenEveryPairOfVectorDtypesExactlyAsRounded) {
    checkCast(DataType::Fp32, DataType::Fp16, -65000, 65000);  // the whole finite fp16 range
    checkCast(DataType::Fp16, DataType::Fp32, -100, 100);
    checkCast(DataType::Fp32, DataType::Bf16, -3, 3);
    checkCast(DataType::Bf16, DataType::Fp32, -3, 3);
    checkCast(DataType::Fp32, DataType::Int32, -1e6f, 1e6f);
    checkCast(DataType::Fp16, DataType::Int8, -300, 300);  // saturates
    checkCast(DataType::Int32, DataType::Fp32, -1000, 1000);
}

TEST(VectorCast, BoolIsConvertedAsItsUint8Byte) {
    checkCast(DataType::Bool, DataType::Fp32, 0, 1);  // the samples' mask → float casts
    checkCast(DataType::Bool, DataType::Fp16, 0, 1);
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {64}, DataType::Fp32), y = h.tensor("y", {64}, DataType::Bool);
    auto op = makeOp("Cast", {x}, {y});
    op.attrs["dst_type"] = std::string("bool");
    EXPECT_THROW(h.run(op), LoweringError);  // x != 0 → 1 is a compare, not a vconv: not modelled
}

TEST(VectorElementwise, TensorMoveCopiesEveryByte) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {123457}, DataType::Fp32);
    const auto y = h.tensor("y", {123457}, DataType::Fp32);
    const auto in = h.fillRandom(x);
    h.run(makeOp("TensorMove", {x}, {y}));
    EXPECT_EQ(h.read(y), in);
}

// A copy (TensorMove, Slice, ConcatD, Cast to its own dtype) is MTE2 then MTE3 on one UB buffer,
// as real profiles show it (vec ratio 0): no vector instruction, in bf16 as in fp32.
TEST(VectorElementwise, TensorMoveIsAMoveWithoutVectorInstructions) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {4096, 8, 128}, DataType::Bf16);
    const auto y = h.tensor("y", {4096, 8, 128}, DataType::Bf16);
    const auto in = h.fillRandom(x);
    const OpInstance op = makeOp("TensorMove", {x}, {y});
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t vectors = 0, loads = 0, stores = 0;
    auto stream = kernels[0].program({0, CoreKind::Vector, 0, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            vectors += instruction.opcode == Opcode::Vector ? 1 : 0;
            loads += instruction.pipe == Pipe::Mte2 && instruction.opcode == Opcode::DataMove ? 1 : 0;
            stores += instruction.pipe == Pipe::Mte3 && instruction.opcode == Opcode::DataMove ? 1 : 0;
        }
        chunk.clear();
    }
    EXPECT_EQ(vectors, 0u);
    EXPECT_GT(loads, 1u);
    EXPECT_EQ(loads, stores + 1);  // and the 32 B tiling read every block starts with
    h.run(op);
    EXPECT_EQ(h.read(y), in);
}

// The 910B's TensorMove loads a tile only once the tile before it is stored (one UB buffer): its
// real MTE2 and MTE3 busy add up to the kernel's time (Qwen3 [77791232] 0.555 + 0.444, AlexNet
// [4096,9216] 0.602 + 0.392; docs/fidelity.md §66). Every load but the first waits for MTE3's set
// of the one UB buffer; two buffers would let the second tile load while the first is stored.
TEST(VectorElementwise, TensorMoveLoadsATileOnceThePreviousOneIsStored) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {4096, 16, 128}, DataType::Bf16);
    const auto y = h.tensor("y", {4096, 16, 128}, DataType::Bf16);
    const auto kernels = h.lower(makeOp("TensorMove", {x}, {y}));
    ASSERT_EQ(kernels.size(), 1u);
    std::uint64_t loads = 0, loadsAfterTheirWait = 0;
    bool waitedForAStore = false;
    auto stream = kernels[0].program({0, CoreKind::Vector, 0, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& instruction : chunk) {
            if (instruction.opcode == Opcode::WaitFlag) {
                const Flag& flag = std::get<Flag>(instruction.operands);
                if (flag.src == Pipe::Mte3 && flag.dst == Pipe::Mte2) {
                    EXPECT_EQ(flag.eventId, 0u);  // one buffer, one event
                    waitedForAStore = true;
                }
            } else if (instruction.pipe == Pipe::Mte2 && instruction.opcode == Opcode::DataMove) {
                ++loads;
                loadsAfterTheirWait += waitedForAStore ? 1 : 0;
                waitedForAStore = false;
            }
        }
        chunk.clear();
    }
    ASSERT_GT(loads, 3u);
    EXPECT_EQ(loadsAfterTheirWait, loads - 2);  // all but the tiling read and the first tile
}

// CANN's TensorMove is a dynamic TIK kernel (tensor_move.py): every block, before any data move,
// moves its 32 B tiling record from the launch's workspace and waits for it on the scalar unit
// (docs/fidelity.md §90).
TEST(VectorElementwise, TensorMoveReadsItsTilingBeforeItsShare) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {256, 256, 3, 3}, DataType::Fp32);
    const auto y = h.tensor("y", {256, 256, 3, 3}, DataType::Fp32);
    auto op = makeOp("TensorMove", {x}, {y});
    op.blockDim = 48;
    const auto kernels = h.lower(op);
    ASSERT_EQ(kernels.size(), 1u);
    EXPECT_GE(kernels[0].workspaceBytes, 32u);
    constexpr std::uint64_t kWorkspace = 9ull << 20;
    for (const std::uint32_t block : {0u, 47u}) {
        auto stream = kernels[0].program({block, CoreKind::Vector, 0, kWorkspace});
        std::vector<Instruction> all, chunk;
        while (stream->next(chunk)) {
            all.insert(all.end(), chunk.begin(), chunk.end());
            chunk.clear();
        }
        std::size_t first = 0;
        while (first < all.size() && all[first].opcode != Opcode::DataMove) ++first;
        ASSERT_LT(first + 2, all.size());
        const auto& move = std::get<DataMove>(all[first].operands);
        EXPECT_EQ(move.srcAddr, kWorkspace) << "block " << block;
        EXPECT_EQ(move.totalBytes(), 32u);
        bool waited = false;
        for (std::size_t i = first + 1; i < all.size() && all[i].opcode != Opcode::DataMove; ++i)
            if (const auto* flag = std::get_if<Flag>(&all[i].operands))
                waited |= all[i].opcode == Opcode::WaitFlag && flag->src == Pipe::Mte2 && flag->dst == Pipe::Scalar;
        EXPECT_TRUE(waited) << "block " << block;
    }
}

TEST(VectorPlacement, SplitChipsRunOnVectorCoresAndCoupledChipsOnAiCores) {
    const auto shapeOp = [](CubeOpHarness& h, std::int64_t n) {
        return makeOp("Add", {h.tensor("a", {n}, DataType::Fp16), h.tensor("b", {n}, DataType::Fp16)},
                      {h.tensor("c", {n}, DataType::Fp16)});
    };
    const ChipConfig split = ascend910B1();
    CubeOpHarness h(split);
    const auto large = h.lower(shapeOp(h, 1 << 22));
    EXPECT_EQ(large[0].type, TaskType::AiVectorCore);
    EXPECT_EQ(large[0].blockDim, split.vectorCoreCount);
    EXPECT_EQ(h.lower(shapeOp(h, 64))[0].blockDim, 1u);  // a tiny tensor uses one block
    const ChipConfig coupled = coupledChip();
    CubeOpHarness hc(coupled);
    const auto onCoupled = hc.lower(shapeOp(hc, 1 << 22));
    EXPECT_EQ(onCoupled[0].type, TaskType::AiCore);
    EXPECT_EQ(onCoupled[0].blockDim, coupled.aiCoreCount);
    // And the coupled program computes the same thing.
    checkBinary({"Add", {3, 5000}, {5000}, {3, 5000}, DataType::Fp16}, coupled);
}

TEST(VectorLowering, BlockDimZeroOrBeyondTheLimitIsALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    auto op = makeOp("Relu", {h.tensor("x", {100}, DataType::Fp16)}, {h.tensor("y", {100}, DataType::Fp16)});
    op.blockDim = 0;
    EXPECT_THROW(h.lower(op), LoweringError);
    op.blockDim = 65536;
    EXPECT_THROW(h.lower(op), LoweringError);
    op.blockDim = 65535;
    EXPECT_NO_THROW(h.lower(op));
}

TEST(VectorLowering, ShapesThatDoNotBroadcastAreALoweringError) {
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const auto op = makeOp("Add", {h.tensor("a", {4, 3}, DataType::Fp16), h.tensor("b", {4}, DataType::Fp16)},
                           {h.tensor("c", {4, 3}, DataType::Fp16)});
    EXPECT_THROW(h.lower(op), LoweringError);
}

TEST(VectorLowering, AnActivationOfAResNetLayerLowersToEveryBlocksProgram) {
    // The generation speed (under a microsecond per instruction) is a bench figure:
    // kernel_instruction_census_bench prints it (docs/performance.md).
    const ChipConfig chip = ascend910B1();
    CubeOpHarness h(chip);
    const std::vector<std::int64_t> shape = {32, 256, 56, 56};  // a ResNet-50 activation
    const auto op = makeOp("Gelu", {h.tensor("x", shape, DataType::Fp16)}, {h.tensor("y", shape, DataType::Fp16)});
    const auto kernels = h.lower(op);
    std::uint64_t instructions = 0;
    for (std::uint32_t b = 0; b < kernels[0].blockDim; ++b) {
        const std::uint64_t blockInstructions = countProgram(kernels[0], {b, CoreKind::Vector, 0}).total;
        EXPECT_GT(blockInstructions, 0u) << "block " << b;
        instructions += blockInstructions;
    }
    EXPECT_GT(instructions, 1000u);
}

}  // namespace
}  // namespace ascendsim::test
