// The main job end to end in one process: ResNet-50 (workloads/resnet50.yaml) at profiler Level2,
// simulated by the engine's runSimulation and written by writeProfilerOutput into a temporary
// directory, exactly what `ascendsim --workload workloads/resnet50.yaml --level Level2` does minus
// the text report. Prints wall and CPU seconds of each phase, peak RSS and the simulated device
// time; then the same at batch 8, 16 and 32 (one step each) to show how the cost grows with batch.
// Usage: resnet50_end_to_end_bench [workload.yaml] [steps] [nosweep] [allsteps]
// allsteps: also simulate the steps after the profiler schedule's last recorded one (as before
// runSimulation stopped there), for before/after comparisons.
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <systemc>  // declares sc_main extern "C"

#include "profiler/assembly/output_assembly.h"
#include "sim/config/chip_config_loader.h"
#include "sim/engine/simulation.h"

namespace ascendsim {
namespace {

double cpuSeconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double peakRssMiB() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

struct Stopwatch {
    std::chrono::steady_clock::time_point wallStart = std::chrono::steady_clock::now();
    double cpuStart = cpuSeconds();
    double wall() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count(); }
    double cpu() const { return cpuSeconds() - cpuStart; }
};

struct RunFigures {
    double simulateWall = 0, simulateCpu = 0, writeWall = 0, writeCpu = 0;
    std::uint64_t kernels = 0, instructions = 0, deviceBusyNs = 0, simulatedEndNs = 0;
    std::uint32_t steps = 0, stepsSimulated = 0;
};

RunFigures runOnce(const std::string& workload, std::optional<std::uint32_t> steps, const std::string& batch,
                   const std::filesystem::path& outputDir, bool allSteps) {
    SimulationOptions options;
    options.workloadPath = workload;
    options.configDir = defaultConfigDir();
    options.level = "Level2";
    options.steps = steps;
    options.deterministic = true;
    options.outputParent = outputDir.string();
    options.simulateUnobservedSteps = allSteps;
    if (!batch.empty()) options.setOverrides.push_back("batch=" + batch);
    RunFigures f;
    const Stopwatch simulate;
    SimulationResult result = runSimulation(options);
    f.simulateWall = simulate.wall();
    f.simulateCpu = simulate.cpu();
    const Stopwatch write;
    OutputOptions output;
    output.parentDirectory = outputDir;
    output.deterministic = true;
    writeProfilerOutput(result.record, result.workload.profiler, output);
    f.writeWall = write.wall();
    f.writeCpu = write.cpu();
    f.kernels = result.deviceTasks;
    f.instructions = result.deviceInstructions;
    f.deviceBusyNs = result.deviceBusyNs;
    f.simulatedEndNs = result.simulatedEndNs;
    f.steps = result.workload.steps;
    f.stepsSimulated = result.stepsSimulated;
    return f;
}

int run(const std::string& workload, std::optional<std::uint32_t> steps, bool sweep, bool allSteps) {
    const std::filesystem::path tempDir =
        std::filesystem::temp_directory_path() / ("ascendsim_e2e_bench_" + std::to_string(::getpid()));
    std::filesystem::create_directories(tempDir);
    const RunFigures main = runOnce(workload, steps, "", tempDir / "main", allSteps);
    std::printf("workload                  %s (Level2, %u steps, %u simulated)\n", workload.c_str(), main.steps,
                main.stepsSimulated);
    std::printf("kernels simulated         %llu\n", static_cast<unsigned long long>(main.kernels));
    std::printf("instructions simulated    %llu (%.2f M per simulate CPU second)\n",
                static_cast<unsigned long long>(main.instructions),
                static_cast<double>(main.instructions) / main.simulateCpu / 1e6);
    std::printf("simulated device busy     %.3f ms\n", static_cast<double>(main.deviceBusyNs) / 1e6);
    std::printf("simulated host end        %.3f ms\n", static_cast<double>(main.simulatedEndNs) / 1e6);
    std::printf("simulate  wall / cpu      %.3f s / %.3f s\n", main.simulateWall, main.simulateCpu);
    std::printf("output    wall / cpu      %.3f s / %.3f s\n", main.writeWall, main.writeCpu);
    std::printf("total     wall / cpu      %.3f s / %.3f s\n", main.simulateWall + main.writeWall,
                main.simulateCpu + main.writeCpu);
    std::printf("peak RSS                  %.1f MiB\n", peakRssMiB());
    if (sweep) {
        std::printf("\nbatch  steps  wall s  cpu s  cpu s per image  device busy ms\n");
        for (const char* batch : {"8", "16", "32"}) {
            const RunFigures f = runOnce(workload, 1, batch, tempDir / (std::string("batch") + batch), allSteps);
            const double cpu = f.simulateCpu + f.writeCpu;
            std::printf("%5s  %5u  %6.3f  %5.3f  %15.4f  %14.3f\n", batch, f.stepsSimulated, f.simulateWall + f.writeWall,
                        cpu, cpu / std::atof(batch), static_cast<double>(f.deviceBusyNs) / 1e6);
        }
    }
    std::filesystem::remove_all(tempDir);
    return 0;
}

}  // namespace
}  // namespace ascendsim

int sc_main(int argc, char* argv[]) {
    const std::string workload =
        argc > 1 ? argv[1] : std::string(ASCENDSIM_BENCH_SOURCE_DIR) + "/workloads/resnet50.yaml";
    std::optional<std::uint32_t> steps;
    if (argc > 2) steps = static_cast<std::uint32_t>(std::atoi(argv[2]));
    const bool sweep = !(argc > 3 && std::string(argv[3]) == "nosweep");
    const bool allSteps = argc > 4 && std::string(argv[4]) == "allsteps";
    try {
        return ascendsim::run(workload, steps, sweep, allSteps);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "resnet50_end_to_end_bench: %s\n", e.what());
        return 1;
    }
}
