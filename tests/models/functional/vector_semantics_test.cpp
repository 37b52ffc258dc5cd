#include "models/functional/vector_semantics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "models/functional/float_conversion.h"

namespace ascendsim {
namespace {

// A small UB with helpers to place and read dense element arrays.
struct Ub {
    std::vector<std::uint8_t> bytes = std::vector<std::uint8_t>(8192, 0);

    void write(std::uint64_t addr, DataType t, const std::vector<double>& values) {
        for (std::size_t i = 0; i < values.size(); ++i)
            storeElement(bytes.data() + addr + i * bytesOf(t), t, values[i]);
    }
    double at(std::uint64_t addr, DataType t, std::size_t i) const {
        return loadElement(bytes.data() + addr + i * bytesOf(t), t);
    }
    void run(const VectorInstr& v) { executeVectorInstruction(v, bytes); }
};

std::vector<double> ramp(std::size_t n, double start = 0.0, double step = 1.0) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<double>(i);
    return v;
}

TEST(VectorSemantics, AddCoversRepeatsTimesMaskElements) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(128));
    ub.write(1024, DataType::Fp32, ramp(128, 1000));
    ub.run({.op = VectorOp::Add, .dtype = DataType::Fp32, .dst = 2048, .src0 = 0, .src1 = 1024,
            .repeats = 2, .mask = 64});
    for (std::size_t i = 0; i < 128; ++i) EXPECT_EQ(ub.at(2048, DataType::Fp32, i), 1000.0 + 2.0 * i);
}

TEST(VectorSemantics, TailMaskLeavesTheRestOfTheRepeatUntouched) {
    Ub ub;
    ub.write(0, DataType::Fp16, ramp(128, 1));
    ub.write(512, DataType::Fp16, std::vector<double>(128, -7.0));
    ub.run({.op = VectorOp::Muls, .dtype = DataType::Fp16, .dst = 512, .src0 = 0, .mask = 37,
            .scalar = 2.0f});
    EXPECT_EQ(ub.at(512, DataType::Fp16, 36), 74.0);
    EXPECT_EQ(ub.at(512, DataType::Fp16, 37), -7.0);
}

TEST(VectorSemantics, BlockStrideSkipsBlocksAndRepeatStrideJumpsRepeats) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(512));
    // Read every other 32 B block (8 fp32), repeats 1024 B apart; write densely.
    ub.run({.op = VectorOp::Copy, .dtype = DataType::Fp32, .dst = 4096, .src0 = 0, .repeats = 2,
            .mask = 64, .src0BlockStride = 2, .src0RepeatStride = 32});
    EXPECT_EQ(ub.at(4096, DataType::Fp32, 7), 7.0);
    EXPECT_EQ(ub.at(4096, DataType::Fp32, 8), 16.0);   // block 1 read from block 2
    EXPECT_EQ(ub.at(4096, DataType::Fp32, 63), 7 * 16.0 + 7);
    EXPECT_EQ(ub.at(4096, DataType::Fp32, 64), 256.0);  // repeat 1 starts 32 blocks later
}

TEST(VectorSemantics, Fp16ResultsAreRoundedToHalfPrecision) {
    Ub ub;
    ub.write(0, DataType::Fp16, {2048.0});
    ub.write(64, DataType::Fp16, {1.0});
    ub.run({.op = VectorOp::Add, .dtype = DataType::Fp16, .dst = 128, .src0 = 0, .src1 = 64, .mask = 1});
    EXPECT_EQ(ub.at(128, DataType::Fp16, 0), 2048.0);  // 2049 is not an fp16: ties to even
}

TEST(VectorSemantics, Int32ArithmeticIsExact) {
    Ub ub;
    ub.write(0, DataType::Int32, {123456789, -5, 7});
    ub.write(256, DataType::Int32, {1, 3, 2});
    ub.run({.op = VectorOp::Add, .dtype = DataType::Int32, .dst = 512, .src0 = 0, .src1 = 256, .mask = 3});
    EXPECT_EQ(ub.at(512, DataType::Int32, 0), 123456790.0);
    ub.run({.op = VectorOp::Max, .dtype = DataType::Int32, .dst = 512, .src0 = 0, .src1 = 256, .mask = 3});
    EXPECT_EQ(ub.at(512, DataType::Int32, 1), 3.0);
}

