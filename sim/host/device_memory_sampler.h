#pragma once
// CANN-side memory views of the process: the GE allocator (memory_record "GE" rows and
// operator_memory "cann::" rows, aclop-path ops only), the periodic npu_mem "APP" samples (all
// device memory the process holds) and npu_module_mem (reservation per CANN module).
// formats.md §1.6 (profile_memory -> TASK_MEMORY + sys hardware mem at 50 Hz), §3.6-§3.8.
#include <cstdint>
#include <string>
#include <vector>

#include "profiler/record/cann_modules.h"
#include "profiler/record/collection_windows.h"
#include "profiler/record/run_record.h"

namespace ascendsim {

struct DeviceMemoryConstants {
    // 50 Hz sampling: the real memory_record APP rows and npu_module_mem rows are 20 ms apart.
    static constexpr std::uint64_t kSamplePeriodNs = 20'000'000;
    // Module reservations of a real 910B process (MiB values of the real npu_module_mem.csv):
    // RUNTIME 92.1875 (e5a31957 level1), SLOG 158.65234375 (ef63bc64, CANN 8.3), HCCL 404.0625
    // (e5a31957, 8-rank job; 0 without collectives).
    static constexpr std::int64_t kRuntimeReservedBytes = 96'665'600;
    static constexpr std::int64_t kSlogReservedBytes = 166'359'040;
    static constexpr std::int64_t kHcclReservedBytes = 423'690'240;
    // npu_mem APP minus the sum of the module rows in the same sample (2109.6 - 2024.3 MiB):
    // driver/context memory no module owns.
    static constexpr std::int64_t kProcessContextBytes = 89'478'758;
    // GE grows its pool in 2 MiB pages; the GE module row shows the pool (74.75 MiB of GE
    // allocator reservation appears as a 76 MiB GE module row).
    static constexpr std::int64_t kGePageBytes = 2 * 1024 * 1024;
};

class DeviceMemorySampler {
public:
    explicit DeviceMemorySampler(bool hcclEnabled) : hcclEnabled_(hcclEnabled) {}

    void setRecording(bool on) { recording_ = on; }

    // The framework allocators' reserved bytes at timeNs. The PTA caching allocator (Python
    // thread) and the workspace allocator (dequeue thread) are noted separately, each in time order.
    void notePtaReserved(std::uint64_t timeNs, std::int64_t reservedBytes);
    void noteWorkspaceReserved(std::uint64_t timeNs, std::int64_t reservedBytes);

    // A GE-internal buffer of an aclop-path kernel: allocated at allocNs, released at releaseNs.
    void geBuffer(const std::string& name, std::int64_t bytes, std::uint64_t allocNs,
                  std::uint64_t releaseNs);

    // A time window the profiler collects (a profiled step); samples are taken inside windows.
    void addCollectionWindow(std::uint64_t startNs, std::uint64_t endNs);

    // Appends geMemory, geOpMemory, appMemory and moduleMemory to `record`.
    void finish(RunRecord& record);

private:
    struct Step {
        std::uint64_t timeNs;
        std::int64_t value;
    };
    static std::int64_t valueAt(const std::vector<Step>& history, std::uint64_t timeNs);
    static void note(std::vector<Step>& history, std::uint64_t timeNs, std::int64_t value);
    std::int64_t frameworkReservedAt(std::uint64_t timeNs) const;
    std::vector<std::uint64_t> sampleTimes() const;

    bool hcclEnabled_;
    bool recording_ = false;
    std::vector<Step> ptaReserved_;
    std::vector<Step> workspaceReserved_;
    std::vector<Step> geReserved_;
    struct GeEvent {
        std::uint64_t timeNs;
        std::int64_t delta;
        std::size_t opRecord;  // index into geOps_
        bool recorded;
    };
    std::vector<GeEvent> geEvents_;
    std::vector<GeOpMemoryRecord> geOps_;
    std::vector<CollectionWindow> windows_;
};

}  // namespace ascendsim
