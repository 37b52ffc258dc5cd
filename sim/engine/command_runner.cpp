#include "sim/engine/command_runner.h"

#include <spdlog/spdlog.h>

#include <iomanip>

#include "sim/config/chip_config_loader.h"
#include "sim/engine/simulation.h"
#include "sim/workload/workload_error.h"

namespace ascendsim {

namespace {

double gib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }
double mib(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

}  // namespace

int runChipsCommand(const std::string& configDir, std::ostream& out) {
    try {
        out << std::left << std::setw(16) << "chip" << std::setw(9) << "cores" << std::setw(12) << "AIC/AIV"
            << std::setw(10) << "MHz" << std::setw(10) << "L2 MiB" << std::setw(10) << "HBM GiB"
            << "HBM GB/s\n";
        for (const auto& c : listChips(configDir)) {
            out << std::left << std::setw(16) << c.name << std::setw(9) << organisationName(c.organisation)
                << std::setw(12) << (std::to_string(c.aiCoreCount) + "/" + std::to_string(c.vectorCoreCount))
                << std::setw(10) << c.aiCoreFreqMhz << std::setw(10) << mib(c.l2Bytes) << std::setw(10)
                << gib(c.hbmBytes) << c.hbmBandwidthGBps << "\n";
        }
        return 0;
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        return 1;
    }
}

}  // namespace ascendsim