TEST(VectorSemantics, BitwiseAndOrActOnRawBits) {
    Ub ub;
    ub.write(0, DataType::Int16, {0x0F0F, 0x00FF});
    ub.write(64, DataType::Int16, {0x00FF, 0x0F00});
    ub.run({.op = VectorOp::And, .dtype = DataType::Int16, .dst = 128, .src0 = 0, .src1 = 64, .mask = 2});
    EXPECT_EQ(ub.at(128, DataType::Int16, 0), 0x000F);
    ub.run({.op = VectorOp::Or, .dtype = DataType::Int16, .dst = 128, .src0 = 0, .src1 = 64, .mask = 2});
    EXPECT_EQ(ub.at(128, DataType::Int16, 1), 0x0FFF);
}

TEST(VectorSemantics, ScalarOperandOpsUseTheScalar) {
    Ub ub;
    ub.write(0, DataType::Fp32, {-2, 3});
    auto run = [&](VectorOp op, float s, std::size_t i) {
        ub.run({.op = op, .dtype = DataType::Fp32, .dst = 256, .src0 = 0, .mask = 2, .scalar = s});
        return ub.at(256, DataType::Fp32, i);
    };
    EXPECT_EQ(run(VectorOp::Adds, 1.5f, 0), -0.5);
    EXPECT_EQ(run(VectorOp::Maxs, 0.0f, 0), 0.0);
    EXPECT_EQ(run(VectorOp::Mins, 0.0f, 1), 0.0);
    EXPECT_EQ(run(VectorOp::LeakyRelu, 0.25f, 0), -0.5);
    EXPECT_EQ(run(VectorOp::Duplicate, 9.0f, 1), 9.0);
    EXPECT_EQ(run(VectorOp::Relu, 0.0f, 0), 0.0);
    EXPECT_EQ(run(VectorOp::Abs, 0.0f, 0), 2.0);
}

TEST(VectorSemantics, TranscendentalsMatchTheLibraryWithinFp32Rounding) {
    Ub ub;
    ub.write(0, DataType::Fp32, {0.5, 2.0, 9.0});
    auto run = [&](VectorOp op, std::size_t i) {
        ub.run({.op = op, .dtype = DataType::Fp32, .dst = 256, .src0 = 0, .mask = 3});
        return ub.at(256, DataType::Fp32, i);
    };
    EXPECT_FLOAT_EQ(run(VectorOp::Exp, 0), std::exp(0.5f));
    EXPECT_FLOAT_EQ(run(VectorOp::Ln, 1), std::log(2.0f));
    EXPECT_FLOAT_EQ(run(VectorOp::Sqrt, 2), 3.0f);
    EXPECT_FLOAT_EQ(run(VectorOp::Rsqrt, 2), 1.0f / 3.0f);
    EXPECT_FLOAT_EQ(run(VectorOp::Reciprocal, 1), 0.5f);
}

TEST(VectorSemantics, TranscendentalOnIntegersIsRejected) {
    Ub ub;
    EXPECT_THROW(ub.run({.op = VectorOp::Exp, .dtype = DataType::Int32, .mask = 8}), std::invalid_argument);
}

TEST(VectorSemantics, MulAddAccumulatesIntoTheDestination) {
    Ub ub;
    ub.write(0, DataType::Fp32, {2, 3});
    ub.write(64, DataType::Fp32, {4, 5});
    ub.write(128, DataType::Fp32, {1, 1});
    ub.run({.op = VectorOp::MulAdd, .dtype = DataType::Fp32, .dst = 128, .src0 = 0, .src1 = 64, .mask = 2});
    EXPECT_EQ(ub.at(128, DataType::Fp32, 0), 9.0);
    EXPECT_EQ(ub.at(128, DataType::Fp32, 1), 16.0);
}

