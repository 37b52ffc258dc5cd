// DequeueThread: launching a collective (FrameworkOp::collective) the way torch_npu's
// ProcessGroupHCCL does on the dequeue thread (sim/host/hccl_host_costs.h).
#include "sim/host/dequeue_thread.h"
#include "sim/host/hccl_host_costs.h"
#include "sim/host/host_costs.h"

namespace ascendsim {

using namespace hccl_host_costs;

std::uint64_t DequeueThread::launchCollective(const EnqueuedOp& item, std::uint64_t startNs) {
    const FrameworkOp& op = *item.op;
    const KernelLaunchSpec& kernel = op.kernels.front();
    std::uint64_t t = startNs;
    // The HCCL stream waits for the compute stream's event (the gradient is ready).
    apis_.add(ApiLevel::Acl, "aclrtStreamWaitEvent", t, t + kStreamWaitEventNs, threadId_);
    apis_.add(ApiLevel::Runtime, "StreamWaitEvent", t + kRuntimeStreamWaitEventOffsetNs,
              t + kRuntimeStreamWaitEventOffsetNs + kRuntimeStreamWaitEventNs, threadId_);
    t += kWaitEventToHcomNs;

    const std::uint64_t hcomEnd = t + kHcomPrepareNs + kLaunchFftsNs + kHcomAfterLaunchNs;
    apis_.add(ApiLevel::Acl, kernel.kernelName, t, hcomEnd, threadId_);
    const std::uint64_t correlationId = apis_.add(ApiLevel::Node, "launch", t, hcomEnd, threadId_);
    const std::uint64_t fftsStart = t + kHcomPrepareNs;
    apis_.add(ApiLevel::Communication, "Launch_Ffts", fftsStart, fftsStart + kLaunchFftsNs,
              threadId_);
    const std::uint64_t taskLaunchEnd = fftsStart + kFftsTaskLaunchOffsetNs + kFftsTaskLaunchNs;
    apis_.add(ApiLevel::Runtime, "FftsPlusTaskLaunch", fftsStart + kFftsTaskLaunchOffsetNs,
              taskLaunchEnd, threadId_);

    submitLaunch(item, 0, correlationId, taskLaunchEnd + host_costs::kLaunchToDeviceNs);

    // The events the compute stream waits on before it uses the reduced buffer.
    t = hcomEnd + kHcomToRecordEventNs;
    for (std::size_t i = 0; i < 2; ++i) {
        if (i > 0) t += kRecordEventGapNs;
        apis_.add(ApiLevel::Acl, "aclrtRecordEvent", t, t + kRecordEventNs[i], threadId_);
        apis_.add(ApiLevel::Runtime, "EventRecord", t + kRuntimeRecordEventOffsetNs[i],
                  t + kRuntimeRecordEventOffsetNs[i] + kRuntimeRecordEventNs[i], threadId_);
        t += kRecordEventNs[i];
    }
    return t;
}

}  // namespace ascendsim
