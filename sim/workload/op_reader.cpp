// Reading one op or tensor entry (inside or outside a block) into its flattened form.
#include <cmath>

#include "sim/workload/block_expander.h"
#include "sim/workload/schema/op_schema.h"
#include "sim/workload/tensor_text.h"

namespace ascendsim {

namespace {

constexpr std::int64_t kMaxBlockDim = 65535;  // task descriptor's block_dim field is 16 bits

std::vector<std::string> splitPath(const std::string& path) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t slash = path.find('/', start);
        if (slash == std::string::npos) slash = path.size();
        if (slash > start) parts.push_back(path.substr(start, slash - start));
        start = slash + 1;
    }
    return parts;
}

std::string sub(const std::string& field, std::size_t i) {
    return field + "[" + std::to_string(i) + "]";
}

}  // namespace

std::string BlockExpander::text(const YAML::Node& node, const ExpansionScope& scope,
                                const std::string& field) const {
    std::string raw = reader_.scalar(node, field);
    try {
        return substituteParameters(raw, scope.params);
    } catch (const ExpressionError& e) {
        reader_.fail(node, field, e.what() + scope.blockContext);
    }
}

std::int64_t BlockExpander::integer(const YAML::Node& node, const ExpansionScope& scope,
                                    const std::string& field) const {
    std::string raw = reader_.scalar(node, field);
    try {
        return evaluateInteger(raw, scope.params);
    } catch (const ExpressionError& e) {
        reader_.fail(node, field, e.what() + scope.blockContext);
    }
}

std::string BlockExpander::tensorName(const YAML::Node& node, const ExpansionScope& scope,
                                      const std::string& field) const {
    std::string raw = reader_.scalar(node, field);
    if (raw.empty()) reader_.fail(node, field, "empty tensor name");
    if (!containsSubstitution(raw)) {
        if (auto it = scope.inputBindings.find(raw); it != scope.inputBindings.end())
            return it->second;
        if (scope.localTensors.count(raw)) return scope.prefix + "." + raw;
        return raw;
    }
    return text(node, scope, field);
}

std::string BlockExpander::substitute(const YAML::Node& node, const std::string& raw,
                                      const ParameterValues& params,
                                      const std::string& field) const {
    try {
        return substituteParameters(raw, params);
    } catch (const ExpressionError& e) {
        reader_.fail(node, field, e.what());
    }
}

std::string BlockExpander::opName(const std::string& raw, const ExpansionScope& scope) const {
    return scope.prefix.empty() ? raw : scope.prefix + "." + raw;
}

bool BlockExpander::included(const YAML::Node& node, const ExpansionScope& scope,
                             const std::string& field) const {
    const YAML::Node when = node["when"];
    return !when || integer(when, scope, field + ".when") != 0;
}

WorkloadTensor BlockExpander::readTensor(const YAML::Node& node, const ExpansionScope& scope,
                                         const std::string& field) const {
    reader_.requireKnownKeys(node, {"name", "shape", "dtype", "format", "kind", "view_of", "when"},
                             field);
    WorkloadTensor t;
    t.location = reader_.locationOf(node);
    t.fieldPath = field;
    if (!node["name"]) reader_.fail(node, field, "a tensor needs a name");
    t.info.name = tensorName(node["name"], scope, field + ".name");
    if (!node["shape"]) reader_.fail(node, field, "tensor '" + t.info.name + "' needs a shape");
    const YAML::Node shape = node["shape"];
    reader_.requireSequence(shape, field + ".shape");
    for (std::size_t i = 0; i < shape.size(); ++i) {
        std::int64_t dim = integer(shape[i], scope, sub(field + ".shape", i));
        if (dim <= 0)
            reader_.fail(shape[i], sub(field + ".shape", i),
                         "dimension must be positive, got " + std::to_string(dim));
        t.info.shape.push_back(dim);
    }
    if (node["dtype"]) {
        std::string name = text(node["dtype"], scope, field + ".dtype");
        if (!parseDataType(name, t.info.dtype))
            reader_.fail(node["dtype"], field + ".dtype",
                         "unknown dtype '" + name +
                             "' (fp16, bf16, fp32, hf32, int8, uint8, int16, int32, int64, bool)");
    }
    if (node["format"]) {
        std::string name = text(node["format"], scope, field + ".format");
        if (!parseWorkloadTensorFormat(name, t.info.format))
            reader_.fail(
                node["format"], field + ".format",
                "unknown format '" + name + "' (ND, NCHW, NHWC, NC1HWC0, FRACTAL_NZ, FRACTAL_Z)");
    }
    if (node["kind"]) {
        std::string name = text(node["kind"], scope, field + ".kind");
        if (!parseTensorKind(name, t.kind))
            reader_.fail(
                node["kind"], field + ".kind",
                "unknown kind '" + name + "' (input, weight, activation, gradient, state)");
    }
    if (node["view_of"]) t.viewOf = tensorName(node["view_of"], scope, field + ".view_of");
    return t;
}

