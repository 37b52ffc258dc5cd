// loadWorkload: YAML file + `--set` overrides -> a flattened, shape-checked Workload.
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>

#include "sim/workload/e2e_profile_block.h"
#include "sim/workload/block_expander.h"
#include "sim/workload/profiler_block.h"
#include "sim/workload/workload.h"
#include "sim/workload/workload_graph.h"
#include "sim/workload/workload_limits.h"

namespace ascendsim {

namespace {

struct SetOverride {
    std::string key;
    std::string value;
    std::size_t index = 0;
    bool used = false;
};

constexpr std::string_view kOpPrefix = "op.";
constexpr std::string_view kBlockDimSuffix = ".block_dim";

std::vector<SetOverride> parseOverrides(const WorkloadOverrides& overrides) {
    std::vector<SetOverride> parsed;
    for (std::size_t i = 0; i < overrides.sets.size(); ++i) {
        const std::string& entry = overrides.sets[i];
        std::size_t eq = entry.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw WorkloadError(commandLineLocation(i), "--set " + entry, "expected key=value");
        }
        parsed.push_back(SetOverride{entry.substr(0, eq), entry.substr(eq + 1), i, false});
    }
    return parsed;
}

bool isBlockDimKey(const std::string& key) {
    return key.size() > kOpPrefix.size() + kBlockDimSuffix.size() && key.rfind(kOpPrefix, 0) == 0 &&
           key.compare(key.size() - kBlockDimSuffix.size(), kBlockDimSuffix.size(),
                       kBlockDimSuffix) == 0;
}

SetOverride* findOverride(std::vector<SetOverride>& overrides, const std::string& key) {
    SetOverride* found = nullptr;
    for (auto& o : overrides) {
        if (o.key == key) found = &o;  // the last --set of a key wins
    }
    return found;
}

void readParameters(const YamlReader& reader, const YAML::Node& node,
                    std::vector<SetOverride>& overrides, Workload& w) {
    if (!node) return;
    reader.requireMap(node, "parameters");
    for (const auto& entry : node) {
        std::string key = entry.first.Scalar();
        std::string field = "parameters." + key;
        if (key == "index" || key == "prefix" || key == "steps" || key == "ranks")
            reader.fail(entry.first, field, "'" + key + "' is a reserved name");
        SetOverride* set = findOverride(overrides, key);
        std::string raw = set ? set->value : reader.scalar(entry.second, field);
        for (auto& o : overrides) o.used = o.used || o.key == key;
        try {
            w.parameters[key] = resolveParameterText(raw, w.parameters);
            // An integer parameter stays an integer: `--set batch=abc` fails here, not in a shape.
            if (set && !tryEvaluateInteger(w.parameters[key], {}) &&
                tryEvaluateInteger(reader.scalar(entry.second, field), w.parameters)) {
                throw ExpressionError("'" + raw + "' is not an integer (the workload's default '" +
                                      reader.scalar(entry.second, field) + "' is)");
            }
        } catch (const ExpressionError& e) {
            if (set) throw WorkloadError(commandLineLocation(set->index), "--set " + key, e.what());
            reader.fail(entry.second, field, e.what());
        }
    }
}

void applyBlockDimOverrides(std::vector<SetOverride>& overrides, Workload& w) {
    for (auto& o : overrides) {
        if (!isBlockDimKey(o.key)) continue;
        std::string opName = o.key.substr(kOpPrefix.size(),
                                          o.key.size() - kOpPrefix.size() - kBlockDimSuffix.size());
        auto op = std::find_if(w.ops.begin(), w.ops.end(),
                               [&](const WorkloadOp& x) { return x.name == opName; });
        if (op == w.ops.end())
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "no op named '" + opName + "'");
        auto value = tryEvaluateInteger(o.value, w.parameters);
        if (!value || *value <= 0 || *value > 65535) {
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "block_dim must be an integer in 1..65535, got '" + o.value + "'");
        }
        op->blockDim = static_cast<std::uint32_t>(*value);
        op->fieldLocations["block_dim"] = commandLineLocation(o.index);
        o.used = true;
    }
}

