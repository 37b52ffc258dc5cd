#include "sim/workload/workload_graph.h"

#include <map>

#include "sim/workload/schema/op_schema.h"
#include "sim/workload/schema/shape_rules.h"
#include "sim/workload/tensor_text.h"

namespace ascendsim {

namespace {

bool isHostProvided(TensorKind k) {
    return k == TensorKind::Input || k == TensorKind::Weight || k == TensorKind::State;
}

std::string typeAndShape(const std::vector<std::int64_t>& shape, DataType dtype) {
    return shape_rules::shapeText(shape) + " " + std::string(dataTypeName(dtype));
}

class GraphChecker {
  public:
    GraphChecker(Workload& w, bool infer) : w_(w), infer_(infer) {}

    void run() {
        indexTensors();
        std::int64_t nextSequence = 0;
        std::map<std::string, std::size_t> opIndex;
        for (std::size_t i = 0; i < w_.ops.size(); ++i) {
            WorkloadOp& op = w_.ops[i];
            if (!opIndex.emplace(op.name, i).second) {
                fail(op, "name",
                     "op name '" + op.name + "' is used twice (first by " +
                         w_.ops[opIndex[op.name]].fieldPath + ")");
            }
            checkOp(op, i);
            linkSequence(op, opIndex, nextSequence);
        }
        checkViews();
    }

  private:
    // The ranks a collective spans (its `group` attribute; ops without one: the world).
    std::uint32_t collectiveGroupSize(const WorkloadOp& op) const {
        const auto group = op.attrs.find("group");
        if (group == op.attrs.end() || !std::holds_alternative<std::string>(group->second)) return w_.ranks;
        return w_.groupSize(std::get<std::string>(group->second));
    }
    [[noreturn]] void fail(const WorkloadOp& op, const std::string& field,
                           const std::string& problem) const {
        throw WorkloadError(op.locationOf(field), op.fieldPath + "." + field, problem);
    }

    void indexTensors() {
        for (std::size_t i = 0; i < w_.tensors.size(); ++i) {
            const WorkloadTensor& t = w_.tensors[i];
            auto [it, fresh] = index_.emplace(t.info.name, i);
            if (!fresh) {
                throw WorkloadError(t.location, t.fieldPath + ".name",
                                    "tensor '" + t.info.name + "' is declared twice (first at " +
                                        w_.tensors[it->second].location.str() + ")");
            }
        }
    }

    // The tensor whose bytes `name` uses: itself, or the base of a view.
    const std::string& baseOf(const std::string& name) const {
        const WorkloadTensor& t = w_.tensors[index_.at(name)];
        return t.viewOf.empty() || !index_.count(t.viewOf) ? t.info.name : baseOf(t.viewOf);
    }

    void checkInput(const WorkloadOp& op, std::size_t j, std::size_t opPos) const {
        const std::string field = "inputs[" + std::to_string(j) + "]";
        const std::string& name = op.inputs[j];
        auto producedLater = [&](const std::string& tensor) {
            for (std::size_t later = opPos + 1; later < w_.ops.size(); ++later) {
                for (const auto& out : w_.ops[later].outputs) {
                    if (out == tensor) {
                        fail(op, field,
                             "tensor '" + name + "' is read before op '" + w_.ops[later].name +
                                 "' produces it");
                    }
                }
            }
        };
        if (!index_.count(name)) {
            producedLater(name);
            fail(op, field, "unknown tensor '" + name + "'");
        }
        const WorkloadTensor& base = w_.tensors[index_.at(baseOf(name))];
        if (isHostProvided(base.kind) || produced_.count(base.info.name)) return;
        producedLater(base.info.name);
        fail(op, field,
             std::string(tensorKindName(base.kind)) + " '" + name +
                 "' is never produced by an op (declare it kind: input if the host feeds it)");
    }

    void checkOp(WorkloadOp& op, std::size_t opPos) {
        const OpSchema* schema = findOpSchema(op.type);
        if (!schema)
            fail(op, "type",
                 "unknown op type '" + op.type + "' (known: " + knownOpTypesText() + ")");
        if (op.inputs.size() < schema->minInputs || op.inputs.size() > schema->maxInputs) {
            fail(op, "inputs",
                 op.type + " takes " + std::to_string(schema->minInputs) + " to " +
                     std::to_string(schema->maxInputs) + " inputs, got " +
                     std::to_string(op.inputs.size()));
        }
        if (schema->outputs != 0 && op.outputs.size() != schema->outputs) {
            fail(op, "outputs",
                 op.type + " has " + std::to_string(schema->outputs) + " outputs, got " +
                     std::to_string(op.outputs.size()));
        }
        for (const auto& spec : schema->attrs) {
            if (op.attrs.count(spec.name)) continue;
            if (spec.required)
                fail(op, "attrs",
                     op.type + " '" + op.name + "' needs attribute '" + spec.name + "'");
            if (spec.defaultValue) op.attrs[spec.name] = *spec.defaultValue;
        }
        if (op.blockDim && (*op.blockDim == 0 || *op.blockDim > 65535)) {
            fail(op, "block_dim",
                 "block_dim must be in 1..65535, got " + std::to_string(*op.blockDim));
        }
        std::vector<TensorInfo> inputs;
        for (std::size_t j = 0; j < op.inputs.size(); ++j) {
            checkInput(op, j, opPos);
            inputs.push_back(w_.tensors[index_.at(op.inputs[j])].info);
        }
        std::vector<InferredTensor> inferred;
        try {
            inferred = schema->infer(inputs, OpAttributes{op.attrs, collectiveGroupSize(op)});
        } catch (const ShapeProblem& p) {
            fail(op, p.field(), op.type + " '" + op.name + "': " + p.what());
        }
        if (op.outputs.size() != inferred.size())
            fail(op, "outputs",
                 op.type + " '" + op.name + "' has " + std::to_string(inferred.size()) + " outputs for these inputs, got " +
                     std::to_string(op.outputs.size()));
        for (std::size_t k = 0; k < op.outputs.size(); ++k) checkOutput(op, k, inferred[k]);
    }

