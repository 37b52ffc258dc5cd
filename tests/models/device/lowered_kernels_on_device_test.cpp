// Lowered kernels (models/kernels) run on the device of a shipped chip: every program respects
// the buffer rules, balances its flags (no deadlock) and keeps the pipes it should busy.
#include <gtest/gtest.h>

#include "models/device/device.h"
#include "models/device/device_test_chip.h"
#include "models/kernels/kernel_registry.h"
#include "models/systemc/fresh_simulation_context.h"
#include "sim/config/chip_config_loader.h"

namespace ascendsim::test {
namespace {

class OpBuilder {
public:
    TensorInfo tensor(const std::string& name, std::vector<std::int64_t> shape, DataType dtype = DataType::Fp16) {
        TensorInfo t;
        t.name = name;
        t.shape = std::move(shape);
        t.dtype = dtype;
        t.deviceAddr = next_;
        next_ += (t.bytes() + 4095) / 4096 * 4096;
        return t;
    }

private:
    std::uint64_t next_ = 1 << 20;
};

OpInstance op(const std::string& type, std::vector<TensorInfo> inputs, std::vector<TensorInfo> outputs) {
    OpInstance o;
    o.name = type + "_under_test";
    o.type = type;
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    return o;
}

std::vector<TaskResult> runLowered(const ChipConfig& chip, const OpInstance& instance) {
    FreshSimulationContext context;
    RecordingObserver observer;
    Device device(chip, observer);
    std::uint64_t id = 0;
    for (LoweredKernel& k : KernelRegistry::instance().lower(instance, chip)) {
        KernelTask t;
        t.taskId = ++id;
        t.type = k.type;
        t.blockDim = k.blockDim;
        t.mixBlockDim = k.mixBlockDim;
        t.program = std::move(k.program);
        t.aiCpuCycles = k.aiCpuCycles;
        device.submit(std::move(t), 0);
    }
    device.runUntilIdle();
    return observer.results;
}

PmuCounters summed(const std::vector<TaskResult>& results) {
    PmuCounters sum;
    for (const TaskResult& r : results) {
        sum += r.cubeSum;
        sum += r.vectorSum;
    }
    return sum;
}

class LoweredKernelsOnDevice : public ::testing::Test {
protected:
    ChipConfig chip = loadChipByName("Ascend910B1", defaultConfigDir());
    OpBuilder b;
};

TEST_F(LoweredKernelsOnDevice, MatMul_KeepsTheCubeAndItsMovesBusy) {
    const auto results = runLowered(chip, op("MatMul", {b.tensor("a", {512, 256}), b.tensor("b", {256, 384})},
                                             {b.tensor("y", {512, 384})}));
    ASSERT_FALSE(results.empty());
    const PmuCounters c = summed(results);
    EXPECT_EQ(c[PmuEvent::CubeFlops], 2ull * 512 * 256 * 384);
    EXPECT_GT(c[PmuEvent::Mte1Busy], 0u);
    EXPECT_GT(c[PmuEvent::Mte2Busy], 0u);
    EXPECT_GT(c[PmuEvent::FixpipeBusy], 0u);
    for (const TaskResult& r : results)
        for (const BlockResult& block : r.blocks) EXPECT_LE(block.counters[PmuEvent::MacBusy], block.counters.totalCycles);
}

TEST_F(LoweredKernelsOnDevice, ElementwiseAdd_RunsOnTheVectorCores) {
    const auto results = runLowered(chip, op("Add", {b.tensor("x1", {64, 4096}), b.tensor("x2", {64, 4096})},
                                             {b.tensor("y", {64, 4096})}));
    const PmuCounters c = summed(results);
    EXPECT_GE(c[PmuEvent::VectorOps], 64u * 4096);
    EXPECT_EQ(c[PmuEvent::BytesGmToUb], 2u * 64 * 4096 * 2);
    EXPECT_EQ(c[PmuEvent::BytesUbToGm], 64u * 4096 * 2);
    // No scalar UB traffic: the MemoryUB group's scalar columns read zero.
    EXPECT_EQ(c[PmuEvent::UbReadScalar], 0u);
    EXPECT_EQ(c[PmuEvent::UbWriteScalar], 0u);
}

TEST_F(LoweredKernelsOnDevice, GatherV2_ReadsItsIndicesFromUbWithTheScalarUnit) {
    constexpr std::uint64_t kLookups = 300;
    const auto results = runLowered(
        chip, op("GatherV2",
                 {b.tensor("table", {1000, 64}), b.tensor("indices", {kLookups}, DataType::Int32)},
                 {b.tensor("y", {kLookups, 64})}));
    const PmuCounters c = summed(results);
    EXPECT_EQ(c[PmuEvent::ScalarLoad], kLookups);
    // One int32 index per lookup, in 16 B units rounded up per tile: at least 300 × 4 B.
    EXPECT_GE(c[PmuEvent::UbReadScalar], kLookups * 4 / 16);
    EXPECT_EQ(c[PmuEvent::UbWriteScalar], 0u);
}

TEST_F(LoweredKernelsOnDevice, SoftmaxAndRmsNorm_Run) {
    EXPECT_FALSE(runLowered(chip, op("SoftmaxV2", {b.tensor("x", {128, 1024})}, {b.tensor("y", {128, 1024})})).empty());
    EXPECT_FALSE(runLowered(chip, op("RmsNorm", {b.tensor("x", {128, 1024}), b.tensor("g", {1024})},
                                     {b.tensor("y", {128, 1024})}))
                     .empty());
}

TEST_F(LoweredKernelsOnDevice, FlashAttention_RunsAsMixGroupsWithCrossCoreFlags) {
    const auto results = runLowered(
        chip, op("FlashAttentionScore",
                 {b.tensor("q", {1, 8, 256, 64}), b.tensor("k", {1, 8, 256, 64}), b.tensor("v", {1, 8, 256, 64})},
                 {b.tensor("out", {1, 8, 256, 64})}));
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].type, TaskType::MixAic);
    EXPECT_GT(results[0].cubeSum[PmuEvent::MacBusy], 0u);
    EXPECT_GT(results[0].vectorSum[PmuEvent::VecBusy], 0u);
}

