#pragma once
// The roofline of a chip and where a kernel sits on it, from the chip config and the kernel's own
// PMU counters (hardware.md §3.2): work = cube FLOPs (one busy mac cycle = one fractal, as the
// cube_fops metric counts) + vector element ops; traffic = HBM bytes (main_mem_read/write × 8);
// achieved = work / kernel duration.
#include <string>
#include <vector>

#include "models/chip/chip_config.h"
#include "models/task/task_result.h"

namespace ascendsim {

struct RoofPoint {
    double flops = 0;     // operations the kernel did
    double hbmBytes = 0;  // bytes it moved to and from HBM
    double seconds = 0;   // its duration
    double intensity() const { return hbmBytes > 0 ? flops / hbmBytes : 0; }
    double achievedFlops() const { return seconds > 0 ? flops / seconds : 0; }
};

RoofPoint roofPointOf(const TaskResult& task, const ChipConfig& chip);

struct ChipRoofs {
    double cubeFlops = 0;    // every AI (cube) core issuing one fp16 fractal per cycle
    double vectorFlops = 0;  // every vector core doing one fp16 repeat (bytesPerRepeat / 2 lanes) per cycle
    double hbmBytesPerSecond = 0;
    double l2BytesPerSecond = 0;
};

ChipRoofs chipRoofs(const ChipConfig& chip);

}  // namespace ascendsim