// Length of the UTF-8 sequence starting at text[i], or 0 when it is not valid UTF-8.
std::size_t utf8Length(const std::string& text, std::size_t i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > text.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return 0;
    }
    return n;
}

// YAML text is UTF-8 without C0 control bytes but tab, LF and CR. yaml-cpp 0.7 loops without
// end, growing, on a NUL or on 0xff bytes inside a document (fuzz_workload_loader), so such
// bytes stop reading at their place.
void rejectControlBytes(const std::string& path, const std::string& text) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = utf8Length(text, i);
        if (n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", c);
            throw WorkloadError(SourceLocation{path, line, column}, "yaml",
                                std::string(n == 0 ? "byte " : "control character ") + hex +
                                    (n == 0 ? " is not UTF-8" : " is not allowed in YAML"));
        }
        if (c == '\n') line += 1, column = 1;
        else column += 1;
        i += n;
    }
}

YAML::Node parseFile(const std::string& path) {
    std::error_code ec;
    const std::uintmax_t fileBytes = std::filesystem::file_size(path, ec);
    if (!ec && fileBytes > kMaxWorkloadFileBytes) {
        throw WorkloadError(SourceLocation{path, 0, 0}, "file",
                            "the workload file is " + byteText(fileBytes) + "; at most " +
                                byteText(kMaxWorkloadFileBytes) +
                                " is read, since the YAML reader holds about " +
                                std::to_string(kYamlHostBytesPerFileByte) +
                                " bytes per byte of file (this one would need about " +
                                byteText(fileBytes * kYamlHostBytesPerFileByte) +
                                "): write repeated layers as a block with repeat:");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int reason = errno;
        throw WorkloadError(SourceLocation{path, 0, 0}, "file",
                            "cannot open the workload file: " +
                                std::string(reason != 0 ? std::strerror(reason) : "unreadable"));
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    rejectControlBytes(path, text);
    try {
        std::vector<YAML::Node> documents = YAML::LoadAll(text);
        if (documents.size() > 1) {
            // A second document would otherwise be ignored without a word.
            const YAML::Mark second = documents[1].Mark();
            throw WorkloadError(SourceLocation{path, second.is_null() ? 0 : second.line + 1,
                                               second.is_null() ? 0 : second.column + 1},
                                "yaml",
                                "the file holds " + std::to_string(documents.size()) +
                                    " YAML documents ('---'); a workload is one document");
        }
        return documents.empty() ? YAML::Node() : documents.front();
    } catch (const YAML::ParserException& e) {
        throw WorkloadError(SourceLocation{path, e.mark.line + 1, e.mark.column + 1}, "yaml",
                            e.msg);
    }
}

// A top-level positive integer (`steps`, `ranks`): its `--set` override wins; 1 when absent.
std::uint32_t readPositiveCount(const YamlReader& reader, const YAML::Node& root,
                                std::vector<SetOverride>& sets, const std::string& key,
                                const Workload& w) {
    SetOverride* set = findOverride(sets, key);
    if (!set && !root[key]) return 1;
    const std::string raw = set ? set->value : reader.scalar(root[key], key);
    std::optional<std::int64_t> value;
    try {
        value = evaluateInteger(raw, w.parameters);
    } catch (const ExpressionError&) {
    }
    if (!value || *value < 1 || *value > std::numeric_limits<std::uint32_t>::max()) {
        const std::string problem = key + " must be a positive integer, got '" + raw + "'";
        if (set) throw WorkloadError(commandLineLocation(set->index), "--set " + key, problem);
        reader.fail(root[key], key, problem);
    }
    for (auto& o : sets) o.used = o.used || o.key == key;
    return static_cast<std::uint32_t>(*value);
}

Workload loadWorkloadNodes(const std::string& path, const WorkloadOverrides& overrides);

}  // namespace

