// The published single-core measurements the model is calibrated against (hardware.md §1.3,
// §2.5, §2.6; MSKPP tables measured on 910B1/910B3 at 1.8 GHz). Data only.
#pragma once
#include <string>
#include <vector>

#include "models/isa/instruction.h"

namespace ascendsim {

// Bandwidth of 1024 back-to-back transfers of `kib` KiB on one core (§1.3), in GiB/s at 1.8 GHz.
struct TransferReference {
    MemSpace src;
    MemSpace dst;
    LayoutConversion conversion;
    double kib;
    double gibPerSecond;
    const char* table;  // which measured table, e.g. "910b1", "910b3"
};
const std::vector<TransferReference>& transferReferences();

// mmad fp16 -> fp32 on one AIC, m=32 k=16 (§2.5): calPerf = 2mkn / cycles, ideal 8192.
struct MmadReference {
    std::uint16_t m, k, n;
    double flopsPerCycle;
};
const std::vector<MmadReference>& mmadReferences();

// Steady vector throughput (§2.6): bytes of one source operand per cycle, and the measured
// start-up of the class.
struct VectorReference {
    VectorOp op;
    DataType dtype;
    double bytesPerCycle;
    double startupCycles;
};
const std::vector<VectorReference>& vectorReferences();

// The clock the MSKPP tables were measured at (hardware.md §1.3).
inline constexpr double kReferenceClockHz = 1.8e9;

}  // namespace ascendsim
