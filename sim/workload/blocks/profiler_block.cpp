// The workload's `profiler:` block, mirroring torch_npu.profiler.profile(...) arguments.
#include "sim/workload/blocks/profiler_block.h"

#include "profiler/config/torch_npu_spelling.h"

namespace ascendsim {

namespace {

std::uint32_t nonNegative(const YamlReader& reader, const YAML::Node& node,
                          const std::string& field) {
    std::string text = reader.scalar(node, field);
    try {
        std::size_t used = 0;
        long long value = std::stoll(text, &used);
        if (used == text.size() && value >= 0 && value <= 0xFFFFFFFFLL)
            return static_cast<std::uint32_t>(value);
    } catch (const std::exception&) {
    }
    reader.fail(node, field, "must be a non-negative integer, got '" + text + "'");
}

// One enumerated value in any of torch_npu's spellings (profiler/config/torch_npu_spelling.h);
// an unknown one names the field and lists the valid values.
template <typename Enum>
Enum spelledText(const YamlReader& reader, const YAML::Node& node, const std::string& field,
                 const std::string& text, ProfilerSetting setting, bool (*parse)(std::string_view, Enum&)) {
    Enum value{};
    if (!parse(text, value)) reader.fail(node, field, unknownSpellingMessage(setting, text));
    return value;
}

template <typename Enum>
Enum spelled(const YamlReader& reader, const YAML::Node& node, const std::string& field, ProfilerSetting setting,
             bool (*parse)(std::string_view, Enum&)) {
    return spelledText(reader, node, field, reader.scalar(node, field), setting, parse);
}

void readSchedule(const YamlReader& reader, const YAML::Node& node, ProfilerConfig& config) {
    if (node.IsNull()) return;
    reader.requireKnownKeys(node, {"skip_first", "wait", "warmup", "active", "repeat"},
                            "profiler.schedule");
    ProfilerSchedule s;
    if (node["skip_first"])
        s.skipFirst = nonNegative(reader, node["skip_first"], "profiler.schedule.skip_first");
    if (node["wait"]) s.wait = nonNegative(reader, node["wait"], "profiler.schedule.wait");
    if (node["warmup"]) s.warmup = nonNegative(reader, node["warmup"], "profiler.schedule.warmup");
    if (node["active"]) s.active = nonNegative(reader, node["active"], "profiler.schedule.active");
    if (node["repeat"]) s.repeat = nonNegative(reader, node["repeat"], "profiler.schedule.repeat");
    if (s.active == 0)
        reader.fail(node["active"] ? node["active"] : node, "profiler.schedule.active",
                    "active must be at least 1");
    config.schedule = s;
}

void readExperimental(const YamlReader& reader, const YAML::Node& node, ProfilerConfig& config) {
    const std::string f = "profiler.experimental_config";
    reader.requireKnownKeys(node,
                            {"profiler_level", "aic_metrics", "l2_cache", "data_simplification",
                             "record_op_args", "export_type", "msprof_tx", "op_attr"},
                            f);
    if (const YAML::Node level = node["profiler_level"])
        config.level = spelled<ProfilerLevel>(reader, level, f + ".profiler_level", ProfilerSetting::Level,
                                              parseProfilerLevel);
    if (const YAML::Node metrics = node["aic_metrics"])
        config.aicMetrics = spelled<AicMetrics>(reader, metrics, f + ".aic_metrics", ProfilerSetting::AicMetrics,
                                                parseAicMetrics);
    if (node["l2_cache"]) config.l2Cache = reader.boolean(node["l2_cache"], f + ".l2_cache");
    if (node["data_simplification"]) {
        config.dataSimplification =
            reader.boolean(node["data_simplification"], f + ".data_simplification");
        config.dataSimplificationGiven = true;
    }
    if (node["record_op_args"])
        config.recordOpArgs = reader.boolean(node["record_op_args"], f + ".record_op_args");
    if (node["msprof_tx"]) config.msprofTx = reader.boolean(node["msprof_tx"], f + ".msprof_tx");
    if (node["op_attr"]) config.opAttr = reader.boolean(node["op_attr"], f + ".op_attr");
    if (const YAML::Node exports = node["export_type"]) {
        config.exportTypes.clear();
        for (const auto& text : reader.scalarList(exports, f + ".export_type"))
            config.exportTypes.push_back(
                spelledText<ExportType>(reader, exports, f + ".export_type", text, ProfilerSetting::ExportType,
                                        parseExportType));
        if (config.exportTypes.empty())
            reader.fail(exports, f + ".export_type", "needs at least one of text, db");
    }
}

}  // namespace

ProfilerConfig readProfilerBlock(const YamlReader& reader, const YAML::Node& node) {
    ProfilerConfig config;
    reader.requireKnownKeys(node,
                            {"activities", "schedule", "record_shapes", "profile_memory",
                             "with_stack", "with_modules", "with_flops", "experimental_config"},
                            "profiler");
    if (const YAML::Node activities = node["activities"]) {
        config.activityCpu = config.activityNpu = false;
        for (const auto& text : reader.scalarList(activities, "profiler.activities")) {
            const auto activity = spelledText<ProfilerActivity>(reader, activities, "profiler.activities", text,
                                                                ProfilerSetting::Activity, parseProfilerActivity);
            (activity == ProfilerActivity::Cpu ? config.activityCpu : config.activityNpu) = true;
        }
    }
    if (node["schedule"]) readSchedule(reader, node["schedule"], config);
    if (node["record_shapes"])
        config.recordShapes = reader.boolean(node["record_shapes"], "profiler.record_shapes");
    if (node["profile_memory"])
        config.profileMemory = reader.boolean(node["profile_memory"], "profiler.profile_memory");
    if (node["with_stack"])
        config.withStack = reader.boolean(node["with_stack"], "profiler.with_stack");
    if (node["with_modules"])
        config.withModules = reader.boolean(node["with_modules"], "profiler.with_modules");
    if (node["with_flops"])
        config.withFlops = reader.boolean(node["with_flops"], "profiler.with_flops");
    if (node["experimental_config"]) readExperimental(reader, node["experimental_config"], config);
    return config;
}

}  // namespace ascendsim
