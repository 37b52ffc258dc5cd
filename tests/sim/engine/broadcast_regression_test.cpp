// Regression tests for bugs the end-to-end tests found, kept enabled once fixed.
#include <gtest/gtest.h>

#include "sim/engine/e2e_support.h"

namespace ascendsim::e2e {
namespace {

// Add(x [R, C], bias [C]) with C <= 256 fp16 columns and R >= 64 rows used to be rejected at
// lowering ("UB of 196608 bytes cannot hold an output tile"): the UB budget of
// models/kernels/elementwise_program.cpp promised more rows than its allocations could place.
// Fixed in e273d80 (the layout is measured, then the tile shrinks until it fits).
TEST(BroadcastRegression, AddOfA256ColumnBiasOver64RowsLowers) {
    TempDir out;
    auto options = commandOptions(unitWorkload("elementwise_chain.yaml"), out.path());
    options.setOverrides = {"batch=64", "cols=256"};
    const auto outcome = runCommand(options);
    EXPECT_EQ(outcome.exitCode, 0) << outcome.err;
}

}  // namespace
}  // namespace ascendsim::e2e