    void checkOutput(const WorkloadOp& op, std::size_t k, const InferredTensor& expected) {
        const std::string field = "outputs[" + std::to_string(k) + "]";
        const std::string& name = op.outputs[k];
        auto found = index_.find(name);
        // State (a KV cache) may be updated in place by several ops of a step.
        const bool state =
            found != index_.end() && w_.tensors[found->second].kind == TensorKind::State;
        if (auto previous = produced_.find(name); previous != produced_.end() && !state) {
            fail(op, field,
                 "tensor '" + name + "' is produced twice (also by op '" + previous->second + "')");
        }
        produced_[name] = op.name;
        if (found == index_.end()) {
            if (!infer_) fail(op, field, "unknown tensor '" + name + "'");
            WorkloadTensor t;
            t.info = TensorInfo{name, expected.shape, expected.dtype, expected.format, 0};
            t.kind = op.framework.phase == OpPhase::Forward ? TensorKind::Activation
                                                            : TensorKind::Gradient;
            t.declared = false;
            t.location = op.locationOf(field);
            t.fieldPath = op.fieldPath + "." + field;
            index_[name] = w_.tensors.size();
            w_.tensors.push_back(std::move(t));
            return;
        }
        const WorkloadTensor& t = w_.tensors[found->second];
        if (!t.viewOf.empty())
            fail(op, field,
                 "'" + name + "' is a view of '" + t.viewOf + "' and cannot be an op output");
        if (t.kind == TensorKind::Input)
            fail(op, field,
                 "'" + name + "' is an input (fed by the host) and cannot be an op output");
        bool shapeOk = expected.elementCountOnly
                           ? elementCountOf(t.info.shape) == elementCountOf(expected.shape)
                           : t.info.shape == expected.shape;
        if (!shapeOk || t.info.dtype != expected.dtype) {
            fail(op, field,
                 "'" + name + "' is declared " + typeAndShape(t.info.shape, t.info.dtype) +
                     " (at " + t.location.str() + ") but " + op.type + " '" + op.name +
                     "' produces " + typeAndShape(expected.shape, expected.dtype) +
                     (expected.elementCountOnly ? " (same element count required)" : ""));
        }
    }

    void linkSequence(WorkloadOp& op, const std::map<std::string, std::size_t>& opIndex,
                      std::int64_t& next) {
        op.framework.sequenceNumber = -1;
        if (op.framework.phase == OpPhase::Forward) op.framework.sequenceNumber = next++;
        if (op.framework.forwardOp.empty()) return;
        auto it = opIndex.find(op.framework.forwardOp);
        if (it == opIndex.end())
            fail(op, "forward",
                 "unknown forward op '" + op.framework.forwardOp + "' (it must come earlier)");
        const WorkloadOp& forward = w_.ops[it->second];
        if (forward.framework.phase != OpPhase::Forward) {
            fail(op, "forward", "op '" + forward.name + "' is not a forward op");
        }
        op.framework.sequenceNumber = forward.framework.sequenceNumber;
    }

    void checkViews() const {
        for (const auto& t : w_.tensors) {
            if (t.viewOf.empty()) continue;
            auto base = index_.find(t.viewOf);
            if (base == index_.end()) {
                throw WorkloadError(t.location, t.fieldPath + ".view_of",
                                    "unknown tensor '" + t.viewOf + "'");
            }
            const TensorInfo& b = w_.tensors[base->second].info;
            if (elementCountOf(b.shape) != elementCountOf(t.info.shape) ||
                b.dtype != t.info.dtype) {
                throw WorkloadError(t.location, t.fieldPath + ".view_of",
                                    "view '" + t.info.name + "' " +
                                        typeAndShape(t.info.shape, t.info.dtype) +
                                        " must have the element count and dtype of '" + b.name +
                                        "' " + typeAndShape(b.shape, b.dtype));
            }
        }
    }

    Workload& w_;
    bool infer_;
    std::map<std::string, std::size_t> index_;
    std::map<std::string, std::string> produced_;  // tensor -> producing op
};

}  // namespace

void checkWorkloadGraph(Workload& workload, bool inferMissingOutputs) {
    GraphChecker(workload, inferMissingOutputs).run();
}

}  // namespace ascendsim
