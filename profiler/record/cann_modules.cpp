#include "profiler/record/cann_modules.h"

#include <algorithm>

namespace ascendsim {

const std::vector<std::string>& cannModuleNames() {
    static const std::vector<std::string> names = {
        "SLOG", "IDEDD", "IDEDH", "HCCL", "FMK", "HIAIENGINE", "DVPP", "RUNTIME", "CCE", "HDC",
        "DRV", "MDCFUSION", "MDCLOCATION", "MDCPERCEPTION", "MDCFSM", "MDCCOMMON", "MDCMONITOR",
        "MDCBSWP", "MDCDEFAULT", "MDCSC", "MDCPNC", "MLL", "DEVMM", "KERNEL", "LIBMEDIA", "CCECPU",
        "ASCENDDK", "ROS", "HCCP", "ROCE", "TEFUSION", "PROFILING", "DP", "APP", "TS", "TSDUMP",
        "AICPU", "LP", "TDT", "FE", "MD", "MB", "ME", "IMU", "IMP", "GE", "MDCFUSA", "CAMERA",
        "ASCENDCL", "TEEOS", "ISP", "SIS", "HSM", "DSS", "PROCMGR", "BBOX", "AIVECTOR", "TBE", "FV",
        "MDCMAP", "TUNE", "HSS", "FFTS", "OP", "UDF", "HICAID", "TSYNC", "AUDIO", "TPRT",
        "ASCENDCKERNEL", "ASYS", "ATRACE", "RTC", "SYSMONITOR", "AMP", "ADETECT", "MBUFF"};
    return names;
}

std::int64_t cannModuleId(const std::string& module) {
    const auto& names = cannModuleNames();
    const auto it = std::find(names.begin(), names.end(), module);
    return it == names.end() ? -1 : static_cast<std::int64_t>(it - names.begin());
}

}  // namespace ascendsim