TEST(VectorSemantics, CastConvertsBetweenWidthsWithTheWiderTypeSettingTheRepeat) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(128, 0.25, 0.5));
    // 64 fp32 per repeat → 64 fp16 per repeat (128 B) of the destination.
    ub.run({.op = VectorOp::Cast, .dtype = DataType::Fp16, .srcType = DataType::Fp32, .dst = 1024,
            .src0 = 0, .repeats = 2, .mask = 64, .dstRepeatStride = 4});
    EXPECT_EQ(ub.at(1024, DataType::Fp16, 127), 0.25 + 0.5 * 127);
    EXPECT_THROW(ub.run({.op = VectorOp::Cast, .dtype = DataType::Fp16, .srcType = DataType::Fp32,
                         .mask = 128}),
                 std::invalid_argument);
    ub.write(2048, DataType::Fp32, {300.7, -2.9});
    ub.run({.op = VectorOp::Cast, .dtype = DataType::Int8, .srcType = DataType::Fp32, .dst = 3072,
            .src0 = 2048, .mask = 2});
    EXPECT_EQ(ub.at(3072, DataType::Int8, 0), 127.0);
    EXPECT_EQ(ub.at(3072, DataType::Int8, 1), -2.0);
}

TEST(VectorSemantics, ReductionsWriteOneElementPerRepeatContiguously) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(192, -50));
    ub.run({.op = VectorOp::ReduceSum, .dtype = DataType::Fp32, .dst = 2048, .src0 = 0, .repeats = 3,
            .mask = 64});
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 0), 64 * -50.0 + 63 * 32);
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 2), 64 * 78.0 + 63 * 32);
    ub.run({.op = VectorOp::ReduceMax, .dtype = DataType::Fp32, .dst = 2048, .src0 = 0, .repeats = 3,
            .mask = 10});
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 1), 14 + 9);
    ub.run({.op = VectorOp::ReduceMin, .dtype = DataType::Fp32, .dst = 2048, .src0 = 0, .repeats = 3,
            .mask = 10});
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 2), 78.0);
}

TEST(VectorSemantics, GatherReadsByteOffsetsIntoTheSourceRegion) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(16, 100));
    const std::vector<std::uint32_t> offsets = {12, 0, 60};
    std::memcpy(ub.bytes.data() + 512, offsets.data(), offsets.size() * 4);
    ub.run({.op = VectorOp::Gather, .dtype = DataType::Fp32, .dst = 1024, .src0 = 0, .src1 = 512, .mask = 3});
    EXPECT_EQ(ub.at(1024, DataType::Fp32, 0), 103.0);
    EXPECT_EQ(ub.at(1024, DataType::Fp32, 1), 100.0);
    EXPECT_EQ(ub.at(1024, DataType::Fp32, 2), 115.0);
}

TEST(VectorSemantics, SortOrdersEachRepeatDescending) {
    Ub ub;
    ub.write(0, DataType::Fp32, {3, -1, 8, 2});
    ub.write(256, DataType::Fp32, {5, 9, 1, 0});
    ub.run({.op = VectorOp::Sort, .dtype = DataType::Fp32, .dst = 1024, .src0 = 0, .repeats = 2, .mask = 4});
    EXPECT_EQ(ub.at(1024, DataType::Fp32, 0), 8.0);
    EXPECT_EQ(ub.at(1024, DataType::Fp32, 3), -1.0);
    EXPECT_EQ(ub.at(1024 + 256, DataType::Fp32, 0), 9.0);
    EXPECT_EQ(ub.at(1024 + 256, DataType::Fp32, 3), 0.0);
}