void BlockExpander::readAttrs(const YAML::Node& node, const ExpansionScope& scope,
                              const std::string& field, WorkloadOp& op) const {
    const OpSchema* schema = findOpSchema(op.type);
    if (node) {
        reader_.requireMap(node, field);
        for (const auto& entry : node) {
            std::string key = entry.first.Scalar();
            std::string keyField = field + "." + key;
            const AttrSpec* spec = schema->findAttr(key);
            if (!spec) {
                std::string known;
                for (const auto& a : schema->attrs) {
                    if (!known.empty()) known += ", ";
                    known += a.name;
                }
                reader_.fail(entry.first, keyField,
                             "unknown attribute '" + key + "' for " + op.type +
                                 " (known: " + (known.empty() ? "none" : known) + ")");
            }
            const YAML::Node value = entry.second;
            op.fieldLocations["attrs." + key] = reader_.locationOf(value);
            switch (spec->type) {
                case AttrType::Int:
                    op.attrs[key] = integer(value, scope, keyField);
                    break;
                case AttrType::Bool: {
                    std::string v = text(value, scope, keyField);
                    if (v != "true" && v != "false")
                        reader_.fail(value, keyField, "must be true or false, got '" + v + "'");
                    op.attrs[key] = v == "true";
                    break;
                }
                case AttrType::Float: {
                    std::string v = text(value, scope, keyField);
                    if (auto i = tryEvaluateInteger(v, {})) {
                        op.attrs[key] = static_cast<double>(*i);
                        break;
                    }
                    std::size_t used = 0;
                    double d = 0;
                    try {
                        d = std::stod(v, &used);
                    } catch (const std::exception&) {
                        used = 0;
                    }
                    if (used != v.size() || v.empty() || !std::isfinite(d))
                        reader_.fail(value, keyField, "must be a number, got '" + v + "'");
                    op.attrs[key] = d;
                    break;
                }
                case AttrType::String: {
                    std::string v = text(value, scope, keyField);
                    if (!spec->allowed.empty() &&
                        std::find(spec->allowed.begin(), spec->allowed.end(), v) ==
                            spec->allowed.end()) {
                        std::string list;
                        for (const auto& a : spec->allowed) {
                            if (!list.empty()) list += ", ";
                            list += a;
                        }
                        reader_.fail(value, keyField, "'" + v + "' is not one of: " + list);
                    }
                    op.attrs[key] = v;
                    break;
                }
                case AttrType::Ints: {
                    reader_.requireSequence(value, keyField);
                    std::vector<std::int64_t> values;
                    for (std::size_t i = 0; i < value.size(); ++i)
                        values.push_back(integer(value[i], scope, sub(keyField, i)));
                    op.attrs[key] = values;
                    break;
                }
            }
        }
    }
    for (const auto& spec : schema->attrs) {
        if (op.attrs.count(spec.name)) continue;
        if (spec.required) {
            throw WorkloadError(op.location, op.fieldPath + ".attrs",
                                op.type + " '" + op.name + "' needs attribute '" + spec.name + "'");
        }
        if (spec.defaultValue) op.attrs[spec.name] = *spec.defaultValue;
    }
}

