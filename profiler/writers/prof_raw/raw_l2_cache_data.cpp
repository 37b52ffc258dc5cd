#include "profiler/writers/prof_raw/raw_l2_cache_data.h"

#include <algorithm>
#include <vector>

#include "profiler/writers/era2023/era2023_data_selection.h"
#include "profiler/writers/tree/prof_tree.h"

namespace ascendsim {

namespace {

enum class L2Sum { ReadRequests, WriteRequests, Requests, ReadHits, WriteHits, Hits, Victims };

struct L2Event {
    const char* id;
    L2Sum sum;
};

// The events of each platform's formula (l2_cache_config.py), in the order the record carries them.
std::vector<L2Event> l2Events(const ChipConfig& chip) {
    const std::string platform = msprofPlatformVersion(chip);
    if (platform == "5")
        return {{"0xfb", L2Sum::ReadRequests}, {"0xfc", L2Sum::WriteRequests}, {"0x90", L2Sum::ReadHits},
                {"0x91", L2Sum::WriteHits},    {"0x9c", L2Sum::Victims}};
    if (platform == "4")
        return {{"0x78", L2Sum::ReadRequests}, {"0x79", L2Sum::WriteRequests}, {"0x6a", L2Sum::Hits},
                {"0x71", L2Sum::Victims}};
    return {{"0x59", L2Sum::Requests}, {"0x5b", L2Sum::Hits}, {"0x5c", L2Sum::Victims}};
}

// HBM write-back counts per L2 line (main_mem_write counts bytes in units of bytesPerCount).
std::uint64_t countsPerLine(const ChipConfig& chip) {
    const std::uint64_t bytesPerCount = pmuEventInfo(PmuEvent::MainMemWrite).bytesPerCount;
    return bytesPerCount == 0 ? 0 : chip.l2.lineBytes / bytesPerCount;
}

std::uint64_t sumOf(L2Sum sum, const PmuCounters& c, const ChipConfig& chip) {
    const std::uint64_t readHits = c[PmuEvent::L2R0ReadHit] + c[PmuEvent::L2R1ReadHit];
    const std::uint64_t writeHits = c[PmuEvent::L2WriteHit];
    const std::uint64_t readRequests = readHits + c[PmuEvent::L2R0ReadMissAllocate] + c[PmuEvent::L2R1ReadMissAllocate];
    const std::uint64_t writeRequests = writeHits + c[PmuEvent::L2WriteMissAllocate];
    switch (sum) {
        case L2Sum::ReadRequests: return readRequests;
        case L2Sum::WriteRequests: return writeRequests;
        case L2Sum::Requests: return readRequests + writeRequests;
        case L2Sum::ReadHits: return readHits;
        case L2Sum::WriteHits: return writeHits;
        case L2Sum::Hits: return readHits + writeHits;
        case L2Sum::Victims: {
            const std::uint64_t perLine = countsPerLine(chip);
            return perLine == 0 ? 0 : c[PmuEvent::MainMemWrite] / perLine;
        }
    }
    return 0;
}

bool onVectorSide(TaskType type) { return type == TaskType::AiVectorCore || type == TaskType::MixAiv; }

}  // namespace

std::string l2CacheProfilingEvents(const ChipConfig& chip) {
    std::string text;
    for (const L2Event& e : l2Events(chip)) {
        if (!text.empty()) text += ',';
        text += e.id;
    }
    return text;
}

std::string rawL2CacheRecords(const RunRecord& run, const ProfilerConfig& config) {
    if (!era2023DataSelection(config).l2Cache) return {};
    const std::vector<L2Event> events = l2Events(*run.chip);
    std::vector<const KernelRecord*> kernels;
    for (const KernelRecord& k : run.kernels)
        if (k.device.type != TaskType::AiCpu) kernels.push_back(&k);
    std::stable_sort(kernels.begin(), kernels.end(), [](const KernelRecord* a, const KernelRecord* b) {
        return a->device.startNs < b->device.startNs;
    });
    RawRecordBuffer out;
    for (const KernelRecord* k : kernels) {
        PmuCounters c = k->device.cubeSum;
        c += k->device.vectorSum;
        RawL2Cache r;
        r.taskType = 0;  // assumed: msprof reads it but no formula or export uses it
        r.streamId = static_cast<std::uint16_t>(k->device.streamId);
        r.taskId = static_cast<std::uint16_t>(k->taskId);
        for (std::size_t i = 0; i < events.size(); ++i) r.events[i] = sumOf(events[i].sum, c, *run.chip);
        encodeRaw(r, out);
    }
    return out.bytes();
}

bool applyRawL2Cache(const RawL2Cache& record, const ChipConfig& chip, TaskResult& task) {
    std::uint64_t requests = 0, hits = 0, victims = 0;
    const std::vector<L2Event> events = l2Events(chip);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const L2Sum sum = events[i].sum;
        if (sum == L2Sum::ReadRequests || sum == L2Sum::WriteRequests || sum == L2Sum::Requests)
            requests += record.events[i];
        if (sum == L2Sum::ReadHits || sum == L2Sum::WriteHits || sum == L2Sum::Hits) hits += record.events[i];
        if (sum == L2Sum::Victims) victims = record.events[i];
    }
    if (hits > requests) return false;
    // l2CacheRates sums both sides' counters; only the sums count, so reads stand for all requests.
    PmuCounters& c = onVectorSide(task.type) ? task.vectorSum : task.cubeSum;
    c[PmuEvent::L2R0ReadHit] = hits;
    c[PmuEvent::L2R0ReadMissAllocate] = requests - hits;
    c[PmuEvent::MainMemWrite] = victims * countsPerLine(chip);
    return true;
}

}  // namespace ascendsim
