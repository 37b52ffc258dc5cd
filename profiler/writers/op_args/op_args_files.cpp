#include "profiler/writers/op_args/op_args_files.h"

#include <cctype>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ascendsim {

namespace {

// op_info_serialize.cpp g_opTypeWhiteList: the operators AOE tunes, written to {pid}/.
const std::set<std::string, std::less<>> kWhiteList = {
    "FlashAttentionScore", "FlashAttentionScoreGrad", "MatMulV2", "MatMul", "BatchMatMulV2", "BatchMatMul",
    "Transpose", "TransData", "GeluGrad", "Gelu", "FastGelu", "FastGeluGrad", "SoftmaxV2", "SoftmxGrad",
    "LayerNorm", "LayerNormXBackpropV2", "LayerNormXBackpropV3", "LayerNormBetaGammaBackpropV2", "LayerNormV3",
    "Renorm"};
// g_opTypeBlackList: left out of {pid}_opcompile/.
const std::set<std::string, std::less<>> kBlackList = {
    "ReduceSum", "ReduceMin", "ReduceMax", "ArgMinWithValue", "FusedInferAttentionScore", "MoeDistributeCombine",
    "MoeDistributeCombineV2", "MoeDistributeDispatch", "MoeDistributeDispatchV2", "GatherV2", "GatherV3",
    "ArgMaxWithValue"};

// Assumed: the aclnn system configuration's defaults. impl_mode names the kernel variant
// (the sample kernel json of opbase's tests is "..._high_performance.json"); deterministic is
// torch's default (use_deterministic_algorithms off). ascendsim models neither choice.
constexpr const char* kImplMode = "high_performance";
constexpr const char* kDeterministic = "false";

nlohmann::json dims(std::string_view text) {
    nlohmann::json out = nlohmann::json::array();
    while (!text.empty()) {
        const std::size_t comma = text.find(',');
        const std::string_view dim = text.substr(0, comma);
        out.push_back(std::stoll(std::string(dim)));
        if (comma == std::string_view::npos) break;
        text.remove_prefix(comma + 1);
    }
    return out;
}

// TensorToJson: ge's serial dtype without "DT_", lower case ("float16"); CANN's format name.
// Assumed: the IR parameter names come from the kernel's binary json (supportInfo), which
// ascendsim does not have, so they are "x{i}"/"y{i}"; origin shape and format are the storage ones.
nlohmann::json tensorJson(const TensorDescription& t, std::size_t index, bool input) {
    nlohmann::json j;
    std::string dtype = t.dtype.starts_with("DT_") ? t.dtype.substr(3) : t.dtype;  // op_summary spells "DT_BF16"
    for (char& c : dtype) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string name(1, input ? 'x' : 'y');
    name += std::to_string(index);
    j["name"] = name;
    j["index"] = index;
    j["param_type"] = "required";
    j["dtype"] = dtype;
    j["shape"] = dims(t.shape);
    j["format"] = t.format;
    j["origin_shape"] = dims(t.shape);
    j["origin_format"] = t.format;
    j["value_depend"] = false;
    return j;
}

nlohmann::json recordJson(const KernelRecord& k) {
    nlohmann::json j;
    j["op_type"] = k.opType;
    j["tune_mode"] = "all";  // no dump_tool_config.ini entry for the op type
    j["inputs"] = nlohmann::json::array();
    for (std::size_t i = 0; i < k.inputs.size(); ++i) j["inputs"].push_back(tensorJson(k.inputs[i], i, true));
    j["outputs"] = nlohmann::json::array();
    for (std::size_t i = 0; i < k.outputs.size(); ++i) j["outputs"].push_back(tensorJson(k.outputs[i], i, false));
    j["attrs"] = nlohmann::json::array();  // ascendsim's ops carry no IR attributes
    j["impl_mode"] = kImplMode;
    j["deterministic"] = kDeterministic;
    return j;
}

// GetFirstShapeStr: "{dtype}_{format}_{d0}_{d1}_..._" of the first input.
std::string firstShape(const nlohmann::json& record) {
    const nlohmann::json& inputs = record["inputs"];
    if (inputs.empty()) return "";
    const nlohmann::json& first = inputs[0];
    std::string text = first["dtype"].get<std::string>() + "_" + first["format"].get<std::string>() + "_";
    for (const auto& d : first["shape"]) text += std::to_string(d.get<std::int64_t>()) + "_";
    return text;
}

void dumpSet(const std::set<nlohmann::json>& records, const std::string& folder, std::uint32_t& counter,
             std::map<std::string, std::string>& files) {
    for (const nlohmann::json& record : records) {
        const std::string name =
            record["op_type"].get<std::string>() + "_" + firstShape(record) + std::to_string(counter++) + ".json";
        files[folder + "/" + name] = record.dump(2);
    }
}

}  // namespace

std::map<std::string, std::string> opArgsFiles(const RunRecord& cycleRun, OpArgsCounters& counters) {
    std::set<nlohmann::json> opInfo, opCompile, debug;
    for (const KernelRecord& k : cycleRun.kernels) {
        if (k.device.type == TaskType::AiCpu) continue;
        const nlohmann::json record = recordJson(k);
        if (!kBlackList.contains(k.opType)) opCompile.insert(record);
        if (kWhiteList.contains(k.opType)) opInfo.insert(record);
        debug.insert(record);
    }
    // OpInfoDump's order: the white-listed set, then the op-compile set, then the debug set.
    const std::string pid = std::to_string(cycleRun.processId);
    std::map<std::string, std::string> files;
    dumpSet(opInfo, pid, counters.opInfo, files);
    dumpSet(opCompile, pid + "_opcompile", counters.opCompile, files);
    dumpSet(debug, pid + "_debug", counters.debug, files);
    return files;
}

}  // namespace ascendsim
