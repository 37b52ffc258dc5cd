#include "profiler/writers/tree/profiler_metadata.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>

#include "profiler/writers/json/json_text.h"

namespace ascendsim {

namespace {

// The environment variables torch_npu collects (prof_common_func/_utils.py collect_env_vars); the
// simulated process has none of them set, so every value is "".
constexpr std::array<const char*, 9> kEnvVariables = {
    "ASCEND_GLOBAL_LOG_LEVEL", "HCCL_RDMA_TC",           "HCCL_RDMA_SL",
    "ACLNN_CACHE_LIMIT",       "HOST_CACHE_CAPACITY",    "ASCEND_ENHANCE_ENABLE",
    "PYTORCH_NPU_ALLOC_CONF",  "ASCEND_LAUNCH_BLOCKING", "HCCL_ALGO"};

// Two FNV-1a 64-bit lanes (offset basis and prime from the FNV specification); the second lane
// starts from a different basis so the halves are independent.
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;
constexpr std::uint64_t kSecondLaneSeed = 0x9e3779b97f4a7c15ULL;

struct Hash128 {
    std::uint64_t high = kFnvOffset;
    std::uint64_t low = kFnvOffset ^ kSecondLaneSeed;
};

void hashBytes(Hash128& h, const std::string& bytes) {
    for (unsigned char c : bytes) {
        h.high = (h.high ^ c) * kFnvPrime;
        h.low = (h.low ^ c) * kFnvPrime;
        h.low = (h.low ^ (h.low >> 29)) * kFnvPrime;
    }
    h.high = (h.high ^ 0xFFu) * kFnvPrime;  // field separator
    h.low = (h.low ^ 0xFFu) * kFnvPrime;
}

}  // namespace

// torch_npu writes the metadata dict unless it is empty: ENV_VARIABLES goes into it only in text
// export (db export puts it in META_DATA), and only the 8.3 era adds a trace_id.
bool hasProfilerMetadata(const ProfilerConfig& config) {
    if (predates2025(config.formatVersion)) return false;
    return config.formatVersion == FormatVersion::Cann83 || config.exportsText();
}

OrderedJson profilerEnvironmentVariables(FormatVersion version) {
    OrderedJson env = OrderedJson::object();
    // HCCL_ALGO joined the list with torch_npu 2.7 (CANN 8.3 era); older samples have eight.
    const std::size_t count = version == FormatVersion::Cann83 ? kEnvVariables.size() : kEnvVariables.size() - 1;
    for (std::size_t i = 0; i < count; ++i) env[kEnvVariables[i]] = "";
    return env;
}

std::string profilerTraceId(const RunRecord& run, std::uint32_t cycleIndex, bool deterministic) {
    Hash128 h;
    if (deterministic) {
        hashBytes(h, run.workloadName);
        hashBytes(h, run.hostName);
        hashBytes(h, std::to_string(run.processId));
        hashBytes(h, std::to_string(run.epochNs));
        hashBytes(h, std::to_string(run.rankId));
        hashBytes(h, std::to_string(cycleIndex));
    } else {
        std::random_device device;
        for (int i = 0; i < 4; ++i) hashBytes(h, std::to_string(device()));
    }
    char text[33];
    std::snprintf(text, sizeof text, "%016llX%016llX", static_cast<unsigned long long>(h.high),
                  static_cast<unsigned long long>(h.low));
    return text;
}

std::string renderProfilerMetadata(const ProfilerConfig& config, const std::string& traceId,
                                   const std::optional<DistributedRecord>& distributed, std::int64_t rank) {
    const bool current = config.formatVersion == FormatVersion::Cann83;
    OrderedJson root = OrderedJson::object();
    if (distributed) {
        OrderedJson args = OrderedJson::object();
        args["tensor_model_parallel_size"] = distributed->tensorParallel;
        args["pipeline_model_parallel_size"] = distributed->pipelineParallel;
        args["data_parallel_size"] = distributed->dataParallel;
        args["context_parallel_size"] = 1;
        args["expert_model_parallel_size"] = distributed->expertParallel;
        // Assumed: Megatron runs with sequence parallelism whenever tensor parallelism is on.
        args["sequence_parallel"] = distributed->tensorParallel > 1;
        args["rank"] = rank;
        args["world_size"] = distributed->worldSize;
        root["distributed_args"] = args;
    }
    if (config.exportsText()) root["ENV_VARIABLES"] = profilerEnvironmentVariables(config.formatVersion);
    if (distributed) {
        OrderedJson groups = OrderedJson::object();
        for (const ParallelGroupRecord& g : distributed->groups) {
            OrderedJson group = OrderedJson::object();
            group["group_name"] = g.name;
            group["group_rank"] = g.groupRank;
            group["global_ranks"] = g.globalRanks;
            groups[g.key] = group;
        }
        root["parallel_group_info"] = groups;
    }
    if (current) {
        root["trace_id"] = traceId;
        return dumpPythonJson(root, false);
    }
    return dumpPythonJsonIndented(root, 4, false);
}

}  // namespace ascendsim
