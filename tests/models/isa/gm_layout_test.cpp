// The GM bursts of a move over a FRACTAL_NZ tensor (gm_layout.h, docs/fidelity.md §50): one run
// per 16-column block the rows cover, the runs a padded column block apart.
#include "models/isa/gm_layout.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace ascendsim {
namespace {

// The 910A's MatMul68 weight: [4096 × 9216] fp16 stored [576, 256, 16, 16].
GmFractalNz weight68() {
    GmFractalNz layout;
    layout.tensorAddr = 1 << 20;
    layout.rows = 4096;
    layout.rowBytes = 9216 * 2;
    layout.blockRowBytes = fractalNzBlockRowBytes(DataType::Fp16);
    return layout;
}

TEST(GmLayout, BlockRowIsSixteenElementsOrThirtyTwoBytesForInt8) {
    EXPECT_EQ(fractalNzBlockRowBytes(DataType::Fp16), 32u);
    EXPECT_EQ(fractalNzBlockRowBytes(DataType::Bf16), 32u);
    EXPECT_EQ(fractalNzBlockRowBytes(DataType::Fp32), 64u);  // the 910A's fp32 C as [n1, m1, 16, 16]
    EXPECT_EQ(fractalNzBlockRowBytes(DataType::Int8), 32u);
}

TEST(GmLayout, AKMajorTileIsOneRunPerColumnBlock) {
    // K rows [1024, 1280) × columns [256, 384) of the weight: as ND 256 bursts of 256 B; as NZ the
    // 8 column blocks 16..23, each rows 1024..1279 = 256 × 32 B contiguous, 4096 × 32 B apart.
    const GmFractalNz w = weight68();
    const std::uint64_t logical = w.tensorAddr + 1024 * w.rowBytes + 256 * 2;
    const GmBursts b = fractalNzBursts(w, logical, 256, 128 * 2, w.rowBytes);
    EXPECT_EQ(b.count, 8u);
    EXPECT_EQ(b.burstBytes, 256u * 32);
    EXPECT_EQ(b.strideBytes, 4096u * 32);
    EXPECT_EQ(b.address, w.tensorAddr + 16 * 4096 * 32 + 1024 * 32);
}

TEST(GmLayout, WholeRowsBackToBackAreOneRunWhenTheyAreEveryRow) {
    // x [32 × 9216] fp16 (a0 MatMul28's A): a 32 × 256 chunk of K is 16 runs of 32 rows × 32 B,
    // each a column block whole, so back to back.
    GmFractalNz x;
    x.tensorAddr = 4096;
    x.rows = 32;
    x.rowBytes = 9216 * 2;
    x.blockRowBytes = 32;
    const GmBursts chunk = fractalNzBursts(x, x.tensorAddr + 512 * 2, 32, 256 * 2, x.rowBytes);
    EXPECT_EQ(chunk.count, 16u);
    EXPECT_EQ(chunk.burstBytes, chunk.strideBytes);
    EXPECT_EQ(chunk.address, x.tensorAddr + 32 * 32 * 32);
    // One burst of two whole rows (a 2-D copy folded into one burst) covers every column block.
    const GmBursts rows = fractalNzBursts(x, x.tensorAddr + 3 * x.rowBytes, 1, 2 * x.rowBytes, 2 * x.rowBytes);
    EXPECT_EQ(rows.count, 9216u / 16);
    EXPECT_EQ(rows.burstBytes, 2u * 32);
    EXPECT_EQ(rows.address, x.tensorAddr + 3 * 32);
}

TEST(GmLayout, RowsPadToTheFractalHeight) {
    GmFractalNz c;  // 1000 rows pad to 1008: column blocks 1008 × 64 B apart
    c.rows = 1000;
    c.rowBytes = 64 * 4;
    c.blockRowBytes = 64;
    const GmBursts b = fractalNzBursts(c, 0, 8, 64 * 4, c.rowBytes);
    EXPECT_EQ(b.count, 4u);
    EXPECT_EQ(b.strideBytes, 1008u * 64);
}

TEST(GmLayout, RejectsRowsThatAreNotConsecutiveOrOutsideTheMatrix) {
    const GmFractalNz w = weight68();
    EXPECT_THROW(fractalNzBursts(w, w.tensorAddr, 4, 256, 2 * w.rowBytes), std::invalid_argument);
    EXPECT_THROW(fractalNzBursts(w, w.tensorAddr + 4095 * w.rowBytes, 2, 256, w.rowBytes), std::invalid_argument);
    EXPECT_THROW(fractalNzBursts(w, w.tensorAddr + w.rowBytes - 2, 1, 4, w.rowBytes), std::invalid_argument);
    EXPECT_THROW(fractalNzBursts(w, w.tensorAddr + 2, 1, 2 * w.rowBytes, 2 * w.rowBytes), std::invalid_argument);
    EXPECT_THROW(fractalNzBursts(GmFractalNz{}, 0, 1, 32, 32), std::invalid_argument);
}

}  // namespace
}  // namespace ascendsim