// The 910A's tiny batched GEMMs (the AdaptiveAvgPool2dGrad BatchMatMuls: 16 × 16 · 16 × 16 fp16
// FRACTAL_NZ, two 512 B loads a batch) keep several batches' loads in flight (docs/fidelity.md §67):
// a block takes fewer cycles a batch than two L1 slots waiting out the read latency every two
// batches allow, (2 × 55 + 310) / 2 = 210, and no fewer than its two loads' issue, 2 × 55.
TEST(LoweredKernelsOn910A, TinyBatchedGemmLoadsAreIssuePacedNotLatencyPaced) {
    const ChipConfig chip = loadChipByName("Ascend910", defaultConfigDir());
    ASSERT_EQ(chip.mte2LoadIssueCycles, 55u);
    ASSERT_EQ(chip.hbm.readLatencyCycles, 310u);
    OpBuilder b;
    constexpr std::int64_t kBatches = 4096, kBlocks = 32;
    auto nz = [&](const std::string& name) {
        TensorInfo t = b.tensor(name, {kBatches, 16, 16});
        t.format = TensorFormat::FractalNz;
        return t;
    };
    OpInstance bmm = op("BatchMatMul", {nz("a"), nz("b")}, {nz("y")});
    bmm.blockDim = kBlocks;
    const auto results = runLowered(chip, bmm);
    ASSERT_EQ(results.size(), 1u);
    const double cyclesPerBatch =
        static_cast<double>(results[0].endNs - results[0].startNs) * chip.aiCoreFreqMhz / 1000.0 /
        (kBatches / kBlocks);
    EXPECT_LT(cyclesPerBatch, (2.0 * 55 + 310) / 2 * 0.9);
    EXPECT_GT(cyclesPerBatch, 2.0 * 55);
}

// TBE's fused BatchMatMul + Mul (AdaptiveAvgPool2d24RightBatchMatMulV2...Mul, c1e639ee level1 rank0)
// reloads the Mul's shared [16,16] fp32 operand for every batch on every block
// (matmul_epilogue_operand.cpp): all 32 blocks read the same two L2 lines each batch and take turns
// on them (l2.same_line_read_cycles 40 on the shipped 910A, docs/fidelity.md §100), so a batch costs
// about blocks × turn, where without the turns it costs the unfused batch's few hundred cycles.
double fusedBatchCycles(const ChipConfig& chip) {
    OpBuilder b;
    constexpr std::int64_t kBatches = 1024, kBlocks = 32;
    auto nz = [&](const std::string& name, std::vector<std::int64_t> shape, DataType dtype) {
        TensorInfo t = b.tensor(name, std::move(shape), dtype);
        t.format = TensorFormat::FractalNz;
        return t;
    };
    OpInstance bmm = op("BatchMatMul",
                        {nz("a", {kBatches, 16, 16}, DataType::Fp16), nz("b", {16, 16}, DataType::Fp16),
                         nz("x", {16, 16}, DataType::Fp32)},
                        {nz("y", {kBatches, 16, 16}, DataType::Fp32)});
    bmm.attrs["fused_elementwise_input"] = true;
    bmm.blockDim = kBlocks;
    const auto results = runLowered(chip, bmm);
    EXPECT_EQ(results.size(), 1u);
    return static_cast<double>(results.at(0).endNs - results.at(0).startNs) * chip.aiCoreFreqMhz / 1000.0 /
           (kBatches / kBlocks);
}

TEST(LoweredKernelsOn910A, FusedOperandSharedByEveryBlockQueuesOnItsLines) {
    ChipConfig chip = loadChipByName("Ascend910", defaultConfigDir());
    ASSERT_EQ(chip.l2.sameLineReadCycles, 40u);
    const double queued = fusedBatchCycles(chip);
    chip.l2.sameLineReadCycles = 0;
    const double unqueued = fusedBatchCycles(chip);
    EXPECT_GT(queued, 32 * 40 * 0.75);
    EXPECT_LT(queued, 32 * 40 * 1.5);
    EXPECT_LT(unqueued, 400.0);
}

}  // namespace
}  // namespace ascendsim::test
