// The vector kernels whose CANN form depends on the part or the dtype (docs/fidelity.md §106):
// DropOutDoMask's TIK CMPMASK loop on coupled chips, and the DSL broadcast of ZerosLike / OnesLike
// into every tile (bf16 through fp16 and fp32).
#include <gtest/gtest.h>

#include <map>

#include "tests/models/kernels/vector_test_support.h"

namespace ascendsim::test {
namespace {

struct BlockCode {
    std::map<VectorOp, std::uint64_t> vectors;  // instructions by op
    std::uint64_t barriers = 0, loads = 0, stores = 0, loadedBytes = 0, storedBytes = 0;
};

BlockCode codeOfBlock(const LoweredKernel& kernel, CoreKind kind, std::uint32_t block = 0) {
    BlockCode c;
    auto stream = kernel.program({block, kind, 0, 0});
    std::vector<Instruction> chunk;
    while (stream->next(chunk)) {
        for (const auto& i : chunk) {
            if (i.opcode == Opcode::Vector) ++c.vectors[std::get<VectorInstr>(i.operands).op];
            if (i.opcode == Opcode::Barrier && i.pipe == Pipe::Vector) ++c.barriers;
            const auto* move = std::get_if<DataMove>(&i.operands);
            if (move != nullptr && move->src == MemSpace::GM) ++c.loads, c.loadedBytes += move->totalBytes();
            if (move != nullptr && move->dst == MemSpace::GM) ++c.stores, c.storedBytes += move->totalBytes();
        }
        chunk.clear();
    }
    return c;
}

std::uint64_t count(const BlockCode& c, VectorOp op) {
    const auto it = c.vectors.find(op);
    return it == c.vectors.end() ? 0 : it->second;
}

// drop_out_do_mask.py: where the ISA has no tensor-mask vsel (coupled parts) the kernel selects 128
// lanes per CMPMASK load; fp32 x is scaled by the selected 1.0 / 0.0 converted to fp32. The 220x
// selects a whole chunk per instruction.
TEST(VectorFormsByPart, DropOutDoMaskSelects128LanesPerCmpmaskLoadOnCoupledChips) {
    const ChipConfig coupled = coupledChip(), split = ascend910B1();
    for (const DataType dtype : {DataType::Fp32, DataType::Fp16}) {
        CubeOpHarness h(coupled);
        const auto x = h.tensor("x", {32, 9216}, dtype), y = h.tensor("y", {32, 9216}, dtype);
        const auto mask = h.tensor("mask", {36864}, DataType::Uint8), keep = h.tensor("keep_prob", {1}, dtype);
        h.fillRandom(x);
        const auto op = makeOp("DropOutDoMask", {x, mask, keep}, {y});
        const auto kernels = h.run(op);
        ASSERT_EQ(kernels.size(), 1u);
        EXPECT_EQ(kernels[0].blockDim, 32u);  // every core takes a share, not one 254-repeat chunk each
        const BlockCode c = codeOfBlock(kernels[0], CoreKind::Coupled);
        const std::uint64_t lanes = 9216 / 128;  // block 0's 9216 elements
        EXPECT_EQ(count(c, VectorOp::Select), lanes) << dataTypeName(dtype);
        EXPECT_EQ(count(c, VectorOp::Copy), lanes) << dataTypeName(dtype);  // the CMPMASK loads
        EXPECT_EQ(count(c, VectorOp::Cast), dtype == DataType::Fp32 ? lanes : 0u);
        EXPECT_GE(c.barriers, (dtype == DataType::Fp32 ? 4 : 2) * lanes);
        std::uint64_t loaded = 0, stored = 0;  // over the blocks; each first reads its tiling and keep_prob
        for (std::uint32_t b = 0; b < kernels[0].blockDim; ++b) {
            const BlockCode block = codeOfBlock(kernels[0], CoreKind::Coupled, b);
            loaded += block.loadedBytes, stored += block.storedBytes;
        }
        EXPECT_EQ(loaded, x.bytes() + mask.bytes() + kernels[0].blockDim * (96u + 32u));
        EXPECT_EQ(stored, y.bytes());
    }
    CubeOpHarness h(split);
    const auto x = h.tensor("x", {32, 9216}, DataType::Fp32), y = h.tensor("y", {32, 9216}, DataType::Fp32);
    const auto mask = h.tensor("mask", {36864}, DataType::Uint8);
    const auto kernels = h.lower(makeOp("DropOutDoMask", {x, mask}, {y}));
    EXPECT_LT(count(codeOfBlock(kernels[0], CoreKind::Vector), VectorOp::Select), 10u);
}

// zeros_like.py / ones_like.py: the constant is broadcast into every tile the schedule stores; bf16
// is broadcast as fp16, cast to fp32 and rounded to bf16.
TEST(VectorFormsByPart, ZerosLikeBroadcastsEveryTileAndBf16ThroughFp32) {
    const ChipConfig chip = ascend910B1();
    for (const DataType dtype : {DataType::Fp32, DataType::Bf16, DataType::Fp16}) {
        CubeOpHarness h(chip);
        const auto x = h.tensor("x", {4096, 1, 4, 128}, dtype), y = h.tensor("y", {4096, 1, 4, 128}, dtype);
        h.fillRandom(y, 1.0f, 2.0f);
        auto op = makeOp("ZerosLike", {x}, {y});
        op.blockDim = 2u;
        const auto kernels = h.run(op);
        for (const double v : h.read(y)) ASSERT_EQ(v, 0.0) << dataTypeName(dtype);
        const BlockCode c = codeOfBlock(kernels[0], CoreKind::Vector);
        EXPECT_GT(c.stores, 1u);
        // A tile's passes are instructions of at most 255 repeats each: at least one a tile.
        EXPECT_GE(count(c, VectorOp::Duplicate), c.stores) << dataTypeName(dtype);
        if (dtype == DataType::Bf16)
            EXPECT_GE(count(c, VectorOp::Cast), 2 * c.stores);
        else
            EXPECT_EQ(count(c, VectorOp::Cast), 0u) << dataTypeName(dtype);
    }
    CubeOpHarness h(chip);
    const auto x = h.tensor("x", {1000}, DataType::Fp32), y = h.tensor("y", {1000}, DataType::Fp32);
    h.run(makeOp("OnesLike", {x}, {y}));
    for (const double v : h.read(y)) ASSERT_EQ(v, 1.0);
}

}  // namespace
}  // namespace ascendsim::test
