// EmbeddingDenseGradV2 against a reference computed here: out[ids[i]] += grad[pos[i]] with ids
// repeating (rows from several blocks add into one table row) and the output accumulated into
// (it holds 0.5 before), over the block_dim sweep.
#include <gtest/gtest.h>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

TEST(VectorEmbeddingGrad, AddsEveryGradRowIntoItsTableRow) {
    const ChipConfig chip = ascend910B1();
    const std::int64_t vocab = 50, width = 40, tokens = 300;
    for (const auto& blockDim : blockDimSweep()) {
        CubeOpHarness h(chip, 8ull << 20);
        const auto grad = h.tensor("grad", {1, tokens, width}, DataType::Fp32);
        const auto ids = h.tensor("sort_indices", {tokens}, DataType::Int32), pos = h.tensor("pos_idx", {tokens}, DataType::Int32);
        const auto out = h.tensor("table_grad", {vocab, width}, DataType::Fp32);
        const auto gs = h.fillRandom(grad);
        const auto is = h.fillRandom(ids, 0, static_cast<float>(vocab - 1)), ps = h.fillRandom(pos, 0, static_cast<float>(tokens - 1));
        h.fill(out, 0.5f);
        auto op = makeOp("EmbeddingDenseGradV2", {grad, ids, pos}, {out});
        op.attrs = {{"num_weights", vocab}};
        op.blockDim = blockDim;
        h.run(op);
        std::vector<double> expected(static_cast<std::size_t>(vocab * width), 0.5);
        for (std::int64_t i = 0; i < tokens; ++i)
            for (std::int64_t e = 0; e < width; ++e)
                expected[static_cast<std::size_t>(static_cast<std::int64_t>(is[i]) * width + e)] +=
                    gs[static_cast<std::size_t>(static_cast<std::int64_t>(ps[i]) * width + e)];
        expectNear(h.read(out), expected, 1e-5, 1e-5, "EmbeddingDenseGradV2, " + blockDimName(blockDim));
    }
}

}  // namespace
}  // namespace ascendsim::test
