// The engine's collectives on the device's HBM (docs/fidelity.md §118): collectiveHbmWindows turns
// a rank's simulated HCCL schedule into background windows (§108's bytes per byte), and a run puts
// them beside the kernels its compute stream runs while the collective's stream moves the bytes:
// a kernel beside an all-reduce is slower than the same kernel with `--hccl-traffic off`, by what
// the background takes of HBM; a kernel before it is not; the run is deterministic.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "sim/engine/device/collective_hbm_traffic.h"
#include "sim/engine/e2e_support.h"
#include "sim/engine/simulation.h"

namespace ascendsim {
namespace {

HcclTask hcclTaskOf(HcclTaskKind kind, std::uint64_t startNs, std::uint64_t durationNs, std::uint64_t bytes) {
    HcclTask task;
    task.kind = kind;
    task.startNs = startNs;
    task.durationNs = durationNs;
    task.sizeBytes = bytes;
    task.link = HcclLinkType::Hccs;
    return task;
}

TEST(CollectiveHbmWindows, TransferTasksBecomeWindowsOnTheDeviceClock) {
    CollectiveSchedule schedule;
    schedule.tasks = {hcclTaskOf(HcclTaskKind::NotifyWait, 0, 5000, 0),
                      hcclTaskOf(HcclTaskKind::Memcpy, 5000, 1000, 4000),
                      hcclTaskOf(HcclTaskKind::ReduceInline, 6000, 2000, 4000),
                      hcclTaskOf(HcclTaskKind::Memcpy, 8000, 0, 4000),        // no duration
                      hcclTaskOf(HcclTaskKind::ReduceInline, 8000, 100, 0),   // no bytes
                      hcclTaskOf(HcclTaskKind::NotifyRecord, 8000, 10, 0)};
    const std::vector<ConcurrentHbmWindow> windows = collectiveHbmWindows(schedule, 1'000'000);
    ASSERT_EQ(windows.size(), 2u);
    EXPECT_DOUBLE_EQ(windows[0].startPs, 1'005'000'000.0);
    EXPECT_DOUBLE_EQ(windows[0].endPs, 1'006'000'000.0);
    EXPECT_DOUBLE_EQ(windows[0].hbmBytesPerPs, 2.0 * 4000 / 1e6);  // source read + destination write
    EXPECT_DOUBLE_EQ(windows[1].startPs, 1'006'000'000.0);
    EXPECT_DOUBLE_EQ(windows[1].hbmBytesPerPs, 3.0 * 4000 / 2e6);  // and the destination read
}

namespace fs = std::filesystem;

// Two ranks: a small gradient, a 256 MB bucket all-reduced on the HCCL stream, then a 128 MB-a-
// tensor Add the backward goes on with (beside the all-reduce: DDP does not wait), then the
// optimizer's update, which waits for the all-reduce. The Add streams 384 MB, twice the L2.
constexpr const char* kBesideWorkload = R"(name: unit_allreduce_beside_compute
ranks: 2
steps: 1
chip: Ascend910B2
tensors:
  - {name: x, shape: [1024, 1024], dtype: fp32, kind: input}
  - {name: w, shape: [1024, 1024], dtype: fp32, kind: weight}
  - {name: bucket, shape: [67108864], dtype: fp32, kind: state}
  - {name: a, shape: [4096, 8192], dtype: fp32, kind: input}
  - {name: b, shape: [4096, 8192], dtype: fp32, kind: input}
  - {name: lr, shape: [1024, 1024], dtype: fp32, kind: input}
ops:
  - {name: grad, type: Mul, inputs: [x, w], outputs: [g], aten: aten::mul, phase: backward}
  - {name: allreduce, type: HcomAllReduce, inputs: [bucket], outputs: [bucket], attrs: {reduction: sum}, aten: c10d::allreduce_, phase: backward}
  - {name: beside, type: Add, inputs: [a, b], outputs: [c], aten: aten::add, phase: backward}
  - {name: update, type: Mul, inputs: [g, lr], outputs: [step_w], aten: aten::mul, phase: optimizer}
profiler:
  experimental_config: {profiler_level: Level1}
)";

class CollectiveHbmTrafficRun : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        scratch_ = new e2e::TempDir;
        workload_ = scratch_->path() / "beside.yaml";
        std::ofstream(workload_) << kBesideWorkload;
    }
    static void TearDownTestSuite() {
        delete scratch_;
        scratch_ = nullptr;
    }
    static SimulationResult run(bool hcclTraffic) {
        SimulationOptions options = e2e::commandOptions(workload_, scratch_->path());
        options.hcclTraffic = hcclTraffic;
        return runSimulation(options);
    }
    static const KernelRecord& kernelOfType(const SimulationResult& result, const std::string& type) {
        const auto& kernels = result.record.kernels;
        const auto it = std::find_if(kernels.begin(), kernels.end(), [&](const KernelRecord& k) { return k.opType == type; });
        if (it == kernels.end()) throw std::logic_error("no " + type + " kernel");
        return *it;
    }
    static inline e2e::TempDir* scratch_ = nullptr;
    static inline fs::path workload_;
};

double durationNsOf(const KernelRecord& kernel) {
    return static_cast<double>(kernel.device.endNs - kernel.device.startNs);
}

TEST_F(CollectiveHbmTrafficRun, AKernelBesideTheAllReduceIsSlowedByTheShareOfHbmItsTransfersTake) {
    const SimulationResult off = run(false);
    const SimulationResult on = run(true);
    const KernelRecord& alone = kernelOfType(off, "Add");
    const KernelRecord& beside = kernelOfType(on, "Add");
    ASSERT_EQ(on.record.communicationOps.size(), 1u);
    const CommunicationOpRecord& allReduce = on.record.communicationOps.front();
    // The Add runs inside the all-reduce's span, and starts where it did without the background.
    EXPECT_EQ(beside.device.startNs, alone.device.startNs);
    ASSERT_GT(beside.device.startNs, allReduce.startNs);
    ASSERT_LT(beside.device.endNs, allReduce.endNs);

    // What the model says: the Add, HBM-bound, drains at S - r(t) where it drained at S (the
    // 910B2 sets no hbm.concurrent_capacity_gbps: C = S), r the windows of the op's transfers.
    CollectiveSchedule schedule;
    schedule.tasks = allReduce.tasks;
    const ConcurrentHbmTraffic background(collectiveHbmWindows(schedule, allReduce.startNs));
    const double streamBytesPerPs = on.chip->hbm.bandwidthGBps * on.chip->hbm.readEfficiency * 1e-3;
    double workNs = 0.0, ns = static_cast<double>(beside.device.startNs);
    const double aloneNs = durationNsOf(alone);
    for (; workNs < aloneNs; ns += 1.0)
        workNs += 1.0 / background.slowdownAt(ns * 1000.0, streamBytesPerPs, streamBytesPerPs);
    const double modelExtraNs = ns - static_cast<double>(beside.device.startNs) - aloneNs;
    const double extraNs = durationNsOf(beside) - aloneNs;
    ASSERT_GT(modelExtraNs, 0.1 * aloneNs);  // the case is one where the background matters
    EXPECT_GT(extraNs, 0.7 * modelExtraNs) << "alone " << aloneNs << " ns, beside " << durationNsOf(beside);
    EXPECT_LT(extraNs, 1.15 * modelExtraNs) << "alone " << aloneNs << " ns, beside " << durationNsOf(beside);

    // The gradient before the all-reduce is not beside it.
    EXPECT_EQ(kernelOfType(on, "Mul").device.endNs, kernelOfType(off, "Mul").device.endNs);
}

TEST_F(CollectiveHbmTrafficRun, IsDeterministic) {
    const SimulationResult first = run(true);
    const SimulationResult second = run(true);
    ASSERT_EQ(first.record.kernels.size(), second.record.kernels.size());
    for (std::size_t i = 0; i < first.record.kernels.size(); ++i) {
        EXPECT_EQ(first.record.kernels[i].device.startNs, second.record.kernels[i].device.startNs) << i;
        EXPECT_EQ(first.record.kernels[i].device.endNs, second.record.kernels[i].device.endNs) << i;
    }
}

}  // namespace
}  // namespace ascendsim
