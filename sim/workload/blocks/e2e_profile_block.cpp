#include "sim/workload/blocks/e2e_profile_block.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ascendsim {

namespace {

struct FlagField {
    std::string_view name;
    bool AclProfFlags::*field;
};

constexpr std::array<FlagField, 7> kFlags = {{
    {"ACL_PROF_ACL_API", &AclProfFlags::aclApi},
    {"ACL_PROF_TASK_TIME", &AclProfFlags::taskTime},
    {"ACL_PROF_AICORE_METRICS", &AclProfFlags::aicoreMetrics},
    {"ACL_PROF_AICPU", &AclProfFlags::aicpu},
    {"ACL_PROF_L2CACHE", &AclProfFlags::l2cache},
    {"ACL_PROF_HCCL_TRACE", &AclProfFlags::hcclTrace},
    {"ACL_PROF_TRAINING_TRACE", &AclProfFlags::trainingTrace},
}};

constexpr const char* kMetricsTypes = "0, 1, 2, 3, 4, 5 or 0xFF";

bool parseBool(std::string_view text, bool& out) {
    if (text == "true" || text == "True" || text == "1") return out = true, true;
    if (text == "false" || text == "False" || text == "0") return out = false, true;
    return false;
}

}  // namespace

bool setAclProfFlag(AclProfFlags& flags, std::string_view name, bool value) {
    for (const FlagField& f : kFlags) {
        if (f.name == name) {
            flags.*f.field = value;
            return true;
        }
    }
    return false;
}

std::string aclProfFlagNames() {
    std::string names;
    for (const FlagField& f : kFlags) {
        if (!names.empty()) names += ", ";
        names += f.name;
    }
    return names;
}

void applyAclProfOption(const std::string& text, AclProfFlags& flags) {
    const SourceLocation where{"<command line>", 0, 0};
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, end - begin);
        const std::size_t eq = item.find('=');
        bool value = false;
        if (eq == std::string::npos || !parseBool(item.substr(eq + 1), value))
            throw WorkloadError(where, "--acl-prof", "'" + item + "' is not FLAG=true|false");
        if (!setAclProfFlag(flags, item.substr(0, eq), value))
            throw WorkloadError(where, "--acl-prof",
                                "unknown flag '" + item.substr(0, eq) + "' (" + aclProfFlagNames() + ")");
        begin = end + 1;
    }
}

E2eProfile readE2eProfileBlock(const YamlReader& reader, const YAML::Node& node, std::uint32_t steps) {
    const std::string f = "e2e_profile";
    reader.requireMap(node, f);
    reader.requireKnownKeys(node, {"use_e2e_profiler", "profiler_result_path", "steps", "config"}, f);
    E2eProfile e2e;
    if (node["use_e2e_profiler"]) e2e.useE2eProfiler = reader.boolean(node["use_e2e_profiler"], f + ".use_e2e_profiler");
    if (node["profiler_result_path"])
        e2e.resultPath = reader.scalar(node["profiler_result_path"], f + ".profiler_result_path");
    if (const YAML::Node list = node["steps"]) {
        for (const std::string& text : reader.scalarList(list, f + ".steps")) {
            std::uint32_t step = 0;
            try {
                std::size_t used = 0;
                const unsigned long value = std::stoul(text, &used);
                if (used != text.size() || value == 0 || value > steps) throw std::out_of_range(text);
                step = static_cast<std::uint32_t>(value);
            } catch (const std::exception&) {
                reader.fail(list, f + ".steps",
                            "'" + text + "' is not a step of the workload (1.." + std::to_string(steps) + ")");
            }
            if (!e2e.steps.empty() && step != e2e.steps.back() + 1)
                reader.fail(list, f + ".steps", "profiled steps must be consecutive (one profile() region)");
            e2e.steps.push_back(step);
        }
    }
    if (const YAML::Node config = node["config"]) {
        reader.requireMap(config, f + ".config");
        for (const auto& entry : config) {
            const std::string key = reader.scalar(entry.first, f + ".config");
            const std::string field = f + ".config." + key;
            if (key == "aiCoreMetricsType") {
                const std::string text = reader.scalar(entry.second, field);
                if (!parseAiCoreMetricsType(text, e2e.aiCoreMetricsType))
                    reader.fail(entry.second, field, "unknown aiCoreMetricsType '" + text + "' (" + kMetricsTypes + ")");
            } else if (!setAclProfFlag(e2e.flags, key, reader.boolean(entry.second, field))) {
                reader.fail(entry.first, field,
                            "unknown profileConfig key '" + key + "' (" + aclProfFlagNames() + ", aiCoreMetricsType)");
            }
        }
    }
    return e2e;
}

void applyE2eProfile(const E2eProfile& e2e, ProfilerConfig& config) {
    config.e2e = e2e;
    config.formatVersion = FormatVersion::Era2023;
    config.level = ProfilerLevel::Level1;
    config.activityNpu = true;
    config.activityCpu = e2e.useE2eProfiler;
    config.aicMetrics = e2e.flags.aicoreMetrics ? aicMetricsOfType(e2e.aiCoreMetricsType) : AicMetrics::None;
    config.l2Cache = e2e.flags.l2cache;
    if (!e2e.steps.empty()) {
        ProfilerSchedule schedule;
        schedule.skipFirst = e2e.steps.front() - 1;
        schedule.active = static_cast<std::uint32_t>(e2e.steps.size());
        schedule.repeat = 1;
        config.schedule = schedule;
    }
}

}  // namespace ascendsim
