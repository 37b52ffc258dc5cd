#include "profiler/writers/hardware_sample_timeline.h"

#include "profiler/writers/hardware_sample_rates.h"

namespace ascendsim {

namespace {

struct SampleSortIndices {
    std::uint32_t hbm;
    std::uint32_t llc;
};

SampleSortIndices sortIndices(FormatVersion version) {
    switch (version) {
    case FormatVersion::Cann83: return {24, 27};  // msprof C++ TimelineProcess enum (formats.md §4.2)
    case FormatVersion::Cann80: return {17, 18};  // e5a31957 trace_view
    case FormatVersion::Era2024: return {17, 19};  // c1e639ee trace_view
    }
    return {24, 27};
}

OrderedJson singleArg(const char* key, double value) {
    OrderedJson args;
    args[key] = value;
    return args;
}

CounterProcess hbmProcess(const std::vector<HardwareTrafficSample>& samples, std::uint32_t sortIndex) {
    CounterProcess process{"HBM", sortIndex, {}};
    for (const HardwareTrafficSample& sample : samples) {
        for (std::size_t stack = 0; stack < sample.hbmReadBytes.size(); ++stack) {
            const std::string prefix = "HBM " + std::to_string(stack);
            process.points.push_back(
                {prefix + "/Read", sample.timeNs,
                 singleArg("Read(MB/s)", mebibytesPerSecond(sample.hbmReadBytes[stack], sample.intervalNs))});
            process.points.push_back(
                {prefix + "/Write", sample.timeNs,
                 singleArg("Write(MB/s)", mebibytesPerSecond(sample.hbmWriteBytes[stack], sample.intervalNs))});
        }
    }
    return process;
}

CounterProcess llcProcess(const std::vector<HardwareTrafficSample>& samples, std::uint32_t sortIndex) {
    CounterProcess process{"LLC", sortIndex, {}};
    for (const HardwareTrafficSample& sample : samples) {
        for (std::size_t llc = 0; llc < sample.llcReadBytes.size(); ++llc) {
            const std::string prefix = "LLC " + std::to_string(llc) + " Read";
            const double throughput = mebibytesPerSecond(sample.llcReadBytes[llc], sample.intervalNs);
            const double hitRatio = llcHitRatio(sample.llcReadHits[llc], sample.llcReadMisses[llc]);
            process.points.push_back(
                {prefix + "/Throughput", sample.timeNs, singleArg("Throughput(MB/s)", roundedTo(throughput, 3))});
            process.points.push_back(
                {prefix + "/Hit Rate", sample.timeNs, singleArg("Hit Rate(%)", roundedTo(hitRatio, 3))});
        }
    }
    return process;
}

}  // namespace

std::vector<CounterProcess> hardwareSampleCounterProcesses(const RunRecord& run, const ProfilerConfig& config) {
    if (!config.profileMemory || run.hardwareSamples.empty()) return {};
    const SampleSortIndices indices = sortIndices(config.formatVersion);
    return {hbmProcess(run.hardwareSamples, indices.hbm), llcProcess(run.hardwareSamples, indices.llc)};
}

}  // namespace ascendsim
