// The vector ops of the CNN training samples (docs/op-catalog.md, "Ops of the CNN training
// samples") against references computed here, over the block_dim sweep.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

constexpr std::uint64_t kGmBytes = 8ull << 20;  // small tensors: keep each machine's GM small

// y = x1 + alpha·x2 with alpha read from a [1] tensor, and with x2 broadcast over rows.
TEST(VectorCnnTrainingOps, AxpyV2AddsTheScaledSecondInput) {
    for (const ChipConfig& chip : {ascend910B1(), coupledChip()}) {
        for (const auto& blockDim : blockDimSweep()) {
            for (const bool broadcast : {false, true}) {
                CubeOpHarness h(chip, kGmBytes);
                const auto x1 = h.tensor("x1", {5, 700}, DataType::Fp32);
                const auto x2 = h.tensor("x2", broadcast ? std::vector<std::int64_t>{700} : std::vector<std::int64_t>{5, 700},
                                         DataType::Fp32);
                const auto alpha = h.tensor("alpha", {1}, DataType::Fp32), y = h.tensor("y", {5, 700}, DataType::Fp32);
                const auto a = h.fillRandom(x1), b = h.fillRandom(x2), s = h.fillRandom(alpha, -0.5f, -0.1f);
                auto op = makeOp("AxpyV2", {x1, x2, alpha}, {y});
                op.blockDim = blockDim;
                h.run(op);
                std::vector<double> expected(a.size());
                for (std::size_t i = 0; i < a.size(); ++i) expected[i] = double(a[i]) + double(s[0]) * b[broadcast ? i % 700 : i];
                expectNear(h.read(y), expected, 1e-6, 1e-6, chip.name + " AxpyV2, " + blockDimName(blockDim));
            }
        }
    }
}

}  // namespace
}  // namespace ascendsim::test
