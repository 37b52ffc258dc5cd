#pragma once
// The workload's `parallel:` block (tp, pp, dp, optional ep) and the process groups Megatron-LM
// builds from it. Rank order is Megatron's default "tp-cp-ep-dp-pp": tensor-parallel ranks are
// adjacent, then data-parallel replicas, then pipeline stages
// (rank = tp_index + tp * (dp_index + dp * pp_index)); context parallelism is 1.
#include <cstdint>
#include <string>
#include <vector>

namespace ascendsim {

struct ParallelLayout {
    std::uint32_t tp = 1;
    std::uint32_t pp = 1;
    std::uint32_t dp = 1;
    std::uint32_t ep = 1;  // expert parallel: splits each data-parallel group (divides dp)
    bool declared = false;  // the workload has a `parallel:` block

    std::uint32_t worldSize() const { return tp * pp * dp; }
    std::uint32_t tpIndex(std::uint32_t rank) const { return rank % tp; }
    std::uint32_t dpIndex(std::uint32_t rank) const { return rank / tp % dp; }
    std::uint32_t ppIndex(std::uint32_t rank) const { return rank / (tp * dp); }
};

// One process group a rank belongs to, as profiler_metadata.json's parallel_group_info lists it.
struct ParallelGroup {
    std::string key;   // "group_name_<n>": torch's process-group name (creation counter)
    std::string name;  // Megatron's role: "default_group", "dp", "dp_cp", "mp", "tp", "pp", ...
    std::uint32_t groupRank = 0;
    std::vector<std::uint32_t> globalRanks;
};

// The group kinds a collective may name with its `group` attribute.
bool isCollectiveGroupName(const std::string& name);
// "world, tp, dp, pp, ep, mp" for error messages.
std::string collectiveGroupNames();

// The members of `rank`'s group of kind `name` ("world"/"default_group", "tp", "dp", "dp_cp",
// "pp", "mp" = tp x pp, "embd" = the first and last pipeline stage, "ep", "dp_modulo_exp"),
// ascending. Throws std::invalid_argument for an unknown kind or a rank outside the world.
std::vector<std::uint32_t> groupMembers(const ParallelLayout& layout, const std::string& name,
                                        std::uint32_t rank);

// Every group `rank` is in, in torch's creation order, numbered as Megatron-LM's
// initialize_model_parallel creates them (the ef63bc64 sample, TP1 PP2 DP2: default 0, dp 1/3
// (each with a gloo twin), dp_cp 5/7, cp 9..12, mp 13/14, tp 15..18, pp/embd/position_embd
// 19-21 and 22-24): so the keys match a real run of the same shape.
std::vector<ParallelGroup> parallelGroupsOf(const ParallelLayout& layout, std::uint32_t rank);

// The HCCL communicator name (a decimal 64-bit hash, as HCCL traces print it) of the group a
// key names. For torch's process-group names ("group_name_5"): HCCL's hash of the name, two
// 32-bit polynomial lanes (primes 29 and 131) side by side, the "double_hash" msprof-analyze
// uses to match communication.json's groups to parallel_group_info; it reproduces the real
// ef63bc64 keys (group_name_5 -> 5862276114690318097, group_name_19 -> 3985310405473756128).
// "hccl_world_group" (runs without a `parallel:` block) keeps the FNV-1a hash earlier versions
// wrote, so their trees stay as they were.
std::string communicatorHash(const std::string& groupKey);

// The key of `rank`'s group of collective kind `name`: group_name_<n> (the world is
// group_name_0, a data-parallel collective uses dp_cp, as Megatron's gradient sync does and the
// ef63bc64 sample's reduce-scatters show); without a `parallel:` block "hccl_world_group".
std::string collectiveGroupKey(const ParallelLayout& layout, const std::string& name,
                               std::uint32_t rank);

}  // namespace ascendsim
