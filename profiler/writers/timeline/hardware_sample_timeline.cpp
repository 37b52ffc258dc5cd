#include "profiler/writers/timeline/hardware_sample_timeline.h"

#include "profiler/writers/timeline/hardware_sample_rates.h"

namespace ascendsim {

namespace {

struct SampleSortIndices {
    std::uint32_t hbm;
    std::uint32_t llc;
};

SampleSortIndices sortIndices(FormatVersion version) {
    switch (version) {
        case FormatVersion::Cann83:
            return {24, 27};  // msprof C++ TimelineProcess enum (formats.md §4.2)
        case FormatVersion::Cann80:
            return {17, 18};  // e5a31957 trace_view
        case FormatVersion::Era2024:
        case FormatVersion::Era2023:  // assumed: as the 2024 era (no 2023 sample)
            return {17, 19};  // c1e639ee trace_view
    }
    return {24, 27};
}

void addHbmPoint(CounterProcess& process, const HardwareTrafficSample& sample, std::size_t stack,
                 bool write) {
    const auto& bytes = write ? sample.hbmWriteBytes : sample.hbmReadBytes;
    process.points.push_back({"HBM " + std::to_string(stack) + (write ? "/Write" : "/Read"),
                              sample.timeNs,
                              write ? "Write(MB/s)" : "Read(MB/s)", hbmBandwidth(bytes[stack], sample.intervalNs)});
}

// Python msprof: per stack its read then its write series. C++ msprof (CANN 8.3) walks the raw
// rows: every stack's read, then every stack's write (the DB's row order).
CounterProcess hbmProcess(const std::vector<HardwareTrafficSample>& samples,
                          std::uint32_t sortIndex, bool cppOrder) {
    CounterProcess process{"HBM", sortIndex, {}};
    for (const HardwareTrafficSample& sample : samples) {
        const std::size_t stacks = sample.hbmReadBytes.size();
        if (cppOrder) {
            for (std::size_t stack = 0; stack < stacks; ++stack)
                addHbmPoint(process, sample, stack, false);
            for (std::size_t stack = 0; stack < stacks; ++stack)
                addHbmPoint(process, sample, stack, true);
        } else {
            for (std::size_t stack = 0; stack < stacks; ++stack) {
                addHbmPoint(process, sample, stack, false);
                addHbmPoint(process, sample, stack, true);
            }
        }
    }
    return process;
}

// Python msprof: Throughput then Hit Rate (the ratio). C++ msprof: Hit Rate, computed back from
// its percent (`hitRate * 100 / 100`), then Throughput.
CounterProcess llcProcess(const std::vector<HardwareTrafficSample>& samples,
                          std::uint32_t sortIndex, bool cppOrder) {
    CounterProcess process{"LLC", sortIndex, {}};
    for (const HardwareTrafficSample& sample : samples) {
        for (std::size_t llc = 0; llc < sample.llcReadBytes.size(); ++llc) {
            const std::string prefix = "LLC " + std::to_string(llc) + " Read";
            const double ratio = llcHitRatio(sample.llcReadHits[llc], sample.llcReadMisses[llc]);
            CounterPoint throughput{
                prefix + "/Throughput", sample.timeNs,
                "Throughput(MB/s)", llcThroughput(sample.llcReadBytes[llc], sample.intervalNs)};
            CounterPoint hitRate{
                prefix + "/Hit Rate", sample.timeNs,
                "Hit Rate(%)", cppOrder ? percentOf(ratio) / 100.0 : ratio};
            if (cppOrder) {
                process.points.push_back(std::move(hitRate));
                process.points.push_back(std::move(throughput));
            } else {
                process.points.push_back(std::move(throughput));
                process.points.push_back(std::move(hitRate));
            }
        }
    }
    return process;
}

}  // namespace

std::vector<CounterProcess> hardwareSampleCounterProcesses(const RunRecord& run,
                                                           const ProfilerConfig& config) {
    if (!config.profileMemory || run.hardwareSamples.empty()) return {};
    const SampleSortIndices indices = sortIndices(config.formatVersion);
    const bool cppOrder = config.formatVersion == FormatVersion::Cann83;
    std::vector<CounterProcess> processes;
    if (!run.hardwareSamples.front().hbmReadBytes.empty()) {  // chips with LPDDR have no HBM
        processes.push_back(hbmProcess(run.hardwareSamples, indices.hbm, cppOrder));
    }
    processes.push_back(llcProcess(run.hardwareSamples, indices.llc, cppOrder));
    return processes;
}

}  // namespace ascendsim