TEST(VectorSemantics, CompareGtThenSelectPicksPerElement) {
    Ub ub;
    ub.write(0, DataType::Fp16, {1, 5, -2});
    ub.write(256, DataType::Fp16, {2, 4, -2});
    ub.run({.op = VectorOp::CompareGt, .dtype = DataType::Fp16, .dst = 512, .src0 = 0, .src1 = 256, .mask = 3});
    EXPECT_EQ(ub.at(512, DataType::Fp16, 0), 0.0);
    EXPECT_EQ(ub.at(512, DataType::Fp16, 1), 1.0);
    EXPECT_EQ(ub.at(512, DataType::Fp16, 2), 0.0);
    ub.run({.op = VectorOp::Select, .dtype = DataType::Fp16, .dst = 512, .src0 = 0, .src1 = 256, .mask = 3});
    EXPECT_EQ(ub.at(512, DataType::Fp16, 0), 2.0);
    EXPECT_EQ(ub.at(512, DataType::Fp16, 1), 5.0);
}

TEST(VectorSemantics, AccessBeyondUbThrowsOutOfRange) {
    Ub ub;
    EXPECT_THROW(ub.run({.op = VectorOp::Add, .dtype = DataType::Fp16, .dst = 8192 - 128, .repeats = 1,
                         .mask = 128}),
                 std::out_of_range);
    EXPECT_THROW(ub.run({.op = VectorOp::Copy, .dtype = DataType::Fp32, .dst = 0, .src0 = 0, .repeats = 255,
                         .mask = 64}),
                 std::out_of_range);
    EXPECT_THROW(ub.run({.op = VectorOp::Add, .dtype = DataType::Fp16, .mask = 129}), std::invalid_argument);
}

TEST(VectorSemantics, Bf16ArithmeticRoundsToBf16) {
    Ub ub;
    ub.write(0, DataType::Bf16, {1.0});
    ub.write(64, DataType::Bf16, {1.0 / 256});
    ub.run({.op = VectorOp::Add, .dtype = DataType::Bf16, .dst = 128, .src0 = 0, .src1 = 64, .mask = 1});
    EXPECT_EQ(ub.at(128, DataType::Bf16, 0), 1.0);  // 1 + 2^-8 is a tie → even
}

// vcgmax / vcgadd: one result per 32 B block, 8 per repeat, packed; a partial last block reduces
// only its active elements and blocks past the mask write nothing.
TEST(VectorSemantics, BlockReductionsWriteOneValuePerBlockPacked) {
    Ub ub;
    std::vector<double> x = ramp(128);
    x[13] = 500.0;  // block 1 of repeat 0
    ub.write(0, DataType::Fp32, x);
    ub.write(2048, DataType::Fp32, std::vector<double>(16, -1.0));
    ub.run({.op = VectorOp::BlockReduceMax, .dtype = DataType::Fp32, .dst = 2048, .src0 = 0, .repeats = 2, .mask = 64});
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 0), 7.0);
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 1), 500.0);
    EXPECT_EQ(ub.at(2048, DataType::Fp32, 15), 127.0);  // repeat 1's last block
    ub.write(1024, DataType::Fp32, ramp(64, 1.0));
    ub.write(3072, DataType::Fp32, std::vector<double>(8, -1.0));
    ub.run({.op = VectorOp::BlockReduceSum, .dtype = DataType::Fp32, .dst = 3072, .src0 = 1024, .mask = 12});
    EXPECT_EQ(ub.at(3072, DataType::Fp32, 0), 36.0);                // 1 + … + 8
    EXPECT_EQ(ub.at(3072, DataType::Fp32, 1), 9.0 + 10 + 11 + 12);  // the 4 active elements of block 1
    EXPECT_EQ(ub.at(3072, DataType::Fp32, 2), -1.0);                // block 2 has none: untouched
}

// vbrcb: element i of each repeat's 8 sources fills block i of the destination.
TEST(VectorSemantics, BlockBroadcastFillsOneBlockPerSourceElement) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(16, 10.0));
    ub.run({.op = VectorOp::BlockBroadcast, .dtype = DataType::Fp32, .dst = 1024, .src0 = 0, .repeats = 2, .mask = 64});
    for (std::size_t value = 0; value < 16; ++value)
        for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(ub.at(1024, DataType::Fp32, value * 8 + i), 10.0 + value);
}

