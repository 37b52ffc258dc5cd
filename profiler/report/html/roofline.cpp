#include "profiler/report/html/roofline.h"

namespace ascendsim {

namespace {
constexpr double kOpsPerMac = 2.0;           // a multiply-add is two operations
constexpr double kMainMemBytesPerCount = 8;  // main_mem_read/write count 8-byte units (pmu_event.h)
constexpr double kFp16Bytes = 2;
}  // namespace

RoofPoint roofPointOf(const TaskResult& task, const ChipConfig& chip) {
    PmuCounters all = task.cubeSum;
    all += task.vectorSum;
    const double fp16Fractal = kOpsPerMac * chip.cube.fractalM * chip.cube.fractalK * chip.cube.fractalN;
    const double int8Fractal = kOpsPerMac * chip.cube.fractalM * chip.cube.int8FractalK * chip.cube.fractalN;
    RoofPoint p;
    p.flops = static_cast<double>(all[PmuEvent::MacFp16]) * fp16Fractal +
              static_cast<double>(all[PmuEvent::MacInt8]) * int8Fractal + static_cast<double>(all[PmuEvent::VectorOps]);
    p.hbmBytes = static_cast<double>(all[PmuEvent::MainMemRead] + all[PmuEvent::MainMemWrite]) * kMainMemBytesPerCount;
    p.seconds = static_cast<double>(task.endNs - task.startNs) * 1e-9;
    return p;
}

ChipRoofs chipRoofs(const ChipConfig& chip) {
    ChipRoofs roofs;
    const double aicHz = chip.aiCoreFreqMhz * 1e6;
    const double aivHz = (chip.vectorCoreFreqMhz > 0 ? chip.vectorCoreFreqMhz : chip.aiCoreFreqMhz) * 1e6;
    roofs.cubeFlops = chip.aiCoreCount * aicHz * kOpsPerMac * chip.cube.fractalM * chip.cube.fractalK * chip.cube.fractalN;
    const double vectorCores = chip.organisation == CoreOrganisation::Split || chip.vectorCoreCount > 0
                                   ? chip.vectorCoreCount
                                   : chip.aiCoreCount;
    roofs.vectorFlops = vectorCores * aivHz * (chip.vector.bytesPerRepeat / kFp16Bytes);
    roofs.hbmBytesPerSecond = chip.hbm.bandwidthGBps * 1e9;
    roofs.l2BytesPerSecond = chip.l2.bandwidthBytesPerCycle * aicHz;
    return roofs;
}

}  // namespace ascendsim