WorkloadOp BlockExpander::readOp(const YAML::Node& node, const ExpansionScope& scope,
                                 const std::string& field) const {
    reader_.requireKnownKeys(node,
                             {"name", "type", "inputs", "outputs", "attrs", "block_dim", "aten",
                              "module", "stack", "phase", "forward", "when"},
                             field);
    WorkloadOp op;
    op.location = reader_.locationOf(node);
    op.fieldPath = field;
    for (const auto& entry : node)
        op.fieldLocations[entry.first.Scalar()] = reader_.locationOf(entry.second);
    if (!node["name"]) reader_.fail(node, field, "an op needs a name");
    op.name = opName(text(node["name"], scope, field + ".name"), scope);
    if (!node["type"]) reader_.fail(node, field, "op '" + op.name + "' needs a type");
    op.type = text(node["type"], scope, field + ".type");
    const OpSchema* schema = findOpSchema(op.type);
    if (!schema)
        reader_.fail(node["type"], field + ".type",
                     "unknown op type '" + op.type + "' (known: " + knownOpTypesText() + ")");
    for (const char* key : {"inputs", "outputs"}) {
        const YAML::Node list = node[key];
        std::string listField = field + "." + key;
        if (!list) reader_.fail(node, listField, "op '" + op.name + "' needs " + key);
        reader_.requireSequence(list, listField);
        auto& names = std::string(key) == "inputs" ? op.inputs : op.outputs;
        for (std::size_t i = 0; i < list.size(); ++i) {
            names.push_back(tensorName(list[i], scope, sub(listField, i)));
            op.fieldLocations[sub(key, i)] = reader_.locationOf(list[i]);
        }
    }
    if (op.inputs.size() < schema->minInputs || op.inputs.size() > schema->maxInputs) {
        std::string expected =
            schema->minInputs == schema->maxInputs
                ? std::to_string(schema->minInputs)
                : std::to_string(schema->minInputs) + " to " + std::to_string(schema->maxInputs);
        reader_.fail(node["inputs"], field + ".inputs",
                     op.type + " takes " + expected + (expected == "1" ? " input" : " inputs") +
                         ", got " + std::to_string(op.inputs.size()));
    }
    if (schema->outputs != 0 && op.outputs.size() != schema->outputs) {
        reader_.fail(node["outputs"], field + ".outputs",
                     op.type + " has " + std::to_string(schema->outputs) +
                         (schema->outputs == 1 ? " output" : " outputs") + ", got " +
                         std::to_string(op.outputs.size()));
    }
    readAttrs(node["attrs"], scope, field + ".attrs", op);
    if (const YAML::Node blockDim = node["block_dim"]) {
        std::int64_t value = integer(blockDim, scope, field + ".block_dim");
        if (value <= 0 || value > kMaxBlockDim) {
            reader_.fail(blockDim, field + ".block_dim",
                         "block_dim must be in 1..65535, got " + std::to_string(value));
        }
        op.blockDim = static_cast<std::uint32_t>(value);
    }
    if (node["aten"]) op.framework.atenName = text(node["aten"], scope, field + ".aten");
    op.framework.moduleHierarchy = scope.modulePrefix;
    if (const YAML::Node module = node["module"]) {
        for (const auto& part : reader_.scalarList(module, field + ".module")) {
            for (auto& segment :
                 splitPath(substitute(module, part, scope.params, field + ".module")))
                op.framework.moduleHierarchy.push_back(segment);
        }
    }
    if (const YAML::Node stack = node["stack"]) {
        for (const auto& frame : reader_.scalarList(stack, field + ".stack"))
            op.framework.callStack.push_back(
                substitute(stack, frame, scope.params, field + ".stack"));
    }
    op.framework.callStack.insert(op.framework.callStack.end(), scope.outerStack.begin(),
                                  scope.outerStack.end());
    op.framework.phase = scope.phase.value_or(OpPhase::Forward);
    if (const YAML::Node phase = node["phase"]) {
        std::string name = text(phase, scope, field + ".phase");
        if (!parseOpPhase(name, op.framework.phase))
            reader_.fail(phase, field + ".phase",
                         "unknown phase '" + name + "' (forward, backward, optimizer)");
    }
    if (const YAML::Node forward = node["forward"]) {
        std::string raw = reader_.scalar(forward, field + ".forward");
        op.framework.forwardOp = !containsSubstitution(raw) && scope.localOps.count(raw)
                                     ? opName(raw, scope)
                                     : text(forward, scope, field + ".forward");
    }
    return op;
}

}  // namespace ascendsim