// vnchwconv: 16 source rows a block stride apart become 16 destination rows; the second repeat
// moves the next 16 columns. Integers up to 2048 are exact in fp16.
TEST(VectorSemantics, NchwConvTransposesSixteenBySixteenBlocksPerRepeat) {
    Ub ub;
    const std::uint64_t rowElements = 48;  // 3 blocks per source row: 32 columns used, odd pitch
    ub.write(0, DataType::Fp16, ramp(16 * rowElements));
    ub.run({.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .dst = 2048, .src0 = 0, .repeats = 2,
            .dstBlockStride = 1, .src0BlockStride = 3, .dstRepeatStride = 16, .src0RepeatStride = 1});
    for (std::size_t column = 0; column < 32; ++column)       // destination row = source column
        for (std::size_t row = 0; row < 16; ++row)             // destination column = source row
            EXPECT_EQ(ub.at(2048, DataType::Fp16, column * 16 + row), static_cast<double>(row * rowElements + column))
                << column << "," << row;
}

// 16-bit with the second 8 source blocks listed apart (half stride): blocks 8–15 are read from
// there, the transpose is unchanged.
TEST(VectorSemantics, NchwConvReadsItsSecondEightBlocksAHalfStrideOn) {
    Ub ub;
    ub.write(0, DataType::Fp16, ramp(8 * 16));             // rows 0–7, one block each
    ub.write(2048, DataType::Fp16, ramp(8 * 16, 1000.0));  // rows 8–15
    VectorInstr v{.op = VectorOp::NchwConv, .dtype = DataType::Fp16, .dst = 4096, .src0 = 0, .dstBlockStride = 1,
                  .src0BlockStride = 1, .dstRepeatStride = 16, .src0RepeatStride = 1};
    v.src0HalfStride = 2048 / 32;
    ub.run(v);
    for (std::size_t column = 0; column < 16; ++column)
        for (std::size_t row = 0; row < 16; ++row)
            EXPECT_EQ(ub.at(4096, DataType::Fp16, column * 16 + row),
                      row < 8 ? static_cast<double>(row * 16 + column) : 1000.0 + static_cast<double>((row - 8) * 16 + column))
                << column << "," << row;
}

// 32-bit (TransDataTo5HD's float rule): loop j takes element j of the 16 source blocks and writes
// sources 0–7 as destination block 2·j and 8–15 as 2·j + 1; the pairs are listed j·dstBlockStride
// apart with the pair's second block dstHalfStride on. Here 16 source rows of 8 fp32 become 8
// destination pairs, pair j at 4·j blocks, its second block 2 blocks on.
TEST(VectorSemantics, NchwConvOfThirtyTwoBitElementsWritesEachColumnAsTwoBlocks) {
    Ub ub;
    ub.write(0, DataType::Fp32, ramp(16 * 8));
    ub.write(4096, DataType::Fp32, std::vector<double>(8 * 32, -1.0));
    VectorInstr v{.op = VectorOp::NchwConv, .dtype = DataType::Fp32, .dst = 4096, .src0 = 0, .dstBlockStride = 4,
                  .src0BlockStride = 1, .dstRepeatStride = 32, .src0RepeatStride = 16};
    v.dstHalfStride = 2;
    ub.run(v);
    for (std::size_t j = 0; j < 8; ++j)
        for (std::size_t e = 0; e < 16; ++e) {  // source row e's element j, rows 8–15 in the pair's second block
            const std::size_t block = 4 * j + (e < 8 ? 0 : 2);
            EXPECT_EQ(ub.at(4096, DataType::Fp32, block * 8 + e % 8), static_cast<double>(e * 8 + j)) << j << "," << e;
        }
    EXPECT_EQ(ub.at(4096, DataType::Fp32, 1 * 8), -1.0);  // block 1 of pair 0's span is not written
}

TEST(VectorSemantics, NchwConvRefusesEightBitAndSixtyFourBitElements) {
    Ub ub;
    EXPECT_THROW(ub.run({.op = VectorOp::NchwConv, .dtype = DataType::Int64, .dst = 2048, .src0 = 0}), std::invalid_argument);
    EXPECT_THROW(ub.run({.op = VectorOp::NchwConv, .dtype = DataType::Int8, .dst = 2048, .src0 = 0}), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