Workload loadWorkload(const std::string& path, const WorkloadOverrides& overrides) {
    try {
        return loadWorkloadNodes(path, overrides);
    } catch (const YAML::Exception& e) {
        // A node used as the wrong kind that a reader did not check first (yaml-cpp throws
        // BadSubscript, BadConversion): still bad input at a known line, not a runtime failure.
        throw WorkloadError(SourceLocation{path, e.mark.is_null() ? 0 : e.mark.line + 1,
                                           e.mark.is_null() ? 0 : e.mark.column + 1},
                            "yaml", e.msg);
    }
}

namespace {

Workload loadWorkloadNodes(const std::string& path, const WorkloadOverrides& overrides) {
    YamlReader reader(path);
    YAML::Node root = parseFile(path);
    std::vector<SetOverride> sets = parseOverrides(overrides);
    reader.requireKnownKeys(root,
                            {"name", "parameters", "steps", "ranks", "chip", "base_stack",
                             "module_classes", "tensors", "blocks", "ops", "profiler", "e2e_profile"},
                            "");
    Workload w;
    w.sourceFile = path;
    w.location = reader.locationOf(root);
    if (!root["name"]) reader.fail(root, "name", "the workload needs a name");
    readParameters(reader, root["parameters"], sets, w);
    ExpansionScope top;
    top.params = w.parameters;
    w.name = reader.scalar(root["name"], "name");
    w.steps = readPositiveCount(reader, root, sets, "steps", w);
    w.ranks = readPositiveCount(reader, root, sets, "ranks", w);
    for (const auto& o : sets) {
        if (!o.used && !isBlockDimKey(o.key)) {
            std::string known;
            for (const auto& [k, v] : w.parameters) {
                if (!known.empty()) known += ", ";
                known += k;
            }
            throw WorkloadError(commandLineLocation(o.index), "--set " + o.key,
                                "unknown parameter '" + o.key +
                                    "' (parameters: " + (known.empty() ? "none" : known) +
                                    "; also steps, ranks and op.<NAME>.block_dim)");
        }
    }
    if (root["chip"]) {
        try {
            w.chip = substituteParameters(reader.scalar(root["chip"], "chip"), w.parameters);
        } catch (const ExpressionError& e) {
            reader.fail(root["chip"], "chip", e.what());
        }
    }
    if (root["base_stack"]) {
        // Frames take parameters like an op's `stack` does ("$torch/nn/modules/module.py(1527)").
        for (const auto& frame : reader.scalarList(root["base_stack"], "base_stack")) {
            try {
                top.outerStack.push_back(substituteParameters(frame, w.parameters));
            } catch (const ExpressionError& e) {
                reader.fail(root["base_stack"], "base_stack", e.what());
            }
        }
    }
    if (const YAML::Node classes = root["module_classes"]) {
        reader.requireMap(classes, "module_classes");
        for (const auto& entry : classes) {
            const std::string suffix = reader.scalar(entry.first, "module_classes");
            w.moduleClasses[suffix] = reader.scalar(entry.second, "module_classes." + suffix);
        }
    }
    BlockExpander expander(reader, root["blocks"], w.parameters);
    expander.expandTensors(root["tensors"], top, "tensors", w.tensors);
    expander.expandOps(root["ops"], top, "ops", w.tensors, w.ops);
    if (w.ops.empty())
        reader.fail(root["ops"] ? root["ops"] : root, "ops", "the workload has no ops");
    applyBlockDimOverrides(sets, w);
    checkWorkloadLimits(w);  // declared tensors and view chains, before the graph follows them
    checkWorkloadGraph(w, true);
    checkWorkloadLimits(w);  // tensors the graph inferred
    if (root["profiler"]) {
        w.profiler = readProfilerBlock(reader, root["profiler"]);
        w.hasProfilerBlock = true;
    }
    if (root["e2e_profile"]) {
        if (root["profiler"])
            reader.fail(root["e2e_profile"], "e2e_profile",
                        "a workload profiles with either torch_npu.profiler (`profiler:`) or E2E (`e2e_profile:`)");
        applyE2eProfile(readE2eProfileBlock(reader, root["e2e_profile"], w.steps), w.profiler);
        w.hasProfilerBlock = true;
    }
    return w;
}

}  // namespace

}  // namespace ascendsim
